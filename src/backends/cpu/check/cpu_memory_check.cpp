#include "backends/cpu/check/cpu_memory_check.hpp"

#include "backends/cpu/check/cpu_race_check.hpp"
#include "backends/cpu/run/cpu_launch_failure.hpp"
#include "backends/cpu/run/cpu_memory.hpp"
#include "support/environment.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <map>
#include <mutex>
#include <new>
#include <string>
#include <vector>

namespace kjit::cpu {

namespace {

/// Freed allocations stay mapped (and reported when touched) until this many bytes wait.
constexpr std::size_t kQuarantineBytes = std::size_t{256} << 20;

struct Allocation {
  std::uintptr_t begin = 0;  // what the user got
  std::size_t bytes = 0;
  std::size_t padded = 0;  // bytes rounded up to a cache line: the red zone after starts there
  void* base = nullptr;    // what std::free takes
  std::string device;
  bool freed = false;
  [[nodiscard]] std::uintptr_t region_begin() const { return begin - kRedZone; }
  [[nodiscard]] std::uintptr_t region_end() const { return begin + padded + kRedZone; }
};

}  // namespace

class AllocationTable {
 public:
  explicit AllocationTable(std::vector<Allocation> sorted) : sorted_(std::move(sorted)) {}

  /// The allocation whose region (red zones included) holds `address`, or nullptr.
  [[nodiscard]] const Allocation* find(std::uintptr_t address) const {
    auto it = std::upper_bound(
        sorted_.begin(), sorted_.end(), address,
        [](std::uintptr_t a, const Allocation& x) { return a < x.region_begin(); });
    if (it == sorted_.begin()) {
      return nullptr;
    }
    --it;
    return address < it->region_end() ? &*it : nullptr;
  }

 private:
  std::vector<Allocation> sorted_;  // by address; regions do not overlap
};

namespace {

class Registry {
 public:
  static Registry& get() {
    static Registry* const r = new Registry;  // kernels may run while statics are destroyed
    return *r;
  }

  void* allocate(std::size_t bytes, const char* device) {
    const std::size_t padded = align_up(bytes == 0 ? 1 : bytes, kCacheLine);
    void* base = allocate_aligned(padded + 2 * kRedZone);
    if (base == nullptr) {
      return nullptr;
    }
    Allocation a;
    a.begin = reinterpret_cast<std::uintptr_t>(base) + kRedZone;
    a.bytes = bytes;
    a.padded = padded;
    a.base = base;
    a.device = device;
    const std::uintptr_t user = a.begin;
    const std::lock_guard lock(mutex_);
    try {
      allocations_[user] = std::move(a);
      publish();
    } catch (const std::bad_alloc&) {  // no memory to register it: as if none to allocate
      allocations_.erase(user);
      std::free(base);
      return nullptr;
    }
    return host_pointer(user);
  }

  void free(void* pointer) noexcept {
    const std::lock_guard lock(mutex_);
    const auto it = allocations_.find(reinterpret_cast<std::uintptr_t>(pointer));
    if (it == allocations_.end() || it->second.freed) {
      return;  // the device checks frees; nothing here to add
    }
    it->second.freed = true;
    quarantine_.push_back(it->first);
    quarantined_ += it->second.padded;
    while (quarantined_ > kQuarantineBytes && !quarantine_.empty()) {
      const auto old = allocations_.find(quarantine_.front());
      quarantine_.pop_front();
      quarantined_ -= old->second.padded;
      std::free(old->second.base);
      allocations_.erase(old);
    }
    try {
      publish();
    } catch (...) {  // no memory for a new table: launches check against the previous one
      std::fputs(
          "kjit: KJIT_CHECK=memory: no memory to record a free; the freed buffer is still "
          "seen as live\n",
          stderr);
    }
  }

  std::shared_ptr<const AllocationTable> current() {
    const std::lock_guard lock(mutex_);
    if (!current_) {
      current_ = std::make_shared<const AllocationTable>(std::vector<Allocation>{});
    }
    return current_;
  }

