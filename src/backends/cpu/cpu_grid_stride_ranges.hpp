// Runs a grid-stride loop over contiguous ranges of the grid's threads. A kernel whose work is one
// grid-stride loop (`for (i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)`), run
// block by block, has each block touch a small piece of every array per iteration and walk to the
// next piece far away; the loops in step of cpu_loop_stops.hpp pay a pass per iteration and
// block. Threads of a grid share nothing through memory without synchronising, so the order in
// which different threads run their iterations is free; only each thread's own iterations keep
// their order. The range entry built here runs threads [first, end) of a 1-D grid row by row: row
// k is iteration k of every thread in the range, one contiguous stretch of indices, as one loop
// that LLVM vectorises with plain vector loads and stores.
#pragma once

#include <string>

namespace llvm {
class Function;
}  // namespace llvm

namespace kjit::cpu {

/// `thread_entry` is void(args, block, x, y, z) with every call inlined, simplified and its loops
/// rotated. When its only side effects are in one grid-stride loop whose iterations read the
/// thread's identity through the loop's index alone, adds `range_name`, bool(args, block,
/// u64 first, u64 end), to the module: it runs threads [first, end) (linear indices of a grid and
/// block that are 1-D) and returns true, or returns false having done nothing when the launch's
/// values could overflow an index (the caller then runs those threads as blocks). Returns an
/// empty string when it added the entry, otherwise why not; `thread_entry` is left as it was.
std::string make_range_entry(const llvm::Function& thread_entry, const std::string& range_name);

}  // namespace kjit::cpu
