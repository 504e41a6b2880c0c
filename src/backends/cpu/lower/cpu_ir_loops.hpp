// Counted loops emitted into LLVM IR, with values carried from one iteration to the next: the
// loops over a block's threads of the CPU backend's passes (cpu_barrier_regions.hpp) and the
// checks made before them (cpu_pass_versions.hpp).
#pragma once

#include <llvm/IR/IRBuilder.h>

#include <functional>
#include <vector>

namespace kjit::cpu {

using Carried = std::vector<llvm::Value*>;
using LoopBody = std::function<Carried(llvm::Value*, const Carried&)>;

/// Emits `for (iv = first; iv < end; ++iv)` around body(iv, carried); the values the body
/// returns are carried to the next iteration and out of the loop. Unless `may_be_empty`, the
/// loop runs at least once. `loop_id`, if any, is the loop's metadata.
Carried emit_range(llvm::IRBuilder<>& b, llvm::Value* first, llvm::Value* end, const Carried& init,
                   const LoopBody& body, llvm::MDNode* loop_id, bool may_be_empty);

/// At the insert point, which `from_a` and `from_b` branch to: each of `a` and `b`'s values as
/// the one that came (a phi per value).
Carried merge_carried(llvm::IRBuilder<>& b, const Carried& a, llvm::BasicBlock* from_a,
                      const Carried& other, llvm::BasicBlock* from_other);

/// Emits `for (iv = 0; iv < count; ++iv)`, count >= 1, as emit_range does.
Carried emit_loop(llvm::IRBuilder<>& b, llvm::Value* count, const Carried& init,
                  const LoopBody& body, llvm::MDNode* loop_id = nullptr);

}  // namespace kjit::cpu
