// Checked mode (KJIT_CHECK=memory or race), its compile-time half: a call to the run-time check
// (cpu_memory_check.hpp) before each memory access of the user's device code.
#pragma once

#include <cstdint>
#include <string_view>

namespace llvm {
class CallInst;
class Module;
}  // namespace llvm

namespace kjit::cpu {

/// What the checks ask for the running thread's context with, during the lowering: the context
/// where the checked function has it, else null (cpu_kernel_lowering.cpp). A check needs it only
/// to name the thread and to find its block's shared memory, so that a function used through a
/// pointer, which cannot be given the context, is still checked, and is not refused for reading
/// it (as one that reads threadIdx is).
inline constexpr std::string_view kCheckContextSymbol = "__kjit_check_ctx";

/// Before each load, store, atomic operation, memcpy and memset of the program's own functions
/// (those with debug information outside kjit's prelude), unless its address is a local
/// variable's or a global variable's: a call __kjit_check_access(address, size, flags,
/// "file:line:col", __kjit_check_ctx()). Runs before the lowering threads the context through, so
/// that every checked function that can be given it gets the running thread's.
/// Accesses through an address the lowering's shared-memory layout gave (`slot`, a call that
/// yields the block's shared memory at an offset) marked with the variable's name and size are
/// checked against that variable's bounds (kjit_cpu_check_shared_access).
void add_access_checks(llvm::Module& module);

/// Marks `slot` as the address of the __shared__ variable `name` of `size` bytes (its offset is
/// the call's argument).
void mark_shared_variable(llvm::CallInst& slot, std::string_view name, std::uint64_t size);

}  // namespace kjit::cpu
