// The block entry of a split kernel (make_driver): the passes over the block's threads, chosen by
// the states the threads reach, until every thread has ended.
#include "backends/cpu/lower/cpu_block_driver.hpp"

#include "backends/cpu/prelude/cpu_abi.h"
#include "support/logging.hpp"

#include <llvm/IR/Instructions.h>

#include <fmt/format.h>

namespace kjit::cpu::barrier_split {

using llvm::BasicBlock;
using llvm::Value;

BlockDriver::BlockDriver(llvm::Function& f, const Regions& code, const FrameLayout& layout,
                         const MemorySpaces& spaces)
    : f_(f),
      code_(code),
      layout_(layout),
      spaces_(spaces),
      barriers_(code.barriers + code.warps),
      ctx_(f.getContext()),
      ptr_(llvm::PointerType::get(ctx_, 0)),
      i32_(llvm::Type::getInt32Ty(ctx_)),
      i64_(llvm::Type::getInt64Ty(ctx_)),
      b_(ctx_) {}

llvm::Function* BlockDriver::build(const std::string& name) {
  emit_entry(name);
  resume_or_start();
  b_.SetInsertPoint(start_);
  call_pass(0, PassMode::all);
  read_states();
  yield_or_check();
  b_.SetInsertPoint(check_);
  // Every thread at one barrier (none ended): the vectorisable pass; otherwise each its own.
  b_.CreateCondBr(b_.CreateAnd(b_.CreateICmpEQ(min_live_, max_),
                               b_.CreateICmpNE(min_all_, b_.getInt32(kEnded))),
                  same_, mixed_);
  // The stops have the highest numbers: a thread waits at one when the maximum is above them.
  b_.SetInsertPoint(mixed_);
  if (code_.warps > 0) {
    pass_over_live_threads();
  }
  share_uniform(nullptr);
  if (code_.warps > 0) {
    to_warp_meetings();
  } else {
    b_.CreateCondBr(b_.CreateICmpUGT(max_, b_.getInt32(barriers_)), through_, any_);
  }
  passes_by_state();
  finish();
  keep_large_passes_apart();
  return driver_;
}

Value* BlockDriver::field(llvm::Type* t, std::size_t offset, const char* what) {
  return b_.CreateLoad(t, b_.CreateConstInBoundsGEP1_64(b_.getInt8Ty(), block_, offset), what);
}

/// The entry block: what the block record says, then to `done` when the block has no thread.
void BlockDriver::emit_entry(const std::string& name) {
  auto* type = llvm::FunctionType::get(llvm::Type::getVoidTy(ctx_), {ptr_, ptr_}, false);
  driver_ = function_like(f_, type, llvm::GlobalValue::ExternalLinkage, name);
  args_ = driver_->getArg(0);
  block_ = driver_->getArg(1);
  b_.SetInsertPoint(BasicBlock::Create(ctx_, "entry", driver_));
  nx_ = field(i32_, offsetof(kjit_cpu_block, block_dim), "nx");
  ny_ = field(i32_, offsetof(kjit_cpu_block, block_dim) + 4, "ny");
  nz_ = field(i32_, offsetof(kjit_cpu_block, block_dim) + 8, "nz");
  frame_ = field(ptr_, offsetof(kjit_cpu_block, frame), "frame");
  warp_area_ = code_.warps > 0 ? field(ptr_, offsetof(kjit_cpu_block, warp), "warp_area") : nullptr;
  threads_ = b_.CreateMul(b_.CreateMul(b_.CreateZExt(nx_, i64_), b_.CreateZExt(ny_, i64_)),
                          b_.CreateZExt(nz_, i64_), "threads");
  start_ = BasicBlock::Create(ctx_, "start", driver_);
  loop_ = BasicBlock::Create(ctx_, "loop", driver_);
  done_ = BasicBlock::Create(ctx_, "done", driver_);
  can_yield_ = code_.has_stops();
  states_type_ = llvm::StructType::get(ctx_, {i32_, i32_, i32_});
  resume_flag_ = b_.CreateConstInBoundsGEP1_64(b_.getInt8Ty(), block_,
                                               offsetof(kjit_cpu_block, resume), "resume_at");
  saved_states_ = b_.CreateConstInBoundsGEP1_64(b_.getInt8Ty(), block_,
                                                offsetof(kjit_cpu_block, states), "saved_at");
  resume_ = can_yield_ ? BasicBlock::Create(ctx_, "resume", driver_) : nullptr;
  first_ = can_yield_ ? BasicBlock::Create(ctx_, "first", driver_) : start_;
  b_.CreateCondBr(b_.CreateICmpEQ(threads_, b_.getInt64(0)), done_, first_);
}

/// A block that took turns goes on from the states it kept (`resume`); others start.
void BlockDriver::resume_or_start() {
  if (!can_yield_) {
    return;
  }
  b_.SetInsertPoint(first_);
  b_.CreateCondBr(b_.CreateICmpNE(b_.CreateLoad(i32_, resume_flag_, "resuming"), b_.getInt32(0)),
                  resume_, start_);
  b_.SetInsertPoint(resume_);
  Value* saved = llvm::PoisonValue::get(states_type_);
  for (unsigned k = 0; k < 3; ++k) {
    saved = b_.CreateInsertValue(
        saved, b_.CreateLoad(i32_, b_.CreateConstInBoundsGEP1_64(i32_, saved_states_, k)), k);
  }
  // It yielded after these, all threads at one stop (their uniform values alike): go on.
  incoming_.emplace_back(b_.GetInsertBlock(), saved, false, b_.getInt64(0));
  b_.CreateBr(loop_);
}

/// The loop's head: the states the last pass left the threads in.
void BlockDriver::read_states() {
  check_ = BasicBlock::Create(ctx_, "check", driver_);
  same_ = BasicBlock::Create(ctx_, "same_barrier", driver_);
  mixed_ = BasicBlock::Create(ctx_, "mixed", driver_);
  through_ = BasicBlock::Create(ctx_, "through_stops", driver_);
  any_ = BasicBlock::Create(ctx_, "own_barriers", driver_);
  b_.SetInsertPoint(loop_);
  result_ = b_.CreatePHI(states_type_, 4, "states");
  may_yield_ = b_.CreatePHI(b_.getInt1Ty(), 4, "may_yield");
  holder_ = b_.CreatePHI(i64_, 4, "uniform_holder");
  min_all_ = b_.CreateExtractValue(result_, 0, "min");
  min_live_ = b_.CreateExtractValue(result_, 1, "min_live");
  max_ = b_.CreateExtractValue(result_, 2, "max");
}

/// Done once every thread has ended; otherwise, where the block may take turns and every thread
/// waits at one stop, it returns if asked to (kjit_cpu_block.yield); else on to `check`.
void BlockDriver::yield_or_check() {
  if (!can_yield_) {
    b_.CreateCondBr(b_.CreateICmpEQ(max_, b_.getInt32(kEnded)), done_, check_);
    return;
  }
  BasicBlock* at_stop = BasicBlock::Create(ctx_, "at_one_stop", driver_);
  BasicBlock* yield = BasicBlock::Create(ctx_, "yield", driver_);
  BasicBlock* not_done = BasicBlock::Create(ctx_, "not_done", driver_);
  b_.CreateCondBr(b_.CreateICmpEQ(max_, b_.getInt32(kEnded)), done_, not_done);
  b_.SetInsertPoint(not_done);
  // Every thread at one stop (the stops have the highest numbers) after a pass of this call.
  b_.CreateCondBr(
      b_.CreateAnd(may_yield_, b_.CreateAnd(b_.CreateICmpEQ(min_all_, max_),
                                            b_.CreateICmpUGT(max_, b_.getInt32(barriers_)))),
      at_stop, check_);
  b_.SetInsertPoint(at_stop);
  Value* asked = field(i32_, offsetof(kjit_cpu_block, yield), "yield");
  b_.CreateCondBr(b_.CreateICmpNE(asked, b_.getInt32(0)), yield, check_);
  b_.SetInsertPoint(yield);
  for (unsigned k = 0; k < 3; ++k) {
    b_.CreateStore(b_.CreateExtractValue(result_, k),
                   b_.CreateConstInBoundsGEP1_64(i32_, saved_states_, k));
  }
  b_.CreateStore(b_.getInt32(1), resume_flag_);
  b_.CreateRetVoid();
}

// Gives every thread the uniform values that a pass over all threads, or over the live ones,
// kept in one thread's slots alone (holder), unless `skip` (that thread is the next holder).
void BlockDriver::share_uniform(Value* skip) {
  if (layout_.snapshots.empty()) {
    return;
  }
  BasicBlock* share = BasicBlock::Create(ctx_, "share_uniform", driver_);
  BasicBlock* shared = BasicBlock::Create(ctx_, "uniform_shared", driver_);
  Value* needed = b_.CreateICmpNE(holder_, b_.getInt64(kNoHolder));
  if (skip != nullptr) {
    needed = b_.CreateAnd(needed, b_.CreateICmpNE(holder_, skip));
  }
  b_.CreateCondBr(needed, share, shared);
  b_.SetInsertPoint(share);
  emit_range(
      b_, b_.getInt64(0), threads_, {},
      [&](Value* tid, const Carried&) {
        BasicBlock* copy = BasicBlock::Create(ctx_, "share_copy", driver_);
        BasicBlock* next = BasicBlock::Create(ctx_, "share_next", driver_);
        b_.CreateCondBr(b_.CreateICmpNE(tid, holder_), copy, next);
        b_.SetInsertPoint(copy);
        for (const Snapshot& snapshot : layout_.snapshots) {
          const FrameSlot& slot = layout_.slots[snapshot.slot];
          b_.CreateMemCpy(slot_address(b_, frame_, threads_, tid, slot), llvm::Align(1),
                          slot_address(b_, frame_, threads_, holder_, slot), llvm::Align(1),
                          snapshot.bytes);
        }
        b_.CreateBr(next);
        b_.SetInsertPoint(next);
        return Carried{};
      },
      nullptr, true);
  b_.CreateBr(shared);
  b_.SetInsertPoint(shared);
}

/// A new pass (make_pass), remembered among those the driver calls.
llvm::Function* BlockDriver::pass(unsigned r, PassMode mode, bool over_live) {
  passes_.push_back(make_pass(f_, code_, r, mode, layout_, spaces_, over_live));
  return passes_.back();
}

void BlockDriver::call_pass(unsigned r, PassMode mode) {
  next_round(mode);
  Value* result = b_.CreateCall(pass(r, mode), {args_, block_, frame_, threads_, nx_, ny_, nz_});
  incoming_.emplace_back(b_.GetInsertBlock(), result, true,
                         b_.getInt64(mode == PassMode::all ? 0 : kNoHolder));
  b_.CreateBr(loop_);
}

/// The passes of the threads at loop stops, of those all at one barrier, and of each its own.
void BlockDriver::passes_by_state() {
  b_.SetInsertPoint(through_);
  call_pass(0, PassMode::through);
  b_.SetInsertPoint(same_);
  const std::vector<llvm::Function*>& regions = code_.regions;
  llvm::SwitchInst* sw = b_.CreateSwitch(max_, mixed_, static_cast<unsigned>(regions.size()));
  for (unsigned r = 1; r < regions.size(); ++r) {
    BasicBlock* at = BasicBlock::Create(ctx_, fmt::format("barrier{}", r), driver_);
    sw->addCase(b_.getInt32(r), at);
    b_.SetInsertPoint(at);
    call_pass(r, PassMode::all);
  }
  b_.SetInsertPoint(any_);
  call_pass(0, PassMode::any);
}

void BlockDriver::finish() {
  for (auto& [pred, value, after_pass, kept_by] : incoming_) {
    result_->addIncoming(value, pred);
    may_yield_->addIncoming(b_.getInt1(after_pass), pred);
    holder_->addIncoming(kept_by, pred);
  }
  b_.SetInsertPoint(done_);
  if (can_yield_) {
    b_.CreateStore(b_.getInt32(0), resume_flag_);
  }
  b_.CreateRetVoid();
}

namespace {

/// The instructions of a kernel's passes (as built, before LLVM inlines and unrolls) above which
/// they stay out of its driver. Inlined (one call each, so LLVM inlines them), the passes of a
/// kernel with many barriers or warp meetings made one function of tens of thousands of
/// instructions, where the code generator's time grows faster than the code: llm.c's row
/// softmaxes with 6,371 to 17,937 instructions of passes took 2.1 to 9.0 s each to compile on
/// the CPU, 1.3 to 2.4 s with their passes apart. kernels/softmax.cu's row softmax (4,964, ten
/// warp operations in step) took 1.0 to 1.3 s of O3 and code generation inlined, 0.75 to 0.94 s
/// apart. Small passes run faster inlined: RAJAPerf's MAT_MAT_SHARED (815) and REDUCE_SUM
/// (1,474) ran 20 to 60% slower with theirs apart.
constexpr unsigned kInlinedPassesLimit = 4000;

}  // namespace

/// Keeps the driver's passes out of line when they are too large together to inline.
void BlockDriver::keep_large_passes_apart() {
  unsigned instructions = 0;
  for (const llvm::Function* p : passes_) {
    instructions += p->getInstructionCount();
  }
  detail::log().debug("kjit: the {} passes of '{}' hold {} instructions: {}", passes_.size(),
                      f_.getName().str(), instructions,
                      instructions > kInlinedPassesLimit ? "kept apart" : "inlined");
  if (instructions > kInlinedPassesLimit) {
    for (llvm::Function* p : passes_) {
      p->addFnAttr(llvm::Attribute::NoInline);
    }
  }
}

llvm::Function* make_driver(llvm::Function& f, const Regions& code, const FrameLayout& layout,
                            const MemorySpaces& spaces, const std::string& name) {
  return BlockDriver(f, code, layout, spaces).build(name);
}

}  // namespace kjit::cpu::barrier_split
