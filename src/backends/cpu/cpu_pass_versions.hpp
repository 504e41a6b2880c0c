// A pass over a block's threads (cpu_barrier_regions.hpp) gets a second copy of its loops for
// what is true of all its threads at run time but that LLVM cannot know, checked once when the
// pass starts:
// - A thread's global index, `blockIdx.x * blockDim.x + threadIdx.x`, is 32-bit arithmetic that
//   C++ lets wrap, so LLVM cannot tell that consecutive threads read consecutive elements through
//   it. In the copy, the block's indices do not wrap, and the index says so.
// - A warp-level operation reads and writes one of two places of its lane, chosen by the lane's
//   count of such operations (cpu_prelude_warp.h), so LLVM sees a scatter and a gather. In the
//   copy, every thread has the same count, read once.
// In that copy the threads' elements and warp values move as vectors.
#pragma once

#include <vector>

namespace llvm {
class Function;
class Module;
class Value;
}  // namespace llvm

namespace kjit::cpu {

/// `xs`: the thread x coordinates of `pass`'s loops over threads, each over a part of [0, nx);
/// the threads it runs are those of linear index [first, end) (i64, end > first). Versions the
/// pass as above when it has a 32-bit add of a value known on entry and one of them that could
/// wrap, or a warp count (its count calls then read thread first's count in the copy); returns
/// whether it did.
bool version_pass(llvm::Function& pass, const std::vector<llvm::Value*>& xs, llvm::Value* nx,
                  llvm::Value* first, llvm::Value* end);

/// Replaces every call of __kjit_warp_count left in `m` (all but those of versioned passes' fast
/// copies) by the lane's own count, computed in place.
void lower_warp_counts(llvm::Module& m);

}  // namespace kjit::cpu
