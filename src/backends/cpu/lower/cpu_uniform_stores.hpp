// A pass over a block's threads (cpu_barrier_regions.hpp) often stores, in some of its threads,
// a value that is the same for all of them to one place: a uniform value kept across a stop
// (the first `offset` of a shuffle loop that follows a grid-stride loop, stored by the threads
// that leave the loop). LLVM's vectoriser turns such a store into a test and a branch per lane.
// Made once after the loop over threads, if any thread would have made it, the loop keeps one
// flag (an or over the threads, which vectorises) in its place.
#pragma once

namespace llvm {
class Function;
class Value;
}  // namespace llvm

namespace kjit::cpu {

/// In each loop over threads of `pass` (a loop whose id lists llvm.loop.parallel_accesses),
/// each store of a value that is the same on every iteration to an address that is the same on
/// every iteration and that kjit computed from `frame` (the block's frame: the slots of the
/// values threads keep across stops, which no pointer of the kernel's reaches), where nothing
/// else in the loop may read or write that address, becomes one store after the loop, made when
/// some iteration reached the store. Returns how many it moved.
unsigned sink_uniform_stores(llvm::Function& pass, const llvm::Value* frame);

}  // namespace kjit::cpu