 private:
  // With mutex_ held.
  void publish() {
    std::vector<Allocation> sorted;
    sorted.reserve(allocations_.size());
    for (const auto& [begin, a] : allocations_) {
      sorted.push_back(a);
    }
    current_ = std::make_shared<const AllocationTable>(std::move(sorted));
  }

  std::mutex mutex_;
  std::map<std::uintptr_t, Allocation> allocations_;  // live and quarantined
  std::deque<std::uintptr_t> quarantine_;             // oldest first
  std::size_t quarantined_ = 0;
  std::shared_ptr<const AllocationTable> current_;
};

/// What the running worker checks against: set for a chunk of blocks of a checked launch.
struct WorkerChecks {
  const AllocationTable* table = nullptr;  // null: not a checked launch
  std::size_t shared_bytes = 0;
  bool memory = false;  // KJIT_CHECK has 'memory'
  /// Live allocations of `table` that accesses were found in lately, looked at before the table
  /// (a kernel mostly walks a few buffers), and the entry to replace next.
  std::array<const Allocation*, 4> recent{};
  unsigned next = 0;
};
// One thread-local record, of the initial-exec model: kernels call the check before every
// access, and each access of a dynamic-model variable calls __tls_get_addr.
constinit thread_local WorkerChecks t_checks __attribute__((tls_model("initial-exec")));
thread_local SharedRaceCheck t_races;  // the worker's records, reused from launch to launch

/// What KJIT_CHECK asks for, read once.
const detail::environment::Checks& checks_in_force() {
  static const detail::environment::Checks checks = detail::environment::checks();
  return checks;
}

std::string access_kind(std::uint32_t flags) {
  return (flags & KJIT_CPU_ACCESS_ATOMIC) != 0  ? "atomic access"
         : (flags & KJIT_CPU_ACCESS_WRITE) != 0 ? "write"
                                                : "read";
}

/// Where an access of `size` bytes at `address` lies relative to the `bytes` at `begin` (it is
/// not inside them).
std::string relative(std::uintptr_t address, std::uint64_t size, std::uintptr_t begin,
                     std::uint64_t bytes) {
  const std::uintptr_t end = begin + bytes;
  if (address < begin) {
    return fmt::format("{} bytes before", begin - address);
  }
  if (address >= end) {
    return fmt::format("{} bytes past the end of", address - end);
  }
  return fmt::format("runs {} bytes past the end of", address + size - end);
}

/// Stops the launch with the message `what()` makes, completed with the place, the thread and
/// `then()` (what else the user should know), naming the check (`check`, KJIT_CHECK's word).
/// Every string lives in the inner scope: the jump out of kernel code runs no destructor.
template <class What, class Then>
[[noreturn]] void report(const char* check, const What& what, const char* where,
                         const kjit_cpu_thread* thread, const Then& then) {
  try {
    std::string who;
    if (thread != nullptr) {
      const kjit_cpu_block& b = *thread->block;
      who = fmt::format(", block ({}, {}, {}), thread ({}, {}, {})", b.block_idx[0], b.block_idx[1],
                        b.block_idx[2], thread->thread_idx[0], thread->thread_idx[1],
                        thread->thread_idx[2]);
    }
    record_current_failure(fmt::format("kjit: kernel '{}' stopped: {}{}{}{}{} (KJIT_CHECK={})",
                                       current_kernel(), what(),
                                       where != nullptr && *where != '\0' ? " at " : "",
                                       where != nullptr ? where : "", who, then(), check));
  } catch (...) {  // no memory for the message
    record_current_failure("kjit: a checked kernel made a bad access (no memory to say more)");
  }
  abort_kernel_code();
}

template <class What>
[[noreturn]] void report_memory(const What& what, const char* where,
                                const kjit_cpu_thread* thread) {
  report("memory", what, where, thread, [] { return std::string(); });
}

/// Records an access of shared memory (`offset` in the block's) for the race check; stops the
/// launch when it races with an earlier access.
void check_race(SharedRaceCheck& races, std::size_t offset, std::uint64_t size, std::uint32_t flags,
                const char* where, const kjit_cpu_thread& thread) {
  const std::optional<SharedRace> race =
      races.record(offset, size, races.now(linear_thread(thread), where, flags));
  if (!race) {
    return;
  }
  const SharedAccess& earlier = race->earlier;
  report(
      "race",
      [&] {
        return fmt::format(
            "data race in shared memory: {} of {} bytes at offset {} of the block's {} bytes",
            access_kind(flags), size, offset, t_checks.shared_bytes);
      },
      where, &thread,
      [&] {
        const kjit_cpu_block& b = *thread.block;
        const std::uint32_t t = earlier.thread;
        return fmt::format(
            "; thread ({}, {}, {}) {} byte {} at {} with no barrier {}between", t % b.block_dim[0],
            t / b.block_dim[0] % b.block_dim[1], t / (b.block_dim[0] * b.block_dim[1]),
            earlier.atomic()   ? "updated atomically"
            : earlier.writes() ? "wrote"
                               : "read",
            race->offset, earlier.where != nullptr ? earlier.where : "an unknown place",
            t / KJIT_CPU_WARP_LANES == linear_thread(thread) / KJIT_CPU_WARP_LANES
                ? "or warp meeting "
                : "");
      });
}

}  // namespace

bool memory_checked() {
  return checks_in_force().memory;
}

bool races_checked() {
  return checks_in_force().race;
}

bool launches_checked() {
  return checks_in_force().any();
}

void* checked_allocate(std::size_t bytes, const char* device) {
  return Registry::get().allocate(bytes, device);
}

void checked_free(void* pointer) noexcept {
  Registry::get().free(pointer);
}

std::shared_ptr<const AllocationTable> current_allocations() {
  return Registry::get().current();
}

CheckedLaunch::CheckedLaunch(const AllocationTable* table, std::size_t shared_bytes) noexcept {
  t_checks = WorkerChecks{};
  t_checks.table = table;
  t_checks.shared_bytes = shared_bytes;
  t_checks.memory = memory_checked();
  if (races_checked()) {
    set_race_check(&t_races);
  }
}

CheckedLaunch::~CheckedLaunch() {
  t_checks = WorkerChecks{};
  set_race_check(nullptr);
}

void CheckedLaunch::begin_block(const kjit_cpu_block& block) {
  if (SharedRaceCheck* races = race_check()) {
    races->begin_block(t_checks.shared_bytes,
                       std::size_t{block.block_dim[0]} * block.block_dim[1] * block.block_dim[2]);
  }
}

namespace {

/// An access of `thread` that touches its block's shared memory or the red zones around it
/// (`shared`): checked for races inside, reported outside.
[[gnu::noinline]] void check_shared_area(std::uintptr_t at, std::uint64_t size, std::uint32_t flags,
                                         const char* where, const kjit_cpu_thread& thread,
                                         std::uintptr_t shared) {
  const std::size_t bytes = t_checks.shared_bytes;
  if (at >= shared && at + size <= shared + bytes) {
    if (SharedRaceCheck* races = race_check()) {
      check_race(*races, at - shared, size, flags, where, thread);
    }
    return;
  }
  if (!t_checks.memory) {
    return;  // no red zones: the memory around is not the shared memory's to check
  }
  report_memory(
      [&] {
        return fmt::format(
            "out-of-bounds {} of {} bytes in shared memory at offset {} of the block's {} bytes",
            access_kind(flags), size, static_cast<std::int64_t>(at - shared), bytes);
      },
      where, &thread);
}

/// An access that none of the recent allocations holds: looked up in the table, remembered when
/// it is inside a live allocation, reported when it touches a red zone or a freed one.
[[gnu::noinline]] void check_in_table(std::uintptr_t at, std::uint64_t size, std::uint32_t flags,
                                      const char* where, const kjit_cpu_thread* thread) {
  WorkerChecks& c = t_checks;
  const Allocation* a = c.table->find(at);
  if (a == nullptr) {
    a = c.table->find(at + size - 1);  // an access that starts in a red zone before
  }
  if (a == nullptr) {
    return;  // not memory kjit allocated
  }
  if (a->freed) {
    report_memory(
        [&] {
          return fmt::format(
              "{} of {} bytes at {:#x} after free: inside a {}-byte buffer of {} (offset "
              "{}) that was freed",
              access_kind(flags), size, at, a->bytes, a->device,
              static_cast<std::int64_t>(at - a->begin));
        },
        where, thread);
  }
  if (at >= a->begin && at + size <= a->begin + a->bytes) {
    c.recent[c.next++ % c.recent.size()] = a;
    return;
  }
  report_memory(
      [&] {
        return fmt::format(
            "out-of-bounds {} of {} bytes at {:#x}: {} a {}-byte buffer of {} at {:#x} "
            "(offset {})",
            access_kind(flags), size, at, relative(at, size, a->begin, a->bytes), a->bytes,
            a->device, a->begin, static_cast<std::int64_t>(at - a->begin));
      },
      where, thread);
}

}  // namespace

}  // namespace kjit::cpu

