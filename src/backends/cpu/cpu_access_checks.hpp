// Checked mode (KJIT_CHECK=memory or race), its compile-time half: a call to the run-time check
// (cpu_memory_check.hpp) before each memory access of the user's device code.
#pragma once

namespace llvm {
class Module;
}  // namespace llvm

namespace kjit::cpu {

/// Before each load, store, atomic operation, memcpy and memset of the program's own functions
/// (those with debug information outside kjit's prelude), unless its address is a local
/// variable's or a global variable's: a call __kjit_check_access(address, size, flags,
/// "file:line:col", __kjit_ctx()). Runs before the lowering threads the context through, so that
/// every checked function gets the running thread's.
void add_access_checks(llvm::Module& module);

}  // namespace kjit::cpu
