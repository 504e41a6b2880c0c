// Warp shuffles whose lanes run in step as the lanes of vectors (cpu_warp_lanes.cpp): what the
// lowering and the optimiser do for them beyond the barrier split.
#pragma once

#include <llvm/ADT/StringRef.h>

namespace llvm {
class Instruction;
class Module;
class PassBuilder;
}  // namespace llvm

namespace kjit::cpu {

/// Makes every warp-level operation the barrier split did not put in step meet through memory,
/// and defines the vector forms of the exchanges it did, which LLVM's loop vectoriser calls.
void finish_lanes_in_step(llvm::Module& m);

/// Inlines the vector forms where the loop vectoriser called them, so that a shuffle by a
/// constant becomes a permute.
void add_lane_inlining(llvm::PassBuilder& builder);

/// Whether the optimised module still calls an exchange's scalar form: a loop over a warp's lanes
/// that LLVM did not vectorise. The compile then runs again without lanes in step.
bool calls_lanes_alone(const llvm::Module& m);

/// Whether `name` is an exchange between lanes in step: a shuffle (__kjit_warp_shfl32/64), a vote
/// (__kjit_warp_ballot) or a reduction (__kjit_warp_reduce32).
bool is_lane_exchange(llvm::StringRef name);

/// Whether `name` is an exchange between lanes in step or an operation run lane by lane
/// (lane_by_lane).
bool is_lane_call(llvm::StringRef name);

/// Makes `i` (an atomic, a volatile access, a call LLVM cannot vectorise) a call of a function of
/// its own whose vector form runs it for each lane that runs, in lane order, so that the loop
/// over a warp's lanes around it vectorises. Both are inlined after vectorisation.
void lane_by_lane(llvm::Instruction& i);

/// What the optimiser throws when calls_lanes_alone: the compile runs again without lanes in step.
struct LanesNotVectorised {};

}  // namespace kjit::cpu
