// Warp-level operations lowered on the CPU, in a kernel split at its waits: where a warp's lanes
// meet (__kjit_warp_wait) is a state of the block's passes, between the __syncthreads() and the
// loop stops. A pass in PassMode::warp runs the threads at warp meetings on, but not those the
// runtime holds (kjit_cpu_warp_release); the block entry starts the block's round of warp
// meetings before each pass, and runs a pass over the live threads alone when the others have
// ended (a warp reduction's last steps). The warp area's layout is in cpu_abi.h; the operations
// themselves in cpu_prelude_warp.h; the runtime's rounds in run/cpu_warp_meetings.cpp.
#include "backends/cpu/lower/cpu_barrier_regions_internal.hpp"
#include "backends/cpu/lower/cpu_block_driver.hpp"

#include "backends/cpu/prelude/cpu_abi.h"
#include "backends/cpu/run/cpu_runtime_symbols.hpp"

#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>

#include <fmt/format.h>

#include <cstdint>

namespace kjit::cpu::barrier_split {

using llvm::BasicBlock;
using llvm::Value;

Value* emit_held_flags(llvm::IRBuilder<>& b, Value* block, Value* threads) {
  auto* ptr = llvm::PointerType::get(b.getContext(), 0);
  Value* area = b.CreateLoad(
      ptr, b.CreateConstInBoundsGEP1_64(b.getInt8Ty(), block, offsetof(kjit_cpu_block, warp)),
      "warp_area");
  Value* n = b.CreateAnd(b.CreateAdd(threads, b.getInt64(KJIT_CPU_WARP_LANES - 1)),
                         b.getInt64(~std::uint64_t{KJIT_CPU_WARP_LANES - 1}));
  return b.CreateInBoundsGEP(
      b.getInt8Ty(), area,
      b.CreateAdd(b.getInt64(KJIT_CPU_WARP_HELD_AT(0)),
                  b.CreateMul(n, b.getInt64(KJIT_CPU_WARP_HELD_AT(1) - KJIT_CPU_WARP_HELD_AT(0)))),
      "held_flags");
}

bool pass_runs_state(const Regions& code, PassMode mode, unsigned k) {
  return mode != PassMode::warp || (k > code.barriers && k <= code.barriers + code.warps);
}

Value* emit_unless_held(llvm::IRBuilder<>& b, Value* held_flags, Value* tid, Value* state) {
  auto* i32 = b.getInt32Ty();
  Value* held = b.CreateLoad(i32, b.CreateInBoundsGEP(i32, held_flags, tid), "held");
  return b.CreateSelect(b.CreateICmpNE(held, b.getInt32(0)), b.getInt32(0), state);
}

void describe_warp_round(llvm::Module& m) {
  // The warp round reads the warp area it is given and nothing else (cpu_prelude_warp.h), which
  // C++ cannot say: a pass's stores into the frame then move past it.
  if (llvm::Function* round = m.getFunction(kWarpRoundSymbol)) {
    round->setMemoryEffects(llvm::MemoryEffects::argMemOnly(llvm::ModRefInfo::Ref));
  }
}

// The block's round of warp meetings (cpu_abi.h): the next one starts before every pass but
// those of threads at loop stops, which leave the threads at warp meetings waiting; before a
// pass that runs each thread at a meeting on, the runtime starts it and holds the meetings
// that wait for lanes still on their way (cpu_warp_meetings.hpp).
void BlockDriver::next_round(PassMode mode) {
  if (warp_area_ == nullptr || mode == PassMode::through) {
    return;
  }
  if (mode == PassMode::warp) {
    const llvm::FunctionCallee release = f_.getParent()->getOrInsertFunction(
        kWarpReleaseSymbol, llvm::Type::getVoidTy(ctx_), ptr_, i64_);
    b_.CreateCall(release, {warp_area_, threads_});
    return;
  }
  b_.CreateStore(b_.CreateAdd(b_.CreateLoad(i32_, warp_area_, "round"), b_.getInt32(1)),
                 warp_area_);
}

// Some threads ended, the others wait at one barrier or meeting (a warp reduction's last
// steps, `if (t < 32)`): in a 1-D block whose live threads are consecutive, a pass over them
// alone, vectorisable as a pass over all threads, instead of one call per thread.
void BlockDriver::pass_over_live_threads() {
  const std::vector<llvm::Function*>& regions = code_.regions;
  if (llvm::none_of(code_.ends_apart, [](bool apart) { return apart; })) {
    return;
  }
  BasicBlock* scan = BasicBlock::Create(ctx_, "live_scan", driver_);
  BasicBlock* live = BasicBlock::Create(ctx_, "live", driver_);
  BasicBlock* not_live = BasicBlock::Create(ctx_, "not_live", driver_);
  b_.CreateCondBr(b_.CreateAnd(b_.CreateAnd(b_.CreateICmpEQ(ny_, b_.getInt32(1)),
                                            b_.CreateICmpEQ(nz_, b_.getInt32(1))),
                               b_.CreateICmpEQ(min_live_, max_)),
                  scan, not_live);
  b_.SetInsertPoint(scan);
  const Carried range = live_range();
  b_.CreateCondBr(b_.CreateICmpEQ(b_.CreateSub(range[1], range[0]), range[2]), live, not_live);
  b_.SetInsertPoint(live);
  share_uniform(range[0]);
  Value* live_first = b_.CreateTrunc(range[0], i32_);
  Value* live_end = b_.CreateTrunc(range[1], i32_);
  llvm::SwitchInst* at_live =
      b_.CreateSwitch(max_, not_live, static_cast<unsigned>(regions.size()));
  for (unsigned r = 1; r < regions.size(); ++r) {
    if (!code_.ends_apart[r - 1] || code_.in_step.count(regions[r]) != 0) {
      continue;  // no thread has ended while the others wait there (nor before lanes in step)
    }
    BasicBlock* at = BasicBlock::Create(ctx_, fmt::format("live{}", r), driver_);
    at_live->addCase(b_.getInt32(r), at);
    b_.SetInsertPoint(at);
    next_round(PassMode::all);
    Value* out = b_.CreateCall(pass(r, PassMode::all, true), {args_, block_, frame_, threads_, nx_,
                                                              ny_, nz_, live_first, live_end});
    incoming_.emplace_back(b_.GetInsertBlock(), out, true, range[0]);
    b_.CreateBr(loop_);
  }
  b_.SetInsertPoint(not_live);
}

/// {first live thread, last live thread + 1, live threads}
Carried BlockDriver::live_range() {
  Value* states = slot_address(b_, frame_, threads_, b_.getInt64(0), layout_.state);
  return emit_loop(
      b_, threads_, {threads_, b_.getInt64(0), b_.getInt64(0)},
      [&](Value* tid, const Carried& c) -> Carried {
        Value* state = b_.CreateLoad(i32_, b_.CreateInBoundsGEP(i32_, states, tid), "state");
        spaces_.annotate_frame_access(*llvm::cast<llvm::Instruction>(state));
        Value* alive = b_.CreateICmpNE(state, b_.getInt32(kEnded));
        // (Plain min, max and sum: reductions LLVM vectorises.)
        return {b_.CreateBinaryIntrinsic(llvm::Intrinsic::umin, c[0],
                                         b_.CreateSelect(alive, tid, threads_)),
                b_.CreateBinaryIntrinsic(
                    llvm::Intrinsic::umax, c[1],
                    b_.CreateSelect(alive, b_.CreateAdd(tid, b_.getInt64(1)), b_.getInt64(0))),
                b_.CreateAdd(c[2], b_.CreateZExt(alive, i64_))};
      });
}

/// Threads that wait at no loop stop but some at warp meetings: the pass that runs those on.
void BlockDriver::to_warp_meetings() {
  BasicBlock* warp = BasicBlock::Create(ctx_, "warp_meetings", driver_);
  BasicBlock* no_stop = BasicBlock::Create(ctx_, "no_stop", driver_);
  b_.CreateCondBr(b_.CreateICmpUGT(max_, b_.getInt32(barriers_)), through_, no_stop);
  b_.SetInsertPoint(no_stop);
  b_.CreateCondBr(b_.CreateICmpUGT(max_, b_.getInt32(code_.barriers)), warp, any_);
  b_.SetInsertPoint(warp);
  call_pass(0, PassMode::warp);
}

}  // namespace kjit::cpu::barrier_split
