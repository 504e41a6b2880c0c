// Finds, in a region of a barrier kernel, a condition that lets only some threads of the block
// work: `if (t < stride)` in a reduction tree, `if (threadIdx.x < 32)`. A pass over the block's
// threads then runs as two loops, the threads below the split and those above it, each over a
// copy of the region in which the condition is a constant. LLVM drops the work of the threads
// the condition turns away instead of masking it off: the last level of a 256-thread tree keeps
// 1 thread busy, not 256.
#pragma once

#include <llvm/Transforms/Utils/ValueMapper.h>

#include <optional>
#include <vector>

namespace llvm {
class Argument;
class Function;
class IRBuilderBase;
class Value;
}  // namespace llvm

namespace kjit::cpu {

/// A comparison of the thread's x coordinate with a bound that every thread of a pass sees alike,
/// and two copies of its region: one for the threads below the split, one for those above it.
struct ThreadGuard {
  llvm::Function* below = nullptr;
  llvm::Function* above = nullptr;
  llvm::Value* bound = nullptr;  // in the original region
  bool holds_below = true;       // x < bound or x <= bound; otherwise x >= or x > bound
  bool or_equal = false;         // x <= bound or x > bound: the split is bound + 1
  bool is_signed = false;
};

/// The region's parameters a guard's bound may be computed from: those every thread of a pass
/// shares. Loads from `frame` (the snapshots of uniform values, which a pass takes before its
/// loop) count only when `frame` is given; the thread's slots are addressed by its index, which
/// is not in `shared`.
struct GuardInputs {
  const llvm::Argument* x = nullptr;
  std::vector<const llvm::Argument*> shared;
  const llvm::Argument* frame = nullptr;
};

/// The first condition of `region` (in the order of its blocks) that branches on x against a
/// bound computable from `inputs`, with the region's two copies made; none if there is none.
std::optional<ThreadGuard> find_thread_guard(llvm::Function& region, const GuardInputs& inputs);

/// The first x at which `guard` changes its value, in [0, nx], computed with `b` from the pass's
/// values: `params` maps the region's parameters of GuardInputs::shared (and frame) to them.
/// `nx` (i32, at least 1) is the block's x dimension.
llvm::Value* emit_split(llvm::IRBuilderBase& b, const ThreadGuard& guard,
                        const llvm::ValueToValueMapTy& params, llvm::Value* nx);

}  // namespace kjit::cpu
