// Splits a kernel that calls __syncthreads() into regions, from barrier to barrier, so that the
// threads of a block run as loops (one per region, which the optimiser can vectorise) instead of
// as fibers. Values a thread keeps across a barrier live in the block's frame: one slot per value,
// thread-major within a slot, so that the threads of one loop touch consecutive memory.
#pragma once

#include <cstdint>
#include <set>
#include <string>

namespace llvm {
class Function;
}  // namespace llvm

namespace kjit::cpu {

struct RegionSplit {
  bool split = false;
  std::uint64_t frame_bytes = 0;  // per thread
  bool yields = false;            // has loops in step: blocks can take turns (cpu_abi.h)
  std::string why_not;            // when not split: the construct that kept the fibers
  bool ranges = false;            // a range entry was added (cpu_thread_ranges.hpp)
  std::string why_no_ranges;      // when asked for one and none was added: why not
};

/// Where a kernel is split.
enum class SplitAt {
  barriers,  // a kernel that calls __syncthreads(): at its barriers and at its loop stops
  loops,     // a kernel without barriers: at its loop stops (cpu_loop_stops.hpp), if it has any
};

/// `thread_entry` is void(args, block, x, y, z), one thread that calls __kjit_barrier_wait
/// (`barrier`) or __kjit_warp_wait (`warp`, null when the module has none), directly or through
/// `barrier_users` (with SplitAt::loops, one that does not). A warp meeting splits the kernel as
/// a barrier does, but its threads go on before those at a __syncthreads(): once no thread of the
/// block can run but those waiting at warps.
/// On success, replaces it by `block_name`, void(args, block), which runs every thread of the
/// block; the block's frame must hold frame_bytes for each of its threads. Otherwise (recursion,
/// a variable-sized local, no loop to run in step) the thread entry is left as it was, apart from
/// inlining and simplification. With a `range_name` (SplitAt::loops), also adds that range entry
/// when the kernel's threads can run over ranges of the grid (cpu_thread_ranges.hpp). With
/// `lanes_in_step`, the warp shuffles whose lanes all reach them together run as vectors of a
/// warp's lanes (cpu_warp_lanes.cpp) instead of meeting through memory.
RegionSplit split_at_barriers(llvm::Function& thread_entry, llvm::Function& barrier,
                              llvm::Function* warp, const std::set<llvm::Function*>& barrier_users,
                              const std::string& block_name, SplitAt what = SplitAt::barriers,
                              const std::string& range_name = {}, bool lanes_in_step = false);

}  // namespace kjit::cpu
