// Hardware faults in CPU kernels as launch errors, not deaths: kjit's handler for SIGSEGV, SIGBUS,
// SIGFPE and SIGILL (`__trap()`) stops the launch whose kernel code faulted
// (cpu_launch_failure.hpp), which then throws a LaunchError at the next synchronize naming the
// kernel, the block, the signal and the address. A fault anywhere else (host code, kjit's own,
// another library) goes to the handler the program had before kjit's, or to the system's default,
// as if kjit had installed none.
#pragma once

#include <cstdint>

namespace kjit::cpu {

/// Installs the handlers, once per process; later calls do nothing. A program that installs its
/// own handler for these signals afterwards replaces kjit's: its faults in kernels then go to it.
void install_fault_handlers();

/// Marks [begin, end) as kernel code (a loaded object's executable memory), or no longer.
/// Returns false when the table is full: faults there then go to the previous handler.
bool add_kernel_code(std::uintptr_t begin, std::uintptr_t end);
void remove_kernel_code(std::uintptr_t begin, std::uintptr_t end);

/// Whether `pc` lies in kernel code; async-signal-safe.
bool in_kernel_code(std::uintptr_t pc) noexcept;

/// Gives this thread a stack of its own for the fault handler, once: a kernel that overflows its
/// stack leaves the handler none to run on otherwise. Kept for the thread's life (a thread that
/// already had one keeps its own).
void ensure_fault_stack() noexcept;

/// Unblocks the fault signals on this thread: a launch stopped by a fault leaves its handler
/// with a jump, so the signal stays blocked until this. Called where the jump lands.
void unblock_fault_signals() noexcept;

}  // namespace kjit::cpu