extern "C" void kjit_cpu_check_access(const void* address, std::uint64_t size, std::uint32_t flags,
                                      const char* where, const kjit_cpu_thread* thread) {
  using namespace kjit::cpu;
  const WorkerChecks& c = t_checks;
  if (c.table == nullptr || size == 0) {
    return;  // not a checked launch (a kernel compiled checked, run after KJIT_CHECK changed)
  }
  const auto at = reinterpret_cast<std::uintptr_t>(address);
  if (thread != nullptr && thread->block->shared != nullptr) {
    // Shared memory and its red zones (there only with 'memory'; without it, no access outside
    // shared memory is checked, so the same bounds serve).
    const auto shared = reinterpret_cast<std::uintptr_t>(thread->block->shared);
    if (at + size > shared - kRedZone && at < shared + c.shared_bytes + kRedZone) {
      check_shared_area(at, size, flags, where, *thread, shared);
      return;
    }
  }
  if (!c.memory) {
    return;
  }
  for (const Allocation* a : c.recent) {
    if (a != nullptr && at >= a->begin && at + size <= a->begin + a->bytes) {
      return;
    }
  }
  check_in_table(at, size, flags, where, thread);
}

extern "C" void kjit_cpu_check_shared_access(const void* address, std::uint64_t size,
                                             std::uint32_t flags, const char* where,
                                             const kjit_cpu_thread* thread,
                                             const kjit_cpu_shared_variable* variable) {
  using namespace kjit::cpu;
  if (t_checks.table != nullptr && t_checks.memory && size != 0 && thread != nullptr &&
      thread->block->shared != nullptr) {
    const auto at = reinterpret_cast<std::uintptr_t>(address);
    const auto shared = reinterpret_cast<std::uintptr_t>(thread->block->shared);
    const std::uintptr_t begin = shared + variable->begin;
    const std::uint64_t bytes = variable->end - variable->begin;
    if (at < begin || at + size > begin + bytes) {
      report_memory(
          [&] {
            return fmt::format(
                "out-of-bounds {} of {} bytes in shared memory at offset {} of the block's {} "
                "bytes: {} __shared__ '{}' ({} bytes at offset {})",
                access_kind(flags), size, static_cast<std::int64_t>(at - shared),
                t_checks.shared_bytes, relative(at, size, begin, bytes), variable->name, bytes,
                variable->begin);
          },
          where, thread);
    }
  }
  kjit_cpu_check_access(address, size, flags, where, thread);
}
