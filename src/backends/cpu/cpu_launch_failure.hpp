// How a CPU kernel stops its launch: a failed assert() records why and leaves the kernel's code
// at once (a longjmp to the point where the executor or the block's fiber entered it). The
// executor then starts no further blocks, and the launch throws a LaunchError that says where
// and why, which the stream keeps for the next synchronize(). Setjmp/longjmp rather than
// exceptions: kernel code is compiled without unwind tables.
#pragma once

#include <atomic>
#include <csetjmp>
#include <mutex>
#include <string>

namespace kjit::cpu {

/// The first failure of one launch.
class LaunchFailure {
 public:
  /// Keeps `message` if it is the first; later ones are dropped.
  void record(std::string message);
  [[nodiscard]] bool failed() const noexcept { return failed_.load(std::memory_order_acquire); }
  /// Throws LaunchError with the recorded message, if any.
  void throw_if_failed() const;

 private:
  std::atomic<bool> failed_{false};
  mutable std::mutex mutex_;
  std::string message_;
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

/// True when the launch running on this thread has failed (its blocks should stop).
bool current_launch_failed() noexcept;

/// Leaves the kernel code running on this thread for its abort target.
[[noreturn]] void abort_kernel_code() noexcept;

}  // namespace kjit::cpu

/// assert() of JIT-compiled kernels, when the expression is false (prelude: __kjit_assert_fail).
extern "C" [[noreturn]] void kjit_cpu_assert_failed(const char* expression, const char* file,
                                                    unsigned line, const char* function,
                                                    unsigned tx, unsigned ty, unsigned tz,
                                                    unsigned bx, unsigned by, unsigned bz);
