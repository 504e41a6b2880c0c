// A pass over a block's threads (cpu_barrier_regions.hpp) gets a second copy of its loops for
// what is true of all its threads at run time but that LLVM cannot know, checked once when the
// pass starts:
// - A thread's global index, `blockIdx.x * blockDim.x + threadIdx.x`, is 32-bit arithmetic that
//   C++ lets wrap, so LLVM cannot tell that consecutive threads read consecutive elements through
//   it. In the copy, the block's indices do not wrap, and the index says so.
// In that copy the threads' elements move as vectors.
// A warp-level operation reads and writes one of two places of its lane, chosen by the block's
// round of warp meetings (cpu_prelude_warp.h), which does not change during a pass: every call
// that reads it in a pass reads it once, when the pass starts, so that LLVM moves the lanes'
// values as vectors rather than a scatter and a gather.
#pragma once

#include <vector>

namespace llvm {
class Function;
class Module;
class Value;
}  // namespace llvm

namespace kjit::cpu {

/// `xs`: the thread x coordinates of `pass`'s loops over threads, each over a part of [0, nx).
/// Reads the block's round of warp meetings once for the pass, then versions the pass as above
/// when it has a 32-bit add of a value known on entry and one of them that could wrap; returns
/// whether it did.
bool version_pass(llvm::Function& pass, const std::vector<llvm::Value*>& xs, llvm::Value* nx);

/// Replaces every call of __kjit_warp_round left in `m` (those outside passes over threads: in
/// regions each thread runs alone, on fibers) by a read of the round in place.
void lower_warp_rounds(llvm::Module& m);

}  // namespace kjit::cpu
