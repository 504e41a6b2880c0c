#include "backends/cpu/lower/cpu_thread_ranges.hpp"

#include "backends/cpu/lower/cpu_range_loops.hpp"
#include "backends/cpu/lower/cpu_thread_work.hpp"
#include "backends/cpu/prelude/cpu_abi.h"
#include "backends/llvm/llvm_setup.hpp"

#include <llvm/IR/Constants.h>
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

/// Turns the copy `f`, whose work is `work`, into the range entry `range`: run() takes its steps
/// in the order in which they build the entry's blocks.
class RangeRewrite {
 public:
  RangeRewrite(Function& f, Function& range, const Work& work)
      : f_(f),
        range_(range),
        work_(work),
        ctx_(f.getContext()),
        i32_(llvm::Type::getInt32Ty(ctx_)),
        wide_(llvm::Type::getIntNTy(ctx_, kWideBits)),
        pred_(work.bound.pred),
        is_signed_(CmpInst::isSigned(pred_)),
        strict_(pred_ == CmpInst::ICMP_SLT || pred_ == CmpInst::ICMP_ULT),
        index_type_(work.start->getType()),
        is_loop_(work.index != nullptr),
        flat_(is_loop_ && !work.accesses.empty()),
        body_(work.body.begin(), work.body.end()) {}

  void run() {
    take_thread_entry();
    if (flat_) {
      copy_for_flat();
    }
    declined_ = BasicBlock::Create(ctx_, "range.declined", &range_);
    llvm::ReturnInst::Create(ctx_, int32(KJIT_CPU_RANGE_DECLINED), declined_);
    guard();
    begin_rows();
    make_row();
    make_lane();
    make_lane_next();
    if (is_loop_) {
      make_row_next();
    }
    if (flat_) {
      const FlatLoop flat_loop{flat_check_, rows_go_,     flat_body_,
                               flat_index_, flat_header_, flat_latch_};
      add_flat_loop(range_, work_, flat_loop);
    }
  }

 private:
  [[nodiscard]] llvm::ConstantInt* int32(std::uint64_t v) const {
    return llvm::ConstantInt::get(i32_, v);
  }

  /// Moves `f`'s blocks into the range entry, where the first thread of the range stands for all.
  void take_thread_entry() {
    auto* i64 = llvm::Type::getInt64Ty(ctx_);
    range_.splice(range_.end(), &f_);
    Value* block = range_.getArg(1);
    Value* first = range_.getArg(2);
    Value* row_y = range_.getArg(4);

    // The first thread of the range stands for all: its block and thread index; the row's y.
    IRBuilder<> b(&*range_.getEntryBlock().getFirstInsertionPt());
    Value* dim = b.CreateZExt(
        b.CreateLoad(i32_, b.CreateConstInBoundsGEP1_64(b.getInt8Ty(), block, kBlockDimX)), i64);
    Value* block_x = b.CreateTrunc(b.CreateUDiv(first, dim), i32_, "first.block");
    Value* thread_x = b.CreateTrunc(b.CreateURem(first, dim), i32_, "first.thread");
    Value* dim_y =
        b.CreateLoad(i32_, b.CreateConstInBoundsGEP1_64(b.getInt8Ty(), block, kBlockDimY));
    Value* block_y = b.CreateUDiv(row_y, dim_y, "row.block");
    Value* thread_y = b.CreateURem(row_y, dim_y, "row.thread");
    std::vector<std::pair<Instruction*, std::int64_t>> index_loads;
    for (Instruction& i : llvm::instructions(range_)) {
      if (const std::optional<std::int64_t> field = block_field(&i, f_.getArg(kBlock));
          field && *field >= 0 && *field < kBlockDimX) {
        index_loads.emplace_back(&i, *field);
      }
    }
    for (const auto& [load, field] : index_loads) {
      load->replaceAllUsesWith(field == kBlockIdxX   ? block_x
                               : field == kBlockIdxY ? block_y
                                                     : llvm::ConstantInt::get(i32_, 0));
      load->eraseFromParent();
    }
    f_.getArg(kArgs)->replaceAllUsesWith(range_.getArg(0));
    f_.getArg(kBlock)->replaceAllUsesWith(block);
    f_.getArg(kX)->replaceAllUsesWith(thread_x);
    f_.getArg(kY)->replaceAllUsesWith(thread_y);
    f_.getArg(kZ)->replaceAllUsesWith(llvm::ConstantInt::get(i32_, 0));
    std::vector<llvm::ReturnInst*> returns;
    for (BasicBlock& block_of : range_) {
      if (auto* ret = llvm::dyn_cast<llvm::ReturnInst>(block_of.getTerminator())) {
        returns.push_back(ret);
      }
    }
    for (llvm::ReturnInst* ret : returns) {
      IRBuilder<>(ret).CreateRet(int32(KJIT_CPU_RANGE_ROWS));
      ret->eraseFromParent();
    }
  }

