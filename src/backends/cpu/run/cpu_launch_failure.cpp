#include "backends/cpu/run/cpu_launch_failure.hpp"

#include "backends/cpu/check/cpu_fault_signals.hpp"
#include "backends/cpu/compile/cpu_object_linker.hpp"

#include <kjit/error.hpp>

#include <fmt/format.h>

#include <csignal>
#include <cstdio>
#include <cstdlib>

namespace kjit::cpu {

namespace {

// Host code on the executor's worker threads: ordinary thread-locals are fine here.
thread_local LaunchFailure* t_failure = nullptr;
thread_local const std::string* t_kernel = nullptr;
thread_local std::jmp_buf* t_abort_target = nullptr;
thread_local const kjit_cpu_block* t_block = nullptr;

const char* signal_name(int signal) {
  switch (signal) {
    case SIGSEGV:
      return "SIGSEGV";
    case SIGBUS:
      return "SIGBUS";
    case SIGFPE:
      return "SIGFPE";
    case SIGILL:
      return "SIGILL";
    default:
      return "a signal";
  }
}

std::string explain(const KernelFault& f) {
  switch (f.signal) {
    case SIGSEGV:
      if (f.stack_overflow) {
        return fmt::format(
            "stack overflow at address {:#x} (recursion too deep, or local arrays too large, for "
            "the thread's stack)",
            f.address);
      }
      return fmt::format("invalid memory access at address {:#x} ({})", f.address,
                         f.code == SEGV_ACCERR ? "not permitted" : "not mapped");
    case SIGBUS:
      return fmt::format("bus error at address {:#x}", f.address);
    case SIGFPE:
      return f.code == FPE_INTDIV || f.code == FPE_INTOVF
                 ? std::string(f.code == FPE_INTDIV ? "integer division by zero"
                                                    : "integer division overflow")
                 : std::string("arithmetic exception");
    case SIGILL:
      return "__trap() or an illegal instruction";
    default:
      return "hardware fault";
  }
}

}  // namespace

void LaunchFailure::record(std::string message) {
  if (claim()) {
    message_ = std::move(message);
    failed_.store(true, std::memory_order_release);
  }
}

void LaunchFailure::record_fault(const KernelFault& fault) noexcept {
  if (claim()) {
    fault_ = fault;
    has_fault_ = true;
    failed_.store(true, std::memory_order_release);
  }
}

std::string LaunchFailure::describe(const std::string& kernel) const {
  if (!failed()) {
    return {};
  }
  if (!has_fault_) {
    return message_;
  }
  const KernelFault& f = fault_;
  const std::string where =
      f.in_block ? fmt::format("a thread of block ({}, {}, {})", f.block[0], f.block[1], f.block[2])
                 : std::string("a thread of the launch");
  const std::optional<std::string> line = source_line_of(f.pc);
  return fmt::format(
      "kjit: kernel '{}' faulted: {} in {}, at instruction {:#x} ({}{}); the CPU device is "
      "unusable from now on, as a GPU's context is after a fault (its memory may be corrupt)",
      kernel, explain(f), where, f.pc, line ? *line + ", " : std::string(), signal_name(f.signal));
}

CurrentLaunch::CurrentLaunch(LaunchFailure& failure, const std::string& kernel) {
  ensure_fault_stack();
  t_failure = &failure;
  t_kernel = &kernel;
}

CurrentLaunch::~CurrentLaunch() {
  t_failure = nullptr;
  t_kernel = nullptr;
  t_abort_target = nullptr;
  t_block = nullptr;
}

void set_current_block(const kjit_cpu_block* block) noexcept {
  t_block = block;
}

bool stop_launch_for_fault(KernelFault fault) noexcept {
  if (t_failure == nullptr || t_abort_target == nullptr) {
    return false;
  }
  if (t_block != nullptr) {
    fault.in_block = true;
    for (int d = 0; d < 3; ++d) {
      fault.block[d] = t_block->block_idx[d];
    }
  }
  t_failure->record_fault(fault);
  abort_kernel_code();
}

std::jmp_buf* set_abort_target(std::jmp_buf* target) noexcept {
  std::jmp_buf* previous = t_abort_target;
  t_abort_target = target;
  return previous;
}

void record_current_failure(std::string message) noexcept {
  if (t_failure != nullptr) {
    try {
      t_failure->record(std::move(message));
    } catch (...) {  // no memory for the message: the launch still stops, saying less
      std::fputs("kjit: a kernel stopped its launch, and there was no memory to say why\n", stderr);
    }
  }
}

const std::string& current_kernel() noexcept {
  static const std::string unknown = "?";
  return t_kernel != nullptr ? *t_kernel : unknown;
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
          current_kernel(), expression, file, line, function, bx, by, bz, tx, ty, tz);
    } catch (...) {
      message = "kjit: a kernel's assertion failed (and its message could not be formatted)";
    }
    record_current_failure(std::move(message));
  }
  abort_kernel_code();  // after `message` is gone: the jump runs no destructor
}

extern "C" void kjit_cpu_warp_lanes_apart() {
  using namespace kjit::cpu;
  if (t_failure != nullptr) {
    std::string message;
    try {
      message = fmt::format(
          "kjit: kernel '{}' stopped: a warp shuffle compiled for a warp's lanes as vectors ran "
          "lane by lane (LLVM's fallback when a 32-bit index wraps around within a warp); "
          "KJIT_CPU_WARPS=meetings runs it",
          current_kernel());
    } catch (...) {
      message = "kjit: internal error: a warp's lanes ran apart in code made for them in step";
    }
    record_current_failure(std::move(message));
  }
  abort_kernel_code();
}
