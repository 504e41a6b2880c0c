// Chooses the loops of a barrier kernel whose iterations the threads of a block should run in
// step, and marks each one's back edge with a stop: a barrier that only kjit placed, which the
// threads may pass one by one. Cut at its stop, the loop runs as a loop over passes, each pass a
// loop over the threads that the optimiser can vectorise, and consecutive threads touch
// consecutive memory in each pass, as a GPU's warp does: a grid-stride loop, run one thread after
// another, would walk the whole array once per thread.
#pragma once

#include <vector>

namespace llvm {
class Function;
class Instruction;
class Type;
class Value;
}  // namespace llvm

namespace kjit::cpu {

/// The address a load, a store or an atomic reads or writes; null for any other instruction.
const llvm::Value* accessed_pointer(const llvm::Instruction& i);

/// The type a load, a store or an atomic moves; null for any other instruction.
llvm::Type* accessed_type(const llvm::Instruction& i);

/// Adds a call to `stop` on the back edge of every loop of `f` that reaches no call to one of
/// `waits` (__syncthreads(), a warp meeting), may run more than a few iterations, and touches
/// memory at addresses that do not advance by one element per iteration. Returns how many such
/// loops there are; with a null `stop`, only counts them.
unsigned mark_loop_stops(llvm::Function& f, const std::vector<const llvm::Function*>& waits,
                         llvm::Function* stop);

}  // namespace kjit::cpu
