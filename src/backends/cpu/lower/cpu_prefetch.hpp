// Software prefetch for loops that the threads of a block run in step. A grid-stride loop in
// step reads, per pass over the block's threads, one stretch of memory and then jumps a whole
// grid ahead: the hardware's prefetchers, which follow streams within a page, stop at every
// jump. Each thread therefore asks for the line it will touch on its next iteration, and the
// request is made so that the loop over threads still vectorises: a call with vector variants,
// which the loop vectoriser keeps as one call per vector of threads, lowered to prefetch
// instructions once the optimiser has run.
#pragma once

#include <vector>

namespace llvm {
class Instruction;
class Loop;
class Module;
class ScalarEvolution;
}  // namespace llvm

namespace kjit::cpu {

/// Asks, after each of `accesses` (loads and stores of `loop` that run on every iteration and
/// whose address advances by a loop-invariant step), for the line that the access will touch one
/// iteration on.
void prefetch_next_iteration(llvm::ScalarEvolution& se, const llvm::Loop& loop,
                             const std::vector<llvm::Instruction*>& accesses);

/// Replaces the requests made by prefetch_next_iteration, scalar or vectorised, with prefetch
/// instructions. Runs after the optimiser: until then they are calls, which LLVM keeps in place.
void lower_prefetches(llvm::Module& m);

}  // namespace kjit::cpu
