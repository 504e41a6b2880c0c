// The loops of a range entry (cpu_thread_ranges.hpp): the checks in 128 bits, the loop over a
// row's threads with what every thread of it computes alike moved out, and the flat loop a
// grid-stride loop may run instead of rows (add_flat_loop). For the rewrite in
// cpu_thread_ranges.cpp.
#pragma once

#include "backends/cpu/lower/cpu_thread_work.hpp"

#include <llvm/IR/IRBuilder.h>

#include <set>
#include <vector>

namespace llvm {
class Constant;
class LLVMContext;
class MDNode;
}  // namespace llvm

namespace kjit::cpu::thread_ranges {

// The range entry's checks compute in 128 bits, where no 32- or 64-bit index can wrap.
inline constexpr unsigned kWideBits = 128;

/// `v` extended to 128 bits, as a signed or an unsigned value.
Value* widen(llvm::IRBuilder<>& at, Value* v, bool is_signed);

/// The largest (or with `smallest`, the smallest) value of integer type `t`, signed or not, in
/// 128 bits.
llvm::Constant* limit_value(llvm::Type* t, bool is_signed, bool smallest = false);

/// Moves what every thread of a row computes alike (`body`: the blocks of the loop over the row's
/// threads, from `lane` to `lane_next`) to the end of `row`.
void hoist_from_lanes(llvm::Function& range, const std::set<const BasicBlock*>& body,
                      BasicBlock* row, BasicBlock* lane, BasicBlock* lane_next);

/// The ID of a loop over `body` whose iterations carry no dependence through memory; puts the
/// loads and stores of `body` in its access group.
llvm::MDNode* parallel_loop(llvm::LLVMContext& ctx, const std::vector<BasicBlock*>& body);

/// Where the flat loop of a grid-stride loop goes: `check` decides between it and the rows
/// (`rows`, which answers a call that only asks); `body` is the copy of the loop's iterations it
/// runs, with the copies of the loop's index, header and latch.
struct FlatLoop {
  BasicBlock* check;
  BasicBlock* rows;
  const std::vector<BasicBlock*>& body;
  llvm::PHINode* index;
  BasicBlock* header;
  BasicBlock* latch;
};

/// Makes `flat.check` run a grid-stride loop flat where its accesses and stride allow at run
/// time, and the rows otherwise.
void add_flat_loop(llvm::Function& range, const Work& work, const FlatLoop& flat);

}  // namespace kjit::cpu::thread_ranges