  /// A copy of a flattenable loop's iterations, for the flat loop (add_flat_loop).
  void copy_for_flat() {
    llvm::ValueToValueMapTy map;
    for (BasicBlock* in : work_.body) {
      BasicBlock* copy = llvm::CloneBasicBlock(in, map, ".flat", &range_);
      map[in] = copy;
      flat_body_.push_back(copy);
    }
    llvm::remapInstructionsInBlocks(flat_body_, map);
    flat_index_ = llvm::cast<llvm::PHINode>(map[work_.index]);
    flat_header_ = llvm::cast<BasicBlock>(map[work_.header]);
    flat_latch_ = llvm::cast<BasicBlock>(map[work_.latch]);
  }

  /// Before the guard: the threads' first indices are the first thread's plus its place in the
  /// range, without wrapping (then, as in every thread, the guard is false for all when false for
  /// the first). An empty range is declined.
  void guard() {
    Value* first = range_.getArg(2);
    Value* end = range_.getArg(3);
    IRBuilder<> g(work_.guard->getTerminator());
    lanes_ = g.CreateZExt(g.CreateSub(end, first), wide_, "lanes");
    Value* last_lane = g.CreateSub(lanes_, llvm::ConstantInt::get(wide_, 1));
    Value* ok = g.CreateICmpUGT(lanes_, llvm::ConstantInt::get(wide_, 0));
    ok = g.CreateAnd(ok, g.CreateICmpSLE(g.CreateAdd(widen(g, work_.start, is_signed_), last_lane),
                                         limit_value(index_type_, is_signed_)));
    for (const auto& [narrow, sign] : work_.narrowed) {
      ok = g.CreateAnd(ok, g.CreateICmpSLE(g.CreateAdd(widen(g, narrow, sign), last_lane),
                                           limit_value(narrow->getType(), sign)));
    }
    deltas_.reserve(work_.derived.size());
    for (Value* v : work_.derived) {
      deltas_.push_back(g.CreateSub(v, work_.start, "derived.delta"));
    }
    guarded_ = work_.guard->splitBasicBlock(work_.guard->getTerminator(), "range.guard");
    work_.guard->getTerminator()->eraseFromParent();
    IRBuilder<>(work_.guard).CreateCondBr(ok, guarded_, declined_);
  }

  /// From the guard to the rows, by way of the loop's checks and the flat loop's.
  void begin_rows() {
    // Asked only whether it would run (`run` clear), it answers before any work: at `begin`, or
    // for a loop that may run flat, once it knows which way (add_flat_loop).
    BasicBlock* begin = BasicBlock::Create(ctx_, "range.begin", &range_);
    BasicBlock* checked = BasicBlock::Create(ctx_, "range.checked", &range_);
    llvm::ReturnInst::Create(ctx_, int32(KJIT_CPU_RANGE_ROWS), checked);
    row_ = BasicBlock::Create(ctx_, "range.row", &range_);
    flat_check_ = flat_ ? BasicBlock::Create(ctx_, "range.flat.check", &range_) : nullptr;
    rows_go_ = flat_ ? BasicBlock::Create(ctx_, "range.rows", &range_) : begin;
    if (flat_) {
      IRBuilder<>(begin).CreateBr(flat_check_);
    }
    IRBuilder<>(rows_go_).CreateCondBr(
        IRBuilder<>(rows_go_).CreateICmpNE(range_.getArg(5), int32(0)), row_, checked);
    lane_ = BasicBlock::Create(ctx_, "range.lane", &range_);
    lane_next_ = BasicBlock::Create(ctx_, "range.lane.next", &range_);
    row_next_ = is_loop_ ? BasicBlock::Create(ctx_, "range.row.next", &range_) : nullptr;
    if (is_loop_) {
      // In the preheader: a positive stride, and no index past the bound that wraps.
      work_.into->getTerminator()->eraseFromParent();
      IRBuilder<> p(work_.into);
      Value* step = widen(p, work_.step, is_signed_);
      Value* highest =
          p.CreateAdd(widen(p, work_.bound.limit, is_signed_),
                      strict_ ? p.CreateSub(step, llvm::ConstantInt::get(wide_, 1)) : step);
      Value* steps_ok = p.CreateAnd(p.CreateICmpSGT(step, llvm::ConstantInt::get(wide_, 0)),
                                    p.CreateICmpSLE(highest, limit_value(index_type_, is_signed_)));
      p.CreateCondBr(steps_ok, begin, declined_);
    } else {
      guarded_->getTerminator()->replaceSuccessorWith(work_.into, begin);
    }
  }

  /// A row: iteration k of every thread in the range (one element's work: the only one), the
  /// threads still in bounds.
  void make_row() {
    IRBuilder<> r(row_);
    base_ = work_.start;
    if (is_loop_) {
      base_phi_ = r.CreatePHI(index_type_, 2, "row.base");
      base_phi_->addIncoming(work_.start, rows_go_);
      base_ = base_phi_;
    }
    Value* base_wide = widen(r, base_, is_signed_);
    Value* left = r.CreateSub(widen(r, work_.bound.limit, is_signed_), base_wide);
    if (!strict_) {
      left = r.CreateAdd(left, llvm::ConstantInt::get(wide_, 1));
    }
    Value* count = r.CreateSelect(r.CreateICmpULT(left, lanes_), left, lanes_);
    row_end_ = r.CreateTrunc(r.CreateAdd(base_wide, count), index_type_, "row.end");
    r.CreateBr(lane_);
  }

