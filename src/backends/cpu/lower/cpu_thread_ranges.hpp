// Runs a kernel's threads over contiguous ranges of the grid instead of block by block, where its
// work reads the thread's identity only through the linear index
// `blockIdx.x * blockDim.x + threadIdx.x`: a grid-stride loop
// (`for (i = index; i < n; i += stride)`), or one element per thread (`if (i < n) ...`). Threads
// of a grid share nothing through memory without synchronising, so the order in which different
// threads run is free; only each thread's own iterations keep their order. The range entry built
// here runs threads [first, end) of a 1-D grid row by row: row k is iteration k of every thread
// in the range, one contiguous stretch of indices, as one loop that LLVM vectorises with plain
// vector loads and stores, with no mask for the bound and no call per block. Block by block, a
// grid-stride loop made each block touch a small piece of every array per iteration (or pay a
// pass per iteration and block, cpu_loop_stops.hpp), and one element per thread paid a call and
// a masked vector loop per block.
#pragma once

#include <string>

namespace llvm {
class Function;
}  // namespace llvm

namespace kjit::cpu {

/// `thread_entry` is void(args, block, x, y, z) with every call inlined and simplified (loops
/// rotated). When its only side effects are in one grid-stride loop, or behind one bound on the
/// thread's index, and read the thread's identity through that index alone, adds `range_name`,
/// bool(args, block, u64 first, u64 end), to the module: it runs threads [first, end) (linear
/// indices of a grid and block that are 1-D) and returns true, or returns false having done
/// nothing when the launch's values could overflow an index (the caller then runs those threads
/// as blocks). Returns an empty string when it added the entry, otherwise why not;
/// `thread_entry` is left as it was.
std::string make_range_entry(const llvm::Function& thread_entry, const std::string& range_name);

}  // namespace kjit::cpu
