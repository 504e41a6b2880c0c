// A pass over a block's threads a warp at a time (emit_warps): the loop over a warp's 32 lanes
// that LLVM vectorises 32 wide, so that the lanes of its vectors are the warp's lanes, where a
// shuffle of lanes in step is a permute (cpu_warp_lanes.cpp).
#include "backends/cpu/lower/cpu_barrier_regions_internal.hpp"

#include "backends/cpu/prelude/cpu_abi.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Metadata.h>

#include <functional>
#include <utility>

namespace kjit::cpu::barrier_split {

namespace {

using llvm::BasicBlock;
using llvm::Value;

constexpr unsigned kWarpLanes = KJIT_CPU_WARP_LANES;

/// A loop over a warp's lanes that LLVM vectorises 32 wide whatever its cost model says: one
/// vector iteration, masked for a partial warp, with no scalar loop after it.
llvm::MDNode* lanes_loop_id(llvm::IRBuilder<>& b, llvm::MDNode* accesses) {
  llvm::LLVMContext& ctx = b.getContext();
  llvm::TempMDTuple placeholder = llvm::MDNode::getTemporary(ctx, {});
  const auto flag = [&](const char* name, llvm::Constant* value) {
    return llvm::MDNode::get(
        ctx, {llvm::MDString::get(ctx, name), llvm::ConstantAsMetadata::get(value)});
  };
  llvm::MDNode* id = llvm::MDNode::getDistinct(
      ctx,
      {placeholder.get(),
       llvm::MDNode::get(ctx, {llvm::MDString::get(ctx, "llvm.loop.parallel_accesses"), accesses}),
       flag("llvm.loop.vectorize.enable", b.getTrue()),
       flag("llvm.loop.vectorize.width", b.getInt32(kWarpLanes)),
       flag("llvm.loop.interleave.count", b.getInt32(1)),
       flag("llvm.loop.vectorize.predicate.enable", b.getTrue()),
       // Peeled or unrolled first, the loop would no longer start at a warp's lane 0.
       llvm::MDNode::get(ctx, {llvm::MDString::get(ctx, "llvm.loop.unroll.disable")})});
  id->replaceOperandWith(0, id);
  return id;
}

/// The warps of `count` threads (i32 or i64) a warp at a time: lane(first, l, carried) for each
/// lane l of the warp whose lane 0 is `first`, in the loop over its lanes.
using Lane = std::function<Carried(Value*, Value*, const Carried&)>;
Carried over_warps(llvm::IRBuilder<>& b, Value* count, llvm::MDNode* accesses, const Carried& init,
                   const Lane& lane) {
  auto* type = count->getType();
  Value* warps = b.CreateLShr(b.CreateAdd(count, llvm::ConstantInt::get(type, kWarpLanes - 1)), 5);
  return emit_loop(b, warps, init, [&](Value* w, const Carried& c_w) {
    Value* first = b.CreateShl(w, 5);
    Value* lanes = b.CreateBinaryIntrinsic(llvm::Intrinsic::umin, b.CreateSub(count, first),
                                           llvm::ConstantInt::get(type, kWarpLanes));
    return emit_range(
        b, llvm::ConstantInt::get(type, 0), lanes, c_w,
        [&](Value* l, const Carried& c) { return lane(first, l, c); }, lanes_loop_id(b, accesses),
        false);
  });
}

/// Rows that hold whole warps: lane l of the warp whose lane 0 is x0 is x0 + l.
Carried warps_in_rows(llvm::IRBuilder<>& b, const WarpBlock& block, const Carried& init,
                      const WarpThread& thread) {
  return emit_loop(b, block.nz, init, [&](Value* z, const Carried& c_z) {
    return emit_loop(b, block.ny, c_z, [&](Value* y, const Carried& c_y) {
      return over_warps(
          b, block.nx, block.accesses, c_y, [&](Value* x0, Value* l, const Carried& c) {
            return thread(b.CreateAdd(x0, l, "x", /*HasNUW=*/true, /*HasNSW=*/true), y, z, c);
          });
    });
  });
}

/// Division of a block's thread indices (below 1024) by a block dimension d (1 to 1024) as a
/// multiplication: n / d is (n * (2^21 / d + 1)) >> 21 whenever n * d < 2^21. A division in the
/// loop over a warp's lanes, which may be masked off, would be made 32 scalar divisions behind
/// 32 branches (a lane masked off might divide by zero, as far as LLVM knows); this is a vector
/// multiplication and a shift.
constexpr unsigned kQuotientShift = 21;

/// The multiplier for dividing by `d` (an i32), made once before the loop.
Value* reciprocal(llvm::IRBuilder<>& b, Value* d) {
  Value* at_least_one = b.CreateBinaryIntrinsic(llvm::Intrinsic::umax, d, b.getInt32(1));
  return b.CreateAdd(b.CreateUDiv(b.getInt32(1U << kQuotientShift), at_least_one), b.getInt32(1));
}

/// n / d and n % d for n below 1024, given reciprocal(d).
std::pair<Value*, Value*> divide(llvm::IRBuilder<>& b, Value* n, Value* d, Value* reciprocal) {
  Value* quotient = b.CreateLShr(b.CreateMul(n, reciprocal, "", /*HasNUW=*/true), kQuotientShift);
  return {quotient, b.CreateSub(n, b.CreateMul(quotient, d, "", /*HasNUW=*/true), "", true)};
}

/// Any block: lane l of warp w is thread w * 32 + l, its coordinates divided out.
Carried warps_of_block(llvm::IRBuilder<>& b, const WarpBlock& block, const Carried& init,
                       const WarpThread& thread) {
  auto* i32 = b.getInt32Ty();
  Value* by_nx = reciprocal(b, block.nx);
  Value* by_ny = reciprocal(b, block.ny);
  return over_warps(b, block.threads, block.accesses, init,
                    [&](Value* t0, Value* l, const Carried& c) {
                      Value* t = b.CreateTrunc(b.CreateAdd(t0, l), i32);  // below 1024
                      const auto [row, x] = divide(b, t, block.nx, by_nx);
                      const auto [z, y] = divide(b, row, block.ny, by_ny);
                      return thread(x, y, z, c);
                    });
}

}  // namespace

Carried emit_warps(llvm::IRBuilder<>& b, const WarpBlock& block, const Carried& init,
                   const WarpThread& thread) {
  llvm::LLVMContext& ctx = b.getContext();
  BasicBlock* rows = BasicBlock::Create(ctx, "kjit.warps.rows", block.pass);
  BasicBlock* any = BasicBlock::Create(ctx, "kjit.warps.any", block.pass);
  BasicBlock* join = BasicBlock::Create(ctx, "kjit.warps.done", block.pass);
  Value* one_row =
      b.CreateAnd(b.CreateICmpEQ(block.ny, b.getInt32(1)), b.CreateICmpEQ(block.nz, b.getInt32(1)));
  Value* whole = b.CreateICmpEQ(b.CreateAnd(block.nx, b.getInt32(kWarpLanes - 1)), b.getInt32(0));
  b.CreateCondBr(b.CreateOr(one_row, whole), rows, any);
  b.SetInsertPoint(rows);
  const Carried by_rows = warps_in_rows(b, block, init, thread);
  BasicBlock* from_rows = b.GetInsertBlock();
  b.CreateBr(join);
  b.SetInsertPoint(any);
  const Carried by_index = warps_of_block(b, block, init, thread);
  BasicBlock* from_any = b.GetInsertBlock();
  b.CreateBr(join);
  b.SetInsertPoint(join);
  return merge_carried(b, by_rows, from_rows, by_index, from_any);
}

}  // namespace kjit::cpu::barrier_split