  /// A thread of the row: the loop's iteration, or the element's work, at the lane's index.
  void make_lane() {
    IRBuilder<> l(lane_);
    index_ = l.CreatePHI(index_type_, 2, "lane.index");
    index_->addIncoming(base_, row_);
    if (is_loop_) {
      l.CreateBr(work_.header);
      work_.index->replaceAllUsesWith(index_);
      work_.index->eraseFromParent();
      work_.latch->getTerminator()->eraseFromParent();
      IRBuilder<>(work_.latch).CreateBr(lane_next_);
      return;
    }
    const auto in_body = [&](llvm::Use& u) {
      const auto* user = llvm::dyn_cast<Instruction>(u.getUser());
      return user != nullptr && body_.count(user->getParent()) != 0;
    };
    for (std::size_t k = 0; k < work_.derived.size(); ++k) {
      work_.derived[k]->replaceUsesWithIf(l.CreateAdd(index_, deltas_[k], "derived"), in_body);
    }
    l.CreateBr(work_.into);
    work_.start->replaceUsesWithIf(index_, in_body);
    // The element's way out goes on to the next thread; what the exit merges is unused (the
    // kernel does nothing after the element).
    for (BasicBlock* from : work_.body) {
      if (llvm::is_contained(llvm::successors(from), work_.exit)) {
        for (llvm::PHINode& phi : work_.exit->phis()) {
          while (phi.getBasicBlockIndex(from) >= 0) {
            phi.removeIncomingValue(from, /*DeletePHIIfEmpty=*/false);
          }
        }
        from->getTerminator()->replaceSuccessorWith(work_.exit, lane_next_);
      }
    }
    for (llvm::PHINode& phi : work_.exit->phis()) {
      phi.addIncoming(llvm::PoisonValue::get(phi.getType()), lane_next_);
    }
  }

  void make_lane_next() {
    // The threads of a row share nothing through memory that a barrier would order (anything else
    // is a race, as on a GPU): the loop over them carries no dependence through memory.
    IRBuilder<> n(lane_next_);
    Value* next = n.CreateAdd(index_, llvm::ConstantInt::get(index_type_, 1), "lane.next",
                              /*HasNUW=*/!is_signed_, /*HasNSW=*/is_signed_);
    index_->addIncoming(next, lane_next_);
    llvm::BranchInst* back = n.CreateCondBr(
        is_signed_ ? n.CreateICmpSLT(next, row_end_) : n.CreateICmpULT(next, row_end_), lane_,
        is_loop_ ? row_next_ : work_.exit);
    back->setMetadata(llvm::LLVMContext::MD_loop, parallel_loop(ctx_, work_.body));

    hoist_from_lanes(range_, body_, row_, lane_, lane_next_);
  }

  /// After a loop's row: the next row, at the loop's next index, while within the bound.
  void make_row_next() {
    IRBuilder<> rn(row_next_);
    Value* base_next = rn.CreateAdd(base_, work_.step, "row.next");
    base_phi_->addIncoming(base_next, row_next_);
    rn.CreateCondBr(rn.CreateICmp(pred_, base_next, work_.bound.limit), row_, work_.exit);
    work_.exit->replacePhiUsesWith(work_.latch, row_next_);
  }

  Function& f_;
  Function& range_;
  const Work& work_;
  llvm::LLVMContext& ctx_;
  llvm::IntegerType* i32_;
  llvm::IntegerType* wide_;
  const CmpInst::Predicate pred_;
  const bool is_signed_;
  const bool strict_;
  llvm::Type* index_type_;
  const bool is_loop_;
  const bool flat_;  // a loop that may run flat (add_flat_loop)
  const std::set<const BasicBlock*> body_;
  // The copy of a flattenable loop's iterations, its index, header and latch.
  std::vector<BasicBlock*> flat_body_;
  llvm::PHINode* flat_index_ = nullptr;
  BasicBlock* flat_header_ = nullptr;
  BasicBlock* flat_latch_ = nullptr;
  BasicBlock* declined_ = nullptr;
  // Before the guard: the range's thread count, and the derived values' differences from start.
  Value* lanes_ = nullptr;
  std::vector<Value*> deltas_;  // of work.derived, from start
  BasicBlock* guarded_ = nullptr;
  BasicBlock* row_ = nullptr;
  BasicBlock* flat_check_ = nullptr;
  BasicBlock* rows_go_ = nullptr;
  BasicBlock* lane_ = nullptr;
  BasicBlock* lane_next_ = nullptr;
  BasicBlock* row_next_ = nullptr;
  Value* base_ = nullptr;  // the row's first index
  llvm::PHINode* base_phi_ = nullptr;
  Value* row_end_ = nullptr;
  llvm::PHINode* index_ = nullptr;  // the lane's
};

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
  RangeRewrite(*f, *range, work).run();
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
