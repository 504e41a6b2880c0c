#include "backends/cpu/check/cpu_fault_signals.hpp"

#include "backends/cpu/run/cpu_launch_failure.hpp"

#include "support/logging.hpp"

#include <signal.h>
#include <sys/mman.h>
#include <ucontext.h>

#include <array>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <mutex>

namespace kjit::cpu {

namespace {

constexpr std::array<int, 4> kSignals = {SIGSEGV, SIGBUS, SIGFPE, SIGILL};

/// The actions in place before kjit's, one per signal of kSignals; written once, before kjit's
/// handler is installed, and only read after.
std::array<struct sigaction, kSignals.size()> previous{};

/// Kernel code: a fixed table, so that the handler can read it without a lock. A slot is free
/// while its begin is 0.
struct CodeRange {
  std::atomic<std::uintptr_t> begin{0};
  std::atomic<std::uintptr_t> end{0};
};
constexpr std::size_t kRanges = 8192;
std::array<CodeRange, kRanges> ranges;
std::mutex ranges_mutex;  // writers only

/// The handler's stack on a thread that runs kernels, mapped on its first launch; given back when
/// the thread ends.
class FaultStack {
 public:
  FaultStack() = default;
  FaultStack(const FaultStack&) = delete;
  FaultStack& operator=(const FaultStack&) = delete;
  ~FaultStack() {
    if (memory_ == nullptr) {
      return;
    }
    stack_t current{};
    if (sigaltstack(nullptr, &current) == 0 && current.ss_sp == memory_) {
      stack_t off{};
      off.ss_flags = SS_DISABLE;
      sigaltstack(&off, nullptr);
    }
    munmap(memory_, kBytes);
  }

  void ensure() noexcept {
    if (tried_) {
      return;
    }
    tried_ = true;
    stack_t current{};
    if (sigaltstack(nullptr, &current) != 0 || (current.ss_flags & SS_DISABLE) == 0) {
      return;  // the thread has one already (the program's), or none can be asked for
    }
    void* memory =
        mmap(nullptr, kBytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (memory == MAP_FAILED) {
      return;
    }
    stack_t ours{};
    ours.ss_sp = memory;
    ours.ss_size = kBytes;
    if (sigaltstack(&ours, nullptr) != 0) {
      munmap(memory, kBytes);
      return;
    }
    memory_ = memory;
  }

 private:
  static constexpr std::size_t kBytes = std::size_t{64} * 1024;
  void* memory_ = nullptr;
  bool tried_ = false;
};

/// Where the faulting thread was: its instruction and stack pointers; 0 where unknown (then no
/// fault is taken for kernel code).
struct Registers {
  std::uintptr_t pc = 0;
  std::uintptr_t sp = 0;
};

Registers registers(const void* context) noexcept {
  const auto* uc = static_cast<const ucontext_t*>(context);
#if defined(__x86_64__)
  return {static_cast<std::uintptr_t>(uc->uc_mcontext.gregs[REG_RIP]),
          static_cast<std::uintptr_t>(uc->uc_mcontext.gregs[REG_RSP])};
#elif defined(__aarch64__)
  return {static_cast<std::uintptr_t>(uc->uc_mcontext.pc),
          static_cast<std::uintptr_t>(uc->uc_mcontext.sp)};
#else
  (void)uc;
  return {};
#endif
}

/// What the program would have done without kjit: its own handler, or the default action.
void pass_on(int signal, siginfo_t* info, void* context) noexcept {
  std::size_t i = 0;
  while (i < kSignals.size() && kSignals[i] != signal) {
    ++i;
  }
  const struct sigaction& before = previous[i];
  if ((before.sa_flags & SA_SIGINFO) != 0 && before.sa_sigaction != nullptr) {
    before.sa_sigaction(signal, info, context);
    return;
  }
  if (before.sa_handler != SIG_DFL && before.sa_handler != SIG_IGN &&
      before.sa_handler != nullptr) {
    before.sa_handler(signal);
    return;
  }
  // The default action: restored, then the faulting instruction runs again on return (or, for a
  // signal sent rather than raised by the hardware, the signal is sent again).
  struct sigaction fallback {};
  fallback.sa_handler = SIG_DFL;
  sigemptyset(&fallback.sa_mask);
  sigaction(signal, &fallback, nullptr);
  if (info == nullptr || info->si_code <= 0) {
    raise(signal);
  }
}

void on_fault(int signal, siginfo_t* info, void* context) {
  const int saved_errno = errno;
  const auto [pc, sp] = registers(context);
  if (pc != 0 && in_kernel_code(pc)) {
    KernelFault fault;
    fault.signal = signal;
    fault.code = info != nullptr ? info->si_code : 0;
    fault.address = info != nullptr ? reinterpret_cast<std::uintptr_t>(info->si_addr) : 0;
    fault.pc = pc;
    // An access just below the stack pointer: the stack ran into its guard page.
    constexpr std::uintptr_t kNear = std::uintptr_t{64} * 1024;
    fault.stack_overflow =
        signal == SIGSEGV && sp != 0 && fault.address + kNear >= sp && fault.address < sp + kNear;
    stop_launch_for_fault(fault);  // does not return when a launch runs on this thread
  }
  errno = saved_errno;
  pass_on(signal, info, context);
}

}  // namespace

void install_fault_handlers() {
  static std::once_flag once;
  std::call_once(once, [] {
    for (std::size_t i = 0; i < kSignals.size(); ++i) {
      struct sigaction ours {};
      ours.sa_sigaction = on_fault;
      ours.sa_flags = SA_SIGINFO | SA_ONSTACK;
      sigemptyset(&ours.sa_mask);
      if (sigaction(kSignals[i], &ours, &previous[i]) != 0) {
        detail::log().warn(
            "cannot handle signal {} ({}): a fault in a CPU kernel will end the "
            "process",
            kSignals[i], std::strerror(errno));
      }
    }
  });
}

bool add_kernel_code(std::uintptr_t begin, std::uintptr_t end) {
  const std::lock_guard lock(ranges_mutex);
  for (CodeRange& r : ranges) {
    if (r.begin.load(std::memory_order_relaxed) == 0) {
      r.end.store(end, std::memory_order_release);
      r.begin.store(begin, std::memory_order_release);
      return true;
    }
  }
  return false;
}

void remove_kernel_code(std::uintptr_t begin, std::uintptr_t end) {
  const std::lock_guard lock(ranges_mutex);
  for (CodeRange& r : ranges) {
    if (r.begin.load(std::memory_order_relaxed) == begin &&
        r.end.load(std::memory_order_relaxed) == end) {
      r.begin.store(0, std::memory_order_release);
      r.end.store(0, std::memory_order_release);
      return;
    }
  }
}

bool in_kernel_code(std::uintptr_t pc) noexcept {
  for (const CodeRange& r : ranges) {
    const std::uintptr_t begin = r.begin.load(std::memory_order_acquire);
    if (begin != 0 && begin <= pc && pc < r.end.load(std::memory_order_acquire)) {
      return true;
    }
  }
  return false;
}

void ensure_fault_stack() noexcept {
  thread_local FaultStack stack;  // host code: ordinary TLS is fine here
  stack.ensure();
}

void unblock_fault_signals() noexcept {
  sigset_t set;
  sigemptyset(&set);
  for (const int s : kSignals) {
    sigaddset(&set, s);
  }
  pthread_sigmask(SIG_UNBLOCK, &set, nullptr);
}

}  // namespace kjit::cpu
