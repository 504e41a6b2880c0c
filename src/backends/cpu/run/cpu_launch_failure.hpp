// How a CPU kernel stops its launch: a failed assert() records why and leaves the kernel's code
// at once (a longjmp to the point where the executor or the block's fiber entered it). The
// executor then starts no further blocks, and the launch throws a LaunchError that says where
// and why, which the stream keeps for the next synchronize(). Setjmp/longjmp rather than
// exceptions: kernel code is compiled without unwind tables.
#pragma once

#include "backends/cpu/prelude/cpu_abi.h"

#include <atomic>
#include <csetjmp>
#include <cstdint>
#include <string>

namespace kjit::cpu {

/// A hardware fault in kernel code, as the signal handler saw it (cpu_fault_signals.hpp).
struct KernelFault {
  int signal = 0;
  int code = 0;                 // siginfo's si_code
  std::uintptr_t address = 0;   // the address accessed (SIGSEGV, SIGBUS) or of the instruction
  std::uintptr_t pc = 0;        // the faulting instruction
  bool stack_overflow = false;  // the access was just below the stack pointer
  bool in_block = false;        // whether `block` is known (not for a range of threads)
  unsigned block[3] = {0, 0, 0};
};

/// The first failure of one launch: an assertion's message, or a fault.
class LaunchFailure {
 public:
  /// Keeps `message` if it is the first; later ones are dropped.
  void record(std::string message);
  /// Keeps `fault` if it is the first; async-signal-safe (no lock, no allocation).
  void record_fault(const KernelFault& fault) noexcept;
  [[nodiscard]] bool failed() const noexcept { return failed_.load(std::memory_order_acquire); }
  /// Whether the first failure was a fault: memory may be corrupt (the device is then broken).
  [[nodiscard]] bool faulted() const noexcept { return failed() && has_fault_; }
  /// What failed, for `kernel`; empty when nothing did.
  [[nodiscard]] std::string describe(const std::string& kernel) const;

 private:
  /// True for the one caller that may write the failure.
  bool claim() noexcept { return !claimed_.exchange(true, std::memory_order_acq_rel); }

  // The one claimant writes the failure, then sets failed_; readers look only once it is set.
  std::atomic<bool> claimed_{false};
  std::atomic<bool> failed_{false};
  std::string message_;
  bool has_fault_ = false;
  KernelFault fault_;
};

/// What the running worker thread is executing: set for the duration of a chunk of blocks.
class CurrentLaunch {
 public:
  CurrentLaunch(LaunchFailure& failure, const std::string& kernel);
  CurrentLaunch(const CurrentLaunch&) = delete;
  CurrentLaunch& operator=(const CurrentLaunch&) = delete;
  ~CurrentLaunch();
};

/// Where kernel code on this worker thread returns to when it stops: the executor's block loop,
/// or the running fiber's entry. Returns the previous target.
std::jmp_buf* set_abort_target(std::jmp_buf* target) noexcept;

/// From kernel code (a failed assert or check): records `message` for the launch running on this
/// thread. The caller then leaves with abort_kernel_code(), once its own strings are gone (the
/// jump runs no destructor).
void record_current_failure(std::string message) noexcept;
/// The name of the kernel the running launch runs, or "?" outside one.
const std::string& current_kernel() noexcept;

/// True when the launch running on this thread has failed (its blocks should stop).
bool current_launch_failed() noexcept;

/// The block this thread is running, for a fault's message; null for a range of threads.
void set_current_block(const kjit_cpu_block* block) noexcept;

/// From the fault handler: records `fault` for the launch running on this thread and leaves its
/// kernel code for the abort target. Returns (false) only when no launch runs on this thread.
bool stop_launch_for_fault(KernelFault fault) noexcept;

/// Leaves the kernel code running on this thread for its abort target.
[[noreturn]] void abort_kernel_code() noexcept;

}  // namespace kjit::cpu

/// A region made for a warp's lanes in step, reached by a thread on its own (kjit's lowering
/// makes sure none is): stops the kernel with an internal error rather than run it wrong.
extern "C" [[noreturn]] void kjit_cpu_warp_lanes_apart();
/// assert() of JIT-compiled kernels, when the expression is false (prelude: __kjit_assert_fail).
extern "C" [[noreturn]] void kjit_cpu_assert_failed(const char* expression, const char* file,
                                                    unsigned line, const char* function,
                                                    unsigned tx, unsigned ty, unsigned tz,
                                                    unsigned bx, unsigned by, unsigned bz);
