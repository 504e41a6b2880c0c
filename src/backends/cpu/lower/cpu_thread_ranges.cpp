#include "backends/cpu/lower/cpu_thread_ranges.hpp"

#include "backends/cpu/lower/cpu_thread_work.hpp"
#include "backends/cpu/prelude/cpu_abi.h"
#include "backends/llvm/llvm_setup.hpp"

#include <llvm/ADT/APInt.h>
#include <llvm/ADT/PostOrderIterator.h>
#include <llvm/Analysis/ValueTracking.h>
#include <llvm/Analysis/VectorUtils.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Transforms/Utils/Cloning.h>

#include <fmt/format.h>

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <utility>
#include <vector>

namespace kjit::cpu {

namespace {

using llvm::BasicBlock;
using llvm::CmpInst;
using llvm::Function;
using llvm::Instruction;
using llvm::IRBuilder;
using llvm::Value;
using namespace thread_ranges;  // NOLINT(google-build-using-namespace): this file's own parts

// The range entry's checks compute in 128 bits, where no 32- or 64-bit index can wrap.
constexpr unsigned kWideBits = 128;

/// `v` extended to 128 bits, as a signed or an unsigned value.
Value* widen(IRBuilder<>& at, Value* v, bool is_signed) {
  llvm::Type* wide = at.getIntNTy(kWideBits);
  return is_signed ? at.CreateSExt(v, wide) : at.CreateZExt(v, wide);
}

/// The largest (or with `smallest`, the smallest) value of integer type `t`, signed or not, in
/// 128 bits.
llvm::Constant* limit_value(llvm::Type* t, bool is_signed, bool smallest = false) {
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
  auto* i32 = llvm::Type::getInt32Ty(ctx);
  auto* i64 = llvm::Type::getInt64Ty(ctx);
  auto* wide = llvm::Type::getIntNTy(ctx, kWideBits);
  Value* block = range.getArg(1);
  Value* first = range.getArg(2);
  Value* end = range.getArg(3);
  const CmpInst::Predicate pred = work.bound.pred;
  const bool is_signed = CmpInst::isSigned(pred);
  const bool strict = pred == CmpInst::ICMP_SLT || pred == CmpInst::ICMP_ULT;
  llvm::Type* index_type = work.start->getType();
  const auto number = [&](std::int64_t v) { return llvm::ConstantInt::get(wide, v, true); };

  IRBuilder<> c(flat.check);
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
    stop = c.CreateAdd(stop, number(1));
  }
  Value* ok = c.CreateICmpEQ(widen(c, work.step, is_signed), threads);
  ok = c.CreateAnd(ok, c.CreateICmpSGE(origin, limit_value(index_type, is_signed, true)));
  ok = c.CreateAnd(ok, c.CreateICmpSLE(c.CreateAdd(origin, c.CreateSub(threads, number(1))),
                                       limit_value(index_type, is_signed)));
  // The bytes each access can touch over the whole index space.
  struct Span {
    Value* lo;
    Value* hi;
    Value* base;
  };
  std::vector<Span> spans;
  for (const MemoryAccess& a : work.accesses) {
    Value* base = c.CreateZExt(c.CreatePtrToInt(a.base, i64), wide);
    const auto size = static_cast<std::int64_t>(a.size);
    if (a.indexed) {
      spans.push_back({c.CreateAdd(base, c.CreateMul(origin, number(size))),
                       c.CreateAdd(base, c.CreateMul(stop, number(size))), base});
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
  BasicBlock* go = BasicBlock::Create(ctx, "range.flat.go", &range);
  BasicBlock* answer = BasicBlock::Create(ctx, "range.flat.checked", &range);
  BasicBlock* pre = BasicBlock::Create(ctx, "range.flat", &range);
  BasicBlock* loop = BasicBlock::Create(ctx, "range.flat.index", &range);
  BasicBlock* next = BasicBlock::Create(ctx, "range.flat.next", &range);
  c.CreateCondBr(ok, go, flat.rows);
  IRBuilder<>(answer).CreateRet(c.getInt32(KJIT_CPU_RANGE_FLAT));
  IRBuilder<> g(go);
  g.CreateCondBr(g.CreateICmpNE(range.getArg(5), g.getInt32(0)), pre, answer);

  // This range's share of the index space: the same fraction of it as of the grid's threads
  // that have work (a thread whose first index is past the bound has none: a range whose first
  // thread has none never gets here, and takes no share).
  IRBuilder<> p(pre);
  Value* extent = p.CreateSub(stop, origin);
  Value* busy = p.CreateSelect(p.CreateICmpULT(threads, extent), threads, extent, "busy.threads");
  const auto share = [&](Value* thread) {
    Value* t = p.CreateZExt(thread, wide);
    t = p.CreateSelect(p.CreateICmpULT(t, busy), t, busy);
    return p.CreateAdd(origin, p.CreateUDiv(p.CreateMul(extent, t), busy));
  };
  Value* lo = share(first);
  Value* hi = share(end);
  Value* lo_index = p.CreateTrunc(lo, index_type, "flat.begin");
  Value* hi_index = p.CreateTrunc(hi, index_type, "flat.end");
  p.CreateCondBr(p.CreateICmpSLT(lo, hi), loop, work.exit);

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

/// Turns the copy `f`, whose work is `work`, into the range entry `range`.
void rewrite(Function& f, Function& range, const Work& work) {
  llvm::LLVMContext& ctx = f.getContext();
  auto* i32 = llvm::Type::getInt32Ty(ctx);
  auto* i64 = llvm::Type::getInt64Ty(ctx);
  auto* wide = llvm::Type::getIntNTy(ctx, kWideBits);
  range.splice(range.end(), &f);
  Value* args = range.getArg(0);
  Value* block = range.getArg(1);
  Value* first = range.getArg(2);
  Value* end = range.getArg(3);
  Value* row_y = range.getArg(4);
  Value* run = range.getArg(5);

  // The first thread of the range stands for all: its block and thread index; the row's y.
  IRBuilder<> b(&*range.getEntryBlock().getFirstInsertionPt());
  Value* dim = b.CreateZExt(
      b.CreateLoad(i32, b.CreateConstInBoundsGEP1_64(b.getInt8Ty(), block, kBlockDimX)), i64);
  Value* block_x = b.CreateTrunc(b.CreateUDiv(first, dim), i32, "first.block");
  Value* thread_x = b.CreateTrunc(b.CreateURem(first, dim), i32, "first.thread");
  Value* dim_y = b.CreateLoad(i32, b.CreateConstInBoundsGEP1_64(b.getInt8Ty(), block, kBlockDimY));
  Value* block_y = b.CreateUDiv(row_y, dim_y, "row.block");
  Value* thread_y = b.CreateURem(row_y, dim_y, "row.thread");
  std::vector<std::pair<Instruction*, std::int64_t>> index_loads;
  for (Instruction& i : llvm::instructions(range)) {
    if (const std::optional<std::int64_t> field = block_field(&i, f.getArg(kBlock));
        field && *field >= 0 && *field < kBlockDimX) {
      index_loads.emplace_back(&i, *field);
    }
  }
  for (const auto& [load, field] : index_loads) {
    load->replaceAllUsesWith(field == kBlockIdxX   ? block_x
                             : field == kBlockIdxY ? block_y
                                                   : llvm::ConstantInt::get(i32, 0));
    load->eraseFromParent();
  }
  f.getArg(kArgs)->replaceAllUsesWith(args);
  f.getArg(kBlock)->replaceAllUsesWith(block);
  f.getArg(kX)->replaceAllUsesWith(thread_x);
  f.getArg(kY)->replaceAllUsesWith(thread_y);
  f.getArg(kZ)->replaceAllUsesWith(llvm::ConstantInt::get(i32, 0));
  std::vector<llvm::ReturnInst*> returns;
  for (BasicBlock& block_of : range) {
    if (auto* ret = llvm::dyn_cast<llvm::ReturnInst>(block_of.getTerminator())) {
      returns.push_back(ret);
    }
  }
  for (llvm::ReturnInst* ret : returns) {
    IRBuilder<>(ret).CreateRet(b.getInt32(KJIT_CPU_RANGE_ROWS));
    ret->eraseFromParent();
  }

  const bool is_loop = work.index != nullptr;
  // A copy of a flattenable loop's iterations, for the flat loop (add_flat_loop).
  const bool flat = is_loop && !work.accesses.empty();
  std::vector<BasicBlock*> flat_body;
  llvm::PHINode* flat_index = nullptr;
  BasicBlock* flat_header = nullptr;
  BasicBlock* flat_latch = nullptr;
  if (flat) {
    llvm::ValueToValueMapTy map;
    for (BasicBlock* in : work.body) {
      BasicBlock* copy = llvm::CloneBasicBlock(in, map, ".flat", &range);
      map[in] = copy;
      flat_body.push_back(copy);
    }
    llvm::remapInstructionsInBlocks(flat_body, map);
    flat_index = llvm::cast<llvm::PHINode>(map[work.index]);
    flat_header = llvm::cast<BasicBlock>(map[work.header]);
    flat_latch = llvm::cast<BasicBlock>(map[work.latch]);
  }
  const CmpInst::Predicate pred = work.bound.pred;
  const bool is_signed = CmpInst::isSigned(pred);
  const bool strict = pred == CmpInst::ICMP_SLT || pred == CmpInst::ICMP_ULT;
  llvm::Type* index_type = work.start->getType();
  BasicBlock* declined = BasicBlock::Create(ctx, "range.declined", &range);
  llvm::ReturnInst::Create(ctx, b.getInt32(KJIT_CPU_RANGE_DECLINED), declined);

  // Before the guard: the threads' first indices are the first thread's plus its place in the
  // range, without wrapping (then, as in every thread, the guard is false for all when false for
  // the first). An empty range is declined.
  IRBuilder<> g(work.guard->getTerminator());
  Value* lanes = g.CreateZExt(g.CreateSub(end, first), wide, "lanes");
  Value* last_lane = g.CreateSub(lanes, llvm::ConstantInt::get(wide, 1));
  Value* ok = g.CreateICmpUGT(lanes, llvm::ConstantInt::get(wide, 0));
  ok = g.CreateAnd(ok, g.CreateICmpSLE(g.CreateAdd(widen(g, work.start, is_signed), last_lane),
                                       limit_value(index_type, is_signed)));
  for (const auto& [narrow, sign] : work.narrowed) {
    ok = g.CreateAnd(ok, g.CreateICmpSLE(g.CreateAdd(widen(g, narrow, sign), last_lane),
                                         limit_value(narrow->getType(), sign)));
  }
  std::vector<Value*> deltas;  // of work.derived, from start
  deltas.reserve(work.derived.size());
  for (Value* v : work.derived) {
    deltas.push_back(g.CreateSub(v, work.start, "derived.delta"));
  }
  BasicBlock* guarded = work.guard->splitBasicBlock(work.guard->getTerminator(), "range.guard");
  work.guard->getTerminator()->eraseFromParent();
  IRBuilder<>(work.guard).CreateCondBr(ok, guarded, declined);

  // Asked only whether it would run (`run` clear), it answers before any work: at `begin`, or
  // for a loop that may run flat, once it knows which way (add_flat_loop).
  BasicBlock* begin = BasicBlock::Create(ctx, "range.begin", &range);
  BasicBlock* checked = BasicBlock::Create(ctx, "range.checked", &range);
  llvm::ReturnInst::Create(ctx, b.getInt32(KJIT_CPU_RANGE_ROWS), checked);
  BasicBlock* row = BasicBlock::Create(ctx, "range.row", &range);
  BasicBlock* flat_check = flat ? BasicBlock::Create(ctx, "range.flat.check", &range) : nullptr;
  BasicBlock* rows_go = flat ? BasicBlock::Create(ctx, "range.rows", &range) : begin;
  if (flat) {
    IRBuilder<>(begin).CreateBr(flat_check);
  }
  IRBuilder<>(rows_go).CreateCondBr(IRBuilder<>(rows_go).CreateICmpNE(run, b.getInt32(0)), row,
                                    checked);
  BasicBlock* lane = BasicBlock::Create(ctx, "range.lane", &range);
  BasicBlock* lane_next = BasicBlock::Create(ctx, "range.lane.next", &range);
  BasicBlock* row_next = is_loop ? BasicBlock::Create(ctx, "range.row.next", &range) : nullptr;
  if (is_loop) {
    // In the preheader: a positive stride, and no index past the bound that wraps.
    work.into->getTerminator()->eraseFromParent();
    IRBuilder<> p(work.into);
    Value* step = widen(p, work.step, is_signed);
    Value* highest =
        p.CreateAdd(widen(p, work.bound.limit, is_signed),
                    strict ? p.CreateSub(step, llvm::ConstantInt::get(wide, 1)) : step);
    Value* steps_ok = p.CreateAnd(p.CreateICmpSGT(step, llvm::ConstantInt::get(wide, 0)),
                                  p.CreateICmpSLE(highest, limit_value(index_type, is_signed)));
    p.CreateCondBr(steps_ok, begin, declined);
  } else {
    guarded->getTerminator()->replaceSuccessorWith(work.into, begin);
  }

  // A row: iteration k of every thread in the range (one element's work: the only one), the
  // threads still in bounds.
  IRBuilder<> r(row);
  Value* base = work.start;
  llvm::PHINode* base_phi = nullptr;
  if (is_loop) {
    base_phi = r.CreatePHI(index_type, 2, "row.base");
    base_phi->addIncoming(work.start, rows_go);
    base = base_phi;
  }
  Value* base_wide = widen(r, base, is_signed);
  Value* left = r.CreateSub(widen(r, work.bound.limit, is_signed), base_wide);
  if (!strict) {
    left = r.CreateAdd(left, llvm::ConstantInt::get(wide, 1));
  }
  Value* count = r.CreateSelect(r.CreateICmpULT(left, lanes), left, lanes);
  Value* row_end = r.CreateTrunc(r.CreateAdd(base_wide, count), index_type, "row.end");
  r.CreateBr(lane);

  IRBuilder<> l(lane);
  llvm::PHINode* index = l.CreatePHI(index_type, 2, "lane.index");
  index->addIncoming(base, row);
  const std::set<const BasicBlock*> body(work.body.begin(), work.body.end());
  if (is_loop) {
    l.CreateBr(work.header);
    work.index->replaceAllUsesWith(index);
    work.index->eraseFromParent();
    work.latch->getTerminator()->eraseFromParent();
    IRBuilder<>(work.latch).CreateBr(lane_next);
  } else {
    const auto in_body = [&](llvm::Use& u) {
      const auto* user = llvm::dyn_cast<Instruction>(u.getUser());
      return user != nullptr && body.count(user->getParent()) != 0;
    };
    for (std::size_t k = 0; k < work.derived.size(); ++k) {
      work.derived[k]->replaceUsesWithIf(l.CreateAdd(index, deltas[k], "derived"), in_body);
    }
    l.CreateBr(work.into);
    work.start->replaceUsesWithIf(index, in_body);
    // The element's way out goes on to the next thread; what the exit merges is unused (the
    // kernel does nothing after the element).
    for (BasicBlock* from : work.body) {
      if (llvm::is_contained(llvm::successors(from), work.exit)) {
        for (llvm::PHINode& phi : work.exit->phis()) {
          while (phi.getBasicBlockIndex(from) >= 0) {
            phi.removeIncomingValue(from, /*DeletePHIIfEmpty=*/false);
          }
        }
        from->getTerminator()->replaceSuccessorWith(work.exit, lane_next);
      }
    }
    for (llvm::PHINode& phi : work.exit->phis()) {
      phi.addIncoming(llvm::PoisonValue::get(phi.getType()), lane_next);
    }
  }

  // The threads of a row share nothing through memory that a barrier would order (anything else
  // is a race, as on a GPU): the loop over them carries no dependence through memory.
  IRBuilder<> n(lane_next);
  Value* next = n.CreateAdd(index, llvm::ConstantInt::get(index_type, 1), "lane.next",
                            /*HasNUW=*/!is_signed, /*HasNSW=*/is_signed);
  index->addIncoming(next, lane_next);
  llvm::BranchInst* back =
      n.CreateCondBr(is_signed ? n.CreateICmpSLT(next, row_end) : n.CreateICmpULT(next, row_end),
                     lane, is_loop ? row_next : work.exit);
  back->setMetadata(llvm::LLVMContext::MD_loop, parallel_loop(ctx, work.body));

  hoist_from_lanes(range, body, row, lane, lane_next);

  if (is_loop) {
    IRBuilder<> rn(row_next);
    Value* base_next = rn.CreateAdd(base, work.step, "row.next");
    base_phi->addIncoming(base_next, row_next);
    rn.CreateCondBr(rn.CreateICmp(pred, base_next, work.bound.limit), row, work.exit);
    work.exit->replacePhiUsesWith(work.latch, row_next);
  }
  if (flat) {
    const FlatLoop flat_loop{flat_check, rows_go, flat_body, flat_index, flat_header, flat_latch};
    add_flat_loop(range, work, flat_loop);
  }
}

}  // namespace

std::string make_range_entry(const Function& thread_entry, const std::string& range_name) {
  llvm::ValueToValueMapTy map;
  Function* f = llvm::CloneFunction(const_cast<Function*>(&thread_entry), map);
  // Loops of a known count inside the work unrolled (a filter's taps: their coefficients' loads
  // are then the row's to share, hoist_from_lanes); a stride computed in the loop
  // (`i += blockDim.x * gridDim.x`) made loop-invariant.
  llvm_setup::run_function_passes(
      *f, "loop(loop-rotate),loop-unroll<O3>,instcombine<no-verify-fixpoint>,loop-mssa(licm)");
  Work work;
  if (std::string why = find_work(*f, work); !why.empty()) {
    f->eraseFromParent();
    return why;
  }
  llvm::LLVMContext& ctx = f->getContext();
  auto* ptr = llvm::PointerType::get(ctx, 0);
  auto* i64 = llvm::Type::getInt64Ty(ctx);
  auto* i32 = llvm::Type::getInt32Ty(ctx);
  Function* range = Function::Create(
      llvm::FunctionType::get(llvm::Type::getInt32Ty(ctx), {ptr, ptr, i64, i64, i32, i32}, false),
      llvm::GlobalValue::ExternalLinkage, range_name, f->getParent());
  range->setAttributes(
      llvm::AttributeList::get(ctx, llvm::AttributeList::FunctionIndex,
                               llvm::AttrBuilder(ctx, f->getAttributes().getFnAttrs())));
  rewrite(*f, *range, work);
  f->eraseFromParent();
  std::string problems;
  llvm::raw_string_ostream os(problems);
  if (llvm::verifyFunction(*range, &os)) {
    range->eraseFromParent();
    return fmt::format("internal error: its range entry is invalid IR: {}", os.str());
  }
  return {};
}

}  // namespace kjit::cpu
