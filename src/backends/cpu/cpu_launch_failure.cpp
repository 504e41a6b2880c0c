#include "backends/cpu/cpu_launch_failure.hpp"

#include <kjit/error.hpp>

#include <fmt/format.h>

#include <cstdio>
#include <cstdlib>

namespace kjit::cpu {

namespace {

// Host code on the executor's worker threads: ordinary thread-locals are fine here.
thread_local LaunchFailure* t_failure = nullptr;
thread_local const std::string* t_kernel = nullptr;
thread_local std::jmp_buf* t_abort_target = nullptr;

}  // namespace

void LaunchFailure::record(std::string message) {
  const std::lock_guard lock(mutex_);
  if (!failed_.load(std::memory_order_relaxed)) {
    message_ = std::move(message);
    failed_.store(true, std::memory_order_release);
  }
}

void LaunchFailure::throw_if_failed() const {
  if (failed()) {
    const std::lock_guard lock(mutex_);
    throw LaunchError(message_);
  }
}

CurrentLaunch::CurrentLaunch(LaunchFailure& failure, const std::string& kernel) {
  t_failure = &failure;
  t_kernel = &kernel;
}

CurrentLaunch::~CurrentLaunch() {
  t_failure = nullptr;
  t_kernel = nullptr;
  t_abort_target = nullptr;
}

std::jmp_buf* set_abort_target(std::jmp_buf* target) noexcept {
  std::jmp_buf* previous = t_abort_target;
  t_abort_target = target;
  return previous;
}

bool current_launch_failed() noexcept {
  return t_failure != nullptr && t_failure->failed();
}

void abort_kernel_code() noexcept {
  if (t_abort_target == nullptr) {
    // Cannot happen: the executor and the fibers set a target before running kernel code.
    std::fputs("kjit: internal error: a CPU kernel stopped with nowhere to return to\n", stderr);
    std::abort();
  }
  std::longjmp(*t_abort_target, 1);  // NOLINT(cert-err52-cpp): kernel code has no unwind tables
}

}  // namespace kjit::cpu

extern "C" void kjit_cpu_assert_failed(const char* expression, const char* file, unsigned line,
                                       const char* function, unsigned tx, unsigned ty, unsigned tz,
                                       unsigned bx, unsigned by, unsigned bz) {
  using namespace kjit::cpu;
  if (t_failure != nullptr) {
    std::string message;
    try {
      message = fmt::format(
          "kjit: kernel '{}' stopped: assertion `{}` failed at {}:{} in {}, block ({}, {}, {}), "
          "thread ({}, {}, {})",
          t_kernel != nullptr ? *t_kernel : std::string("?"), expression, file, line, function, bx,
          by, bz, tx, ty, tz);
    } catch (...) {
      message = "kjit: a kernel's assertion failed (and its message could not be formatted)";
    }
    t_failure->record(std::move(message));
  }
  abort_kernel_code();
}
