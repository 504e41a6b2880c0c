// Bounds checks that hide loads every thread shares. In FIR, `if (i < n - 15)` guards 16 loads
// of coefficients at addresses that do not depend on the thread; the loop over a block's threads
// vectorises them as masked gathers from one address each, since a load under a condition may
// not run early. LLVM's inductive range check elimination (IRCE) splits such a loop into the
// threads the check lets through, where the loads need no mask, and the rest.
#pragma once

namespace llvm {
class PassBuilder;
}  // namespace llvm

namespace kjit::cpu {

/// Adds, early in O3's simplification of each function, the split of loops that hold a load
/// from an address the same in every iteration, reached only through a condition. Other loops
/// are left as they are: the split costs code and per-block work (vadd and JACOBI_2D ran 10 to
/// 30% slower with it).
void add_range_check_splits(llvm::PassBuilder& builder);

}  // namespace kjit::cpu
