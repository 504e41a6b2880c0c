// A thread's global index, `blockIdx.x * blockDim.x + threadIdx.x`, is 32-bit arithmetic that C++
// lets wrap: in a pass over a block's threads (cpu_barrier_regions.hpp), LLVM cannot tell that
// consecutive threads read consecutive elements through it, and loads and stores them one at a
// time. A pass whose loops have such an index gets a second copy of its loops, taken when the
// block's indices cannot wrap (checked once, on entry), in which the index says so: there the
// threads' elements move as vectors.
#pragma once

#include <vector>

namespace llvm {
class Function;
class Value;
}  // namespace llvm

namespace kjit::cpu {

/// `xs`: the thread x coordinates of `pass`'s loops over threads, each over a part of [0, nx).
/// Versions the pass as above when some 32-bit add of a value known on entry and one of them
/// could wrap; returns whether it did.
bool version_on_index_wrap(llvm::Function& pass, const std::vector<llvm::Value*>& xs,
                           llvm::Value* nx);

}  // namespace kjit::cpu
