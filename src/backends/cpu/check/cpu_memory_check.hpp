// Checked mode (KJIT_CHECK=memory) of the CPU backend, its run-time half: every allocation the
// CPU devices make gets a red zone on each side and is registered; a freed one stays mapped, in
// quarantine, for a while. Kernels compiled in checked mode call kjit_cpu_check_access() before
// each access to memory that is not their own stack (cpu_access_checks.hpp instruments them); an
// access that touches a red zone, a quarantined allocation or the red zones around the block's
// shared memory stops the launch, as a failed assert does, with a LaunchError naming the kernel,
// block, thread, address, the allocation it was nearest to (its size, the offset) and the source
// line. Addresses kjit does not know (a kernel's own data, host memory, device malloc) pass.
// With KJIT_CHECK=race, the same call hands accesses to the block's shared memory to the race
// check (cpu_race_check.hpp).
#pragma once

#include "backends/cpu/prelude/cpu_abi.h"

#include <cstddef>
#include <cstdint>
#include <memory>

namespace kjit::cpu {

/// Bytes of red zone before and after each checked allocation and the block's shared memory.
inline constexpr std::size_t kRedZone = 256;

/// The allocations known at one moment, which a launch checks its accesses against.
class AllocationTable;

/// What KJIT_CHECK asks for, read once (ConfigError for a value it does not take): red zones and
/// checks against the allocations ('memory'); the race check of shared memory ('race',
/// cpu_race_check.hpp); either, so that launches set CheckedLaunch.
bool memory_checked();
bool races_checked();
bool launches_checked();

/// Allocates `bytes` with red zones and registers them for `device` (a label for messages);
/// nullptr when out of memory.
void* checked_allocate(std::size_t bytes, const char* device);
/// Moves a checked allocation to quarantine (it is freed when the quarantine overflows).
void checked_free(void* pointer) noexcept;

/// The table as it is now, for a launch to check against.
std::shared_ptr<const AllocationTable> current_allocations();

/// What the running worker thread checks against: set for a chunk of blocks of a checked launch.
class CheckedLaunch {
 public:
  CheckedLaunch(const AllocationTable* table, std::size_t shared_bytes) noexcept;
  CheckedLaunch(const CheckedLaunch&) = delete;
  CheckedLaunch& operator=(const CheckedLaunch&) = delete;
  ~CheckedLaunch();
  /// The worker starts running `block` (the race check's records start afresh).
  void begin_block(const kjit_cpu_block& block);
};

}  // namespace kjit::cpu

extern "C" {
/// Called by checked kernel code before an access of `size` bytes at `address`; `flags`:
/// KJIT_CPU_ACCESS_WRITE, KJIT_CPU_ACCESS_ATOMIC (cpu_abi.h); `where` "file:line:col"; `thread`
/// the running thread's context.
void kjit_cpu_check_access(const void* address, std::uint64_t size, std::uint32_t flags,
                           const char* where, const kjit_cpu_thread* thread);
/// The same for an access the compiler knows to be meant for the __shared__ variable `variable`:
/// with KJIT_CHECK=memory, an access outside that variable is reported, naming it, even where it
/// lands inside another variable of the block.
void kjit_cpu_check_shared_access(const void* address, std::uint64_t size, std::uint32_t flags,
                                  const char* where, const kjit_cpu_thread* thread,
                                  const kjit_cpu_shared_variable* variable);
}
