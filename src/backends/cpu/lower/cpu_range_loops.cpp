// The loops of a range entry (cpu_range_loops.hpp).
#include "backends/cpu/lower/cpu_range_loops.hpp"

#include "backends/cpu/prelude/cpu_abi.h"

#include <llvm/ADT/APInt.h>
#include <llvm/ADT/PostOrderIterator.h>
#include <llvm/Analysis/ValueTracking.h>
#include <llvm/Analysis/VectorUtils.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/Instructions.h>

#include <cstdint>
#include <map>
#include <utility>

namespace kjit::cpu::thread_ranges {

using llvm::CmpInst;
using llvm::Function;
using llvm::Instruction;
using llvm::IRBuilder;

/// `v` extended to 128 bits, as a signed or an unsigned value.
Value* widen(IRBuilder<>& at, Value* v, bool is_signed) {
  llvm::Type* wide = at.getIntNTy(kWideBits);
  return is_signed ? at.CreateSExt(v, wide) : at.CreateZExt(v, wide);
}

/// The largest (or with `smallest`, the smallest) value of integer type `t`, signed or not, in
/// 128 bits.
llvm::Constant* limit_value(llvm::Type* t, bool is_signed, bool smallest) {
  const unsigned bits = t->getIntegerBitWidth();
  const llvm::APInt v =
      smallest ? (is_signed ? llvm::APInt::getSignedMinValue(bits).sext(kWideBits)
                            : llvm::APInt::getZero(kWideBits))
               : (is_signed ? llvm::APInt::getSignedMaxValue(bits) : llvm::APInt::getMaxValue(bits))
                     .zext(kWideBits);
  return llvm::ConstantInt::get(t->getContext(), v);
}

/// Moves what every thread of a row computes alike out of the loop over the row's threads, to the
/// end of `row`: arithmetic on values the row shares, and loads from addresses the row shares that
/// every thread makes before it writes any memory (a filter's coefficients, a scalar passed by
/// pointer). Another thread's write to such an address would race with the read, as on a GPU, so
/// only the thread's own earlier writes could change what it reads. Loaded once per row, such a
/// value need not be loaded and broadcast again for every vector of threads (LLVM cannot move it
/// itself: the kernel's stores may alias it).
void hoist_from_lanes(Function& range, const std::set<const BasicBlock*>& body, BasicBlock* row,
                      BasicBlock* lane, BasicBlock* lane_next) {
  const llvm::DominatorTree dt(range);
  Instruction* at = row->getTerminator();
  std::set<const Value*> moved;
  const auto available = [&](const Value* v) {
    const auto* i = llvm::dyn_cast<Instruction>(v);
    if (i == nullptr) {
      return true;  // an argument, a constant, a global
    }
    return moved.count(v) != 0 ||
           (body.count(i->getParent()) == 0 && i->getParent() != lane && dt.dominates(i, at));
  };
  std::map<const BasicBlock*, bool> clean_at_end;  // no write yet in the thread's iteration
  llvm::ReversePostOrderTraversal<Function*> order(&range);
  for (BasicBlock* b : order) {
    if (body.count(b) == 0) {
      continue;
    }
    bool clean = llvm::all_of(llvm::predecessors(b), [&](const BasicBlock* p) {
      const auto found = clean_at_end.find(p);
      return p == lane || (found != clean_at_end.end() && found->second);
    });
    const bool every_thread = dt.dominates(b, lane_next);
    for (Instruction& i : llvm::make_early_inc_range(*b)) {
      if (i.mayWriteToMemory()) {
        clean = false;
        continue;
      }
      const auto* load = llvm::dyn_cast<llvm::LoadInst>(&i);
      const bool movable = load != nullptr
                               ? load->isSimple() && clean && every_thread
                               : !i.mayReadOrWriteMemory() && !llvm::isa<llvm::PHINode>(i) &&
                                     llvm::isSafeToSpeculativelyExecute(&i);
      if (movable && llvm::all_of(i.operands(), available)) {
        i.moveBefore(at);
        moved.insert(&i);
      }
    }
    clean_at_end[b] = clean;
  }
}

/// The ID of a loop over `body` whose iterations carry no dependence through memory; puts the
/// loads and stores of `body` in its access group.
llvm::MDNode* parallel_loop(llvm::LLVMContext& ctx, const std::vector<BasicBlock*>& body) {
  llvm::MDNode* accesses = llvm::MDNode::getDistinct(ctx, {});
  llvm::TempMDTuple placeholder = llvm::MDNode::getTemporary(ctx, {});
  llvm::MDNode* id = llvm::MDNode::getDistinct(
      ctx, {placeholder.get(),
            llvm::MDNode::get(
                ctx, {llvm::MDString::get(ctx, "llvm.loop.parallel_accesses"), accesses})});
  id->replaceOperandWith(0, id);
  for (BasicBlock* in : body) {
    for (Instruction& i : *in) {
      if (llvm::isa<llvm::LoadInst, llvm::StoreInst>(i) && !i.isAtomic()) {
        i.setMetadata(
            llvm::LLVMContext::MD_access_group,
            llvm::uniteAccessGroups(i.getMetadata(llvm::LLVMContext::MD_access_group), accesses));
      }
    }
  }
  return id;
}

namespace {

/// The flat loop's index space, in 128 bits: the grid's thread count, the index the grid's
/// thread 0 starts at, and the bound the indices stop before.
struct FlatSpace {
  Value* threads;
  Value* origin;
  Value* stop;
};

/// `v` as a signed 128-bit constant.
llvm::ConstantInt* wide_number(llvm::LLVMContext& ctx, std::int64_t v) {
  return llvm::ConstantInt::get(llvm::Type::getIntNTy(ctx, kWideBits), v, true);
}

/// The flat loop's index space, computed at `c` (the range's first thread is `first`).
FlatSpace flat_space(IRBuilder<>& c, Value* block, Value* first, const Work& work) {
  auto* i32 = c.getInt32Ty();
  auto* wide = c.getIntNTy(kWideBits);
  const bool is_signed = CmpInst::isSigned(work.bound.pred);
  const bool strict = work.bound.pred == CmpInst::ICMP_SLT || work.bound.pred == CmpInst::ICMP_ULT;
  const auto field = [&](std::int64_t offset) {
    return c.CreateZExt(
        c.CreateLoad(i32, c.CreateConstInBoundsGEP1_64(c.getInt8Ty(), block, offset)), wide);
  };
  Value* threads = c.CreateMul(field(kBlockDimX), field(kBlockDimX + 12), "grid.threads");
  // The index the grid's thread 0 starts at; the bound the indices stop before.
  Value* origin =
      c.CreateSub(widen(c, work.start, is_signed), c.CreateZExt(first, wide), "flat.origin");
  Value* stop = widen(c, work.bound.limit, is_signed);
  if (!strict) {
    stop = c.CreateAdd(stop, wide_number(c.getContext(), 1));
  }
  return {threads, origin, stop};
}

/// `ok` and, for each pair of accesses of which one stores, that they touch no byte in common
/// over the whole index space, or the same element of the same array; computed at `c`.
Value* and_accesses_apart(IRBuilder<>& c, const Work& work, const FlatSpace& space, Value* ok) {
  const auto number = [&](std::int64_t v) { return wide_number(c.getContext(), v); };
  auto* wide = c.getIntNTy(kWideBits);
  // The bytes each access can touch over the whole index space.
  struct Span {
    Value* lo;
    Value* hi;
    Value* base;
  };
  std::vector<Span> spans;
  for (const MemoryAccess& a : work.accesses) {
    Value* base = c.CreateZExt(c.CreatePtrToInt(a.base, c.getInt64Ty()), wide);
    const auto size = static_cast<std::int64_t>(a.size);
    if (a.indexed) {
      spans.push_back({c.CreateAdd(base, c.CreateMul(space.origin, number(size))),
                       c.CreateAdd(base, c.CreateMul(space.stop, number(size))), base});
    } else {
      spans.push_back({base, c.CreateAdd(base, number(size)), base});
    }
  }
  for (std::size_t i = 0; i < spans.size(); ++i) {
    for (std::size_t j = i + 1; j < spans.size(); ++j) {
      const MemoryAccess& a = work.accesses[i];
      const MemoryAccess& b = work.accesses[j];
      if (!a.store && !b.store) {
        continue;
      }
      Value* apart = c.CreateOr(c.CreateICmpSLE(spans[i].hi, spans[j].lo),
                                c.CreateICmpSLE(spans[j].hi, spans[i].lo));
      if (a.indexed && b.indexed && a.size == b.size) {
        apart = c.CreateOr(apart, c.CreateICmpEQ(spans[i].base, spans[j].base));  // p[i] and p[i]
      }
      ok = c.CreateAnd(ok, apart);
    }
  }
  return ok;
}

/// In `pre`: the first and the end of this range's share of the index space, of `index_type`;
/// branches to `loop`, or to the work's exit when the share is empty.
std::pair<Value*, Value*> flat_share(BasicBlock* pre, BasicBlock* loop, const Work& work,
                                     const FlatSpace& space, Value* first, Value* end) {
  auto* wide = llvm::Type::getIntNTy(pre->getContext(), kWideBits);
  llvm::Type* index_type = work.start->getType();
  // This range's share of the index space: the same fraction of it as of the grid's threads
  // that have work (a thread whose first index is past the bound has none: a range whose first
  // thread has none never gets here, and takes no share).
  IRBuilder<> p(pre);
  Value* extent = p.CreateSub(space.stop, space.origin);
  Value* busy =
      p.CreateSelect(p.CreateICmpULT(space.threads, extent), space.threads, extent, "busy.threads");
  const auto share = [&](Value* thread) {
    Value* t = p.CreateZExt(thread, wide);
    t = p.CreateSelect(p.CreateICmpULT(t, busy), t, busy);
    return p.CreateAdd(space.origin, p.CreateUDiv(p.CreateMul(extent, t), busy));
  };
  Value* lo = share(first);
  Value* hi = share(end);
  Value* lo_index = p.CreateTrunc(lo, index_type, "flat.begin");
  Value* hi_index = p.CreateTrunc(hi, index_type, "flat.end");
  p.CreateCondBr(p.CreateICmpSLT(lo, hi), loop, work.exit);
  return {lo_index, hi_index};
}

}  // namespace

/// A grid-stride loop whose iterations touch only element `i` of their arrays (and addresses they
/// all share) need not keep each thread's iterations in order when no array written overlaps
/// another array read or written except element for element: then every iteration touches
/// memory no other one does. If so at run time, and the stride is the grid's thread count (so
/// that the grid's threads together run every index from the first thread's to the bound once),
/// the range runs its share of that index space as one contiguous loop, as OpenMP's static loop
/// does, instead of its threads' share of every row: with 4 blocks per core, a row gave each
/// worker 4 KB of every array between jumps. Otherwise it runs the rows.
void add_flat_loop(Function& range, const Work& work, const FlatLoop& flat) {
  llvm::LLVMContext& ctx = range.getContext();
  const bool is_signed = CmpInst::isSigned(work.bound.pred);
  llvm::Type* index_type = work.start->getType();

  IRBuilder<> c(flat.check);
  const FlatSpace space = flat_space(c, range.getArg(1), range.getArg(2), work);
  Value* ok = c.CreateICmpEQ(widen(c, work.step, is_signed), space.threads);
  ok = c.CreateAnd(ok, c.CreateICmpSGE(space.origin, limit_value(index_type, is_signed, true)));
  ok = c.CreateAnd(ok, c.CreateICmpSLE(c.CreateAdd(space.origin,
                                                   c.CreateSub(space.threads, wide_number(ctx, 1))),
                                       limit_value(index_type, is_signed)));
  ok = and_accesses_apart(c, work, space, ok);
  BasicBlock* go = BasicBlock::Create(ctx, "range.flat.go", &range);
  BasicBlock* answer = BasicBlock::Create(ctx, "range.flat.checked", &range);
  BasicBlock* pre = BasicBlock::Create(ctx, "range.flat", &range);
  BasicBlock* loop = BasicBlock::Create(ctx, "range.flat.index", &range);
  BasicBlock* next = BasicBlock::Create(ctx, "range.flat.next", &range);
  c.CreateCondBr(ok, go, flat.rows);
  IRBuilder<>(answer).CreateRet(c.getInt32(KJIT_CPU_RANGE_FLAT));
  IRBuilder<> g(go);
  g.CreateCondBr(g.CreateICmpNE(range.getArg(5), g.getInt32(0)), pre, answer);
  const auto [lo_index, hi_index] =
      flat_share(pre, loop, work, space, range.getArg(2), range.getArg(3));

  IRBuilder<> l(loop);
  llvm::PHINode* index = l.CreatePHI(index_type, 2, "flat.index");
  index->addIncoming(lo_index, pre);
  l.CreateBr(flat.header);
  flat.index->replaceAllUsesWith(index);
  flat.index->eraseFromParent();
  flat.latch->getTerminator()->eraseFromParent();
  IRBuilder<>(flat.latch).CreateBr(next);

  // No two iterations touch the same memory (checked above): the loop carries no dependence.
  IRBuilder<> n(next);
  Value* after = n.CreateAdd(index, llvm::ConstantInt::get(index_type, 1), "flat.next",
                             /*HasNUW=*/!is_signed, /*HasNSW=*/is_signed);
  index->addIncoming(after, next);
  llvm::BranchInst* back = n.CreateCondBr(
      is_signed ? n.CreateICmpSLT(after, hi_index) : n.CreateICmpULT(after, hi_index), loop,
      work.exit);
  back->setMetadata(llvm::LLVMContext::MD_loop, parallel_loop(ctx, flat.body));
  for (llvm::PHINode& phi : work.exit->phis()) {
    phi.addIncoming(llvm::PoisonValue::get(phi.getType()), pre);
    phi.addIncoming(llvm::PoisonValue::get(phi.getType()), next);
  }
  const std::set<const BasicBlock*> body(flat.body.begin(), flat.body.end());
  hoist_from_lanes(range, body, pre, loop, next);
}

}  // namespace kjit::cpu::thread_ranges
