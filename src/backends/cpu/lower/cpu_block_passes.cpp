// One pass over a block's threads (make_pass): a function that runs, for each thread of the
// block, the region it waits at, or for every thread the same region, inlined into a loop over
// the threads that LLVM can vectorise; it returns the states the threads reach.
#include "backends/cpu/lower/cpu_barrier_regions_internal.hpp"

#include "backends/cpu/lower/cpu_ir_loops.hpp"
#include "backends/cpu/lower/cpu_pass_versions.hpp"
#include "backends/cpu/lower/cpu_uniform_stores.hpp"
#include "backends/cpu/lower/cpu_warp_lanes.hpp"
#include "backends/cpu/run/cpu_runtime_symbols.hpp"

#include <kjit/error.hpp>

#include <llvm/ADT/PostOrderIterator.h>
#include <llvm/Analysis/ValueTracking.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>
#include <llvm/Transforms/Utils/Cloning.h>

#include <fmt/format.h>

#include <cstdint>
#include <limits>
#include <map>
#include <set>
#include <utility>
#include <vector>

namespace kjit::cpu::barrier_split {

namespace {

using llvm::BasicBlock;
using llvm::Function;
using llvm::Instruction;
using llvm::Value;

/// Moves the loads of memory no kernel writes (the block record, the argument table and the
/// arguments), and the arithmetic on them and on `g`'s parameters, to `g`'s entry: out of the
/// loops over threads of a pass. LLVM cannot hoist such a load from one arm of a branch itself
/// (it does not know the memory is always there to read), and a base pointer loaded in the loop
/// keeps it from computing the bounds of the loop's accesses, and so from vectorising the loop.
void hoist_invariant_loads(Function& g) {
  BasicBlock& entry = g.getEntryBlock();
  std::set<const Value*> ready;
  const auto available = [&](const Value* v) {
    return llvm::isa<llvm::Argument, llvm::Constant>(v) || ready.count(v) != 0;
  };
  llvm::ReversePostOrderTraversal<Function*> order(&g);
  for (BasicBlock* b : order) {
    for (Instruction& i : llvm::make_early_inc_range(*b)) {
      const auto* load = llvm::dyn_cast<llvm::LoadInst>(&i);
      const bool movable =
          load != nullptr
              ? load->isSimple() && load->hasMetadata(llvm::LLVMContext::MD_invariant_load)
              : !i.mayReadOrWriteMemory() && !llvm::isa<llvm::PHINode>(i) &&
                    llvm::isSafeToSpeculativelyExecute(&i);
      if (!movable || !llvm::all_of(i.operands(), available)) {
        continue;
      }
      ready.insert(&i);
      if (b != &entry) {
        i.moveBefore(entry.getTerminator());
      }
    }
  }
}

/// Builds one pass (make_pass): its steps emit the pass's code with one builder, in the order
/// the pass runs it.
class PassBuilder {
 public:
  PassBuilder(Function& f, const Regions& code, unsigned r, PassMode mode,
              const FrameLayout& layout, const MemorySpaces& spaces, bool over_live)
      : f_(f),
        code_(code),
        r_(r),
        mode_(mode),
        layout_(layout),
        spaces_(spaces),
        over_live_(over_live),
        ctx_(f.getContext()),
        ptr_(llvm::PointerType::get(ctx_, 0)),
        i32_(llvm::Type::getInt32Ty(ctx_)),
        i64_(llvm::Type::getInt64Ty(ctx_)),
        result_(llvm::StructType::get(ctx_, {i32_, i32_, i32_})),
        b_(ctx_) {}

  Function* build() {
    create_function();
    prepare();
    Carried out = lanes_ ? nest_in_warps() : affine_ == nullptr ? nest() : affine_or_plain();
    if (state_bits_) {  // every thread reached a state: some bit is set
      out = states_from_bits(out[0]);
    }
    finish(out);
    return pass_;
  }

 private:
  void create_function();
  void prepare();
  void take_snapshots(Value* tid);
  void compute_splits();
  llvm::CallInst* call_region(Function* region, Value* x, Value* y, Value* z, Value* tid);
  Value* thread(Value* x, Value* y, Value* z);
  Value* run_own_region(Value* x, Value* y, Value* z, Value* tid, Value* state_address);
  llvm::MDNode* new_loop_id();
  Carried fold(const Carried& c, Value* next);
  Carried row(Value* first, Value* end, const Carried& c_row, bool may_be_empty, Value* y,
              Value* z);
  Carried over_x(Value* y, Value* z, const Carried& c_y);
  Carried nest();
  Carried nest_in_warps();
  Carried init_states();
  Value* all_kept_affine();
  Carried affine_or_plain();
  Carried states_from_bits(Value* reached);
  void finish(const Carried& out);

  Function& f_;
  const Regions& code_;
  unsigned r_;
  PassMode mode_;
  const FrameLayout& layout_;
  const MemorySpaces& spaces_;
  bool over_live_;
  llvm::LLVMContext& ctx_;
  llvm::PointerType* ptr_;
  llvm::IntegerType* i32_;
  llvm::IntegerType* i64_;
  llvm::StructType* result_;
  llvm::IRBuilder<> b_;
  Function* pass_ = nullptr;
  Value* args_ = nullptr;
  Value* block_ = nullptr;
  Value* frame_ = nullptr;
  Value* threads_ = nullptr;
  Value* nx_ = nullptr;
  Value* ny_ = nullptr;
  Value* nz_ = nullptr;
  Value* live_first_ = nullptr;
  Value* live_end_ = nullptr;
  Value* states_ = nullptr;
  Value* holder_ = nullptr;
  Value* held_flags_ = nullptr;
  const AffineRegion* affine_ = nullptr;
  // Where the threads of a guarded region change sides (ThreadGuard), computed once.
  std::map<const Function*, Value*> splits_;
  std::vector<llvm::CallInst*> inlined_;
  std::vector<Value*> region_extra_;  // the bases of an affine region
  Function* all_region_ = nullptr;
  std::vector<Value*> xs_;  // of the loops over threads that run regions inlined
  llvm::MDNode* accesses_ = nullptr;
  bool state_bits_ = false;
  bool lanes_ = false;  // the region runs a warp's lanes in step: a pass over whole warps
  llvm::IntegerType* bits_ = nullptr;
  std::uint32_t none_yet_ = 0;
};

void PassBuilder::create_function() {
  std::vector<llvm::Type*> parameters{ptr_, ptr_, ptr_, i64_, i32_, i32_, i32_};
  if (over_live_) {
    parameters.insert(parameters.end(), {i32_, i32_});  // the live threads' x: [first, end)
  }
  auto* type = llvm::FunctionType::get(result_, parameters, false);
  const char* suffix = over_live_                   ? "live"
                       : mode_ == PassMode::all     ? "all"
                       : mode_ == PassMode::any     ? "any"
                       : mode_ == PassMode::through ? "through"
                                                    : "warp";
  pass_ = function_like(f_, type, llvm::GlobalValue::InternalLinkage,
                        fmt::format("{}.pass{}.{}", f_.getName().str(), r_, suffix));
  args_ = pass_->getArg(0);
  block_ = pass_->getArg(1);
  frame_ = pass_->getArg(2);
  threads_ = pass_->getArg(3);
  nx_ = pass_->getArg(4);
  ny_ = pass_->getArg(5);
  nz_ = pass_->getArg(6);
  live_first_ = over_live_ ? pass_->getArg(7) : nullptr;
  live_end_ = over_live_ ? pass_->getArg(8) : nullptr;
  b_.SetInsertPoint(BasicBlock::Create(ctx_, "entry", pass_));
}

void PassBuilder::prepare() {
  states_ = slot_address(b_, frame_, threads_, b_.getInt64(0), layout_.state);
  // The thread whose slots hold the values the same in every thread of a pass over all threads:
  // thread 0, or the first live one in a pass over the live threads.
  holder_ = over_live_ ? b_.CreateZExt(live_first_, i64_) : b_.getInt64(0);
  // A pass that runs the threads at warp meetings on leaves those the runtime holds where they
  // are (kjit_cpu_warp_release): their flags in the warp area (cpu_abi.h).
  if (mode_ == PassMode::warp) {
    held_flags_ = emit_held_flags(b_, block_, threads_);
  }
  if (mode_ == PassMode::all && r_ != 0) {
    take_snapshots(holder_);
  }
  affine_ = mode_ == PassMode::all && !over_live_ && r_ < code_.affine.size() &&
                    code_.affine[r_].region != nullptr
                ? &code_.affine[r_]
                : nullptr;
  lanes_ = mode_ == PassMode::all && !over_live_ && code_.in_step.count(code_.regions[r_]) != 0;
  compute_splits();
  all_region_ = code_.regions[r_];
  // The threads of a pass share nothing through memory that a barrier does not order (any other
  // exchange is a data race, as on a GPU), so the loop over threads carries no dependence
  // through its loads and stores. Said to LLVM, it vectorises without checking at run time that
  // the threads' accesses do not overlap, a check that fails whenever they do but are masked off
  // (a reduction tree's `if (t < stride) s[t] += s[t + stride]`).
  accesses_ = mode_ == PassMode::all ? llvm::MDNode::getDistinct(ctx_, {}) : nullptr;
  // The states the threads reach: as a set of bits where there are at most 64 states (an or over
  // the threads, which LLVM vectorises whatever it learns of the states; a min and max over a
  // state it finds constant after unswitching a loop become compares it does not recognise as
  // reductions), else as {min state, min state of threads that have not ended, max state}.
  state_bits_ = code_.regions.size() <= 64;
  // States are below code.regions.size(): a 32-bit set where they fit, half the vector work.
  bits_ = code_.regions.size() <= 32 ? i32_ : i64_;
  // A pass over the live threads counts the others as ended: they are.
  none_yet_ = over_live_ ? kEnded : std::numeric_limits<std::uint32_t>::max();
}

// The uniform values every thread of the pass reads: thread 0's (all threads are at one
// barrier), or, when each thread runs its own region, the running thread's.
void PassBuilder::take_snapshots(Value* tid) {
  for (const Snapshot& snapshot : layout_.snapshots) {
    const FrameSlot& slot = layout_.slots[snapshot.slot];
    b_.CreateMemCpy(snapshot_address(b_, frame_, threads_, layout_, snapshot), llvm::Align(1),
                    slot_address(b_, frame_, threads_, tid, slot), llvm::Align(1), snapshot.bytes);
  }
}

void PassBuilder::compute_splits() {
  if (mode_ != PassMode::all || lanes_) {
    return;
  }
  for (Function* region : {code_.regions[r_], affine_ != nullptr ? affine_->region : nullptr}) {
    const auto guard = code_.guards.find(region);
    if (guard == code_.guards.end()) {
      continue;
    }
    llvm::ValueToValueMapTy params;
    params[region->getArg(kArgs)] = args_;
    params[region->getArg(kBlock)] = block_;
    params[region->getArg(kFrame)] = frame_;
    params[region->getArg(kThreads)] = threads_;
    splits_[region] = emit_split(b_, guard->second, params, nx_);
  }
}

llvm::CallInst* PassBuilder::call_region(Function* region, Value* x, Value* y, Value* z,
                                         Value* tid) {
  Value* uniform_tid = mode_ == PassMode::all ? holder_ : tid;
  std::vector<Value*> call_args{args_, block_, x, y, z, frame_, threads_, tid, uniform_tid};
  if (region->arg_size() > call_args.size()) {
    call_args.insert(call_args.end(), region_extra_.begin(), region_extra_.end());
  }
  llvm::CallInst* call = b_.CreateCall(region, call_args);
  call->addFnAttr(mode_ == PassMode::all ? llvm::Attribute::AlwaysInline
                                         : llvm::Attribute::NoInline);
  if (mode_ == PassMode::all) {
    inlined_.push_back(call);
  }
  return call;
}

/// Thread (x, y, z) of the pass: runs its region and records the state it reaches.
Value* PassBuilder::thread(Value* x, Value* y, Value* z) {
  Value* tid = b_.CreateAdd(
      b_.CreateMul(b_.CreateAdd(b_.CreateMul(b_.CreateZExt(z, i64_), b_.CreateZExt(ny_, i64_)),
                                b_.CreateZExt(y, i64_)),
                   b_.CreateZExt(nx_, i64_)),
      b_.CreateZExt(x, i64_), "tid");
  Value* state_address = b_.CreateInBoundsGEP(i32_, states_, tid);
  Value* next = nullptr;
  if (mode_ == PassMode::all) {
    xs_.push_back(x);
    next = call_region(all_region_, x, y, z, tid);
  } else {
    next = run_own_region(x, y, z, tid, state_address);
  }
  // A pass whose threads all return one state needs no record of each: the next pass runs
  // over all threads too (make_driver).
  if (mode_ != PassMode::all || code_.alike.count(all_region_) == 0) {
    spaces_.annotate_frame_access(*b_.CreateStore(next, state_address));
  }
  return next;
}

/// In a pass in which each thread runs its own region: the region that thread `tid` waits at,
/// called, if the pass runs it; the state it reaches.
Value* PassBuilder::run_own_region(Value* x, Value* y, Value* z, Value* tid, Value* state_address) {
  auto* state = b_.CreateLoad(i32_, state_address, "state");
  spaces_.annotate_frame_access(*state);
  BasicBlock* from = b_.GetInsertBlock();
  BasicBlock* join = BasicBlock::Create(ctx_, "kjit.thread.done", pass_);
  std::vector<std::pair<BasicBlock*, Value*>> incoming{{from, state}};
  const auto run = [&](Function* region) {
    BasicBlock* body = BasicBlock::Create(ctx_, "kjit.thread.run", pass_, join);
    b_.SetInsertPoint(body);
    if (code_.in_step.count(region) != 0) {
      // Made for a warp's lanes in step: every thread reaches it with all others, in a pass over
      // all threads; never alone.
      b_.CreateCall(
          f_.getParent()->getOrInsertFunction(kWarpLanesApartSymbol, llvm::Type::getVoidTy(ctx_)));
      b_.CreateUnreachable();
      return body;
    }
    take_snapshots(tid);  // only a thread that runs reads them
    Value* v = call_region(region, x, y, z, tid);
    b_.CreateBr(join);
    incoming.emplace_back(b_.GetInsertBlock(), v);
    return body;
  };
  const std::vector<Function*>& runs = mode_ == PassMode::through ? code_.through : code_.regions;
  Value* at = state;
  if (held_flags_ != nullptr) {  // a held thread runs nothing: state 0 has no case
    at = emit_unless_held(b_, held_flags_, tid, state);
  }
  llvm::SwitchInst* sw = b_.CreateSwitch(at, join, static_cast<unsigned>(runs.size()));
  for (unsigned k = 1; k < runs.size(); ++k) {
    if (runs[k] != nullptr && pass_runs_state(code_, mode_, k)) {
      sw->addCase(b_.getInt32(k), run(runs[k]));
    }
  }
  b_.SetInsertPoint(join);
  llvm::PHINode* phi = b_.CreatePHI(i32_, static_cast<unsigned>(incoming.size()), "next");
  for (auto& [pred, value] : incoming) {
    phi->addIncoming(value, pred);
  }
  return phi;
}

llvm::MDNode* PassBuilder::new_loop_id() {
  if (accesses_ == nullptr) {
    return nullptr;
  }
  llvm::TempMDTuple placeholder = llvm::MDNode::getTemporary(ctx_, {});
  llvm::MDNode* id = llvm::MDNode::getDistinct(
      ctx_, {placeholder.get(),
             llvm::MDNode::get(
                 ctx_, {llvm::MDString::get(ctx_, "llvm.loop.parallel_accesses"), accesses_}),
             llvm::MDNode::get(ctx_, {llvm::MDString::get(ctx_, "llvm.loop.interleave.count"),
                                      llvm::ConstantAsMetadata::get(b_.getInt32(1))})});
  id->replaceOperandWith(0, id);
  return id;
}

/// The states reached so far (`c`, as state_bits_ says) with `next`.
Carried PassBuilder::fold(const Carried& c, Value* next) {
  if (state_bits_) {
    return {b_.CreateOr(
        c[0], b_.CreateShl(llvm::ConstantInt::get(bits_, 1), b_.CreateZExtOrTrunc(next, bits_)))};
  }
  Value* live = b_.CreateSelect(b_.CreateICmpEQ(next, b_.getInt32(kEnded)),
                                b_.getInt32(std::numeric_limits<std::uint32_t>::max()), next);
  return {b_.CreateBinaryIntrinsic(llvm::Intrinsic::umin, c[0], next),
          b_.CreateBinaryIntrinsic(llvm::Intrinsic::umin, c[1], live),
          b_.CreateBinaryIntrinsic(llvm::Intrinsic::umax, c[2], next)};
}

Carried PassBuilder::row(Value* first, Value* end, const Carried& c_row, bool may_be_empty,
                         Value* y, Value* z) {
  return emit_range(
      b_, first, end, c_row, [&](Value* x, const Carried& c) { return fold(c, thread(x, y, z)); },
      new_loop_id(), may_be_empty);
}

/// The threads of row (y, z), over all_region_ or, where it has a guard, over its copies.
Carried PassBuilder::over_x(Value* y, Value* z, const Carried& c_y) {
  Value* first = over_live_ ? live_first_ : b_.getInt32(0);
  Value* end = over_live_ ? live_end_ : nx_;
  const auto split = splits_.find(all_region_);
  if (split == splits_.end()) {
    return row(first, end, c_y, over_live_, y, z);
  }
  // The threads below the split, then those above it, each over its copy of the region.
  Function* whole = all_region_;
  const ThreadGuard& guard = code_.guards.at(whole);
  Value* at = split->second;
  if (over_live_) {
    at = b_.CreateBinaryIntrinsic(llvm::Intrinsic::umax,
                                  b_.CreateBinaryIntrinsic(llvm::Intrinsic::umin, at, end), first);
  }
  all_region_ = guard.below;
  const Carried below = row(first, at, c_y, true, y, z);
  all_region_ = guard.above;
  const Carried above = row(at, end, below, true, y, z);
  all_region_ = whole;
  return above;
}

/// The loops over the block's threads, z outermost.
/// The states reached before any thread (as fold() carries them).
Carried PassBuilder::init_states() {
  return state_bits_
             ? Carried{llvm::ConstantInt::get(bits_, over_live_ ? std::uint64_t{1} << kEnded : 0)}
             : Carried{b_.getInt32(none_yet_),
                       b_.getInt32(std::numeric_limits<std::uint32_t>::max()), b_.getInt32(0)};
}

Carried PassBuilder::nest() {
  return emit_loop(b_, nz_, init_states(), [&](Value* z, const Carried& c_z) {
    return emit_loop(b_, ny_, c_z, [&](Value* y, const Carried& c_y) { return over_x(y, z, c_y); });
  });
}

/// The block's threads a warp at a time (emit_warps), each folded into the states.
Carried PassBuilder::nest_in_warps() {
  const WarpBlock block{pass_, nx_, ny_, nz_, threads_, accesses_};
  return emit_warps(b_, block, init_states(), [&](Value* x, Value* y, Value* z, const Carried& c) {
    return fold(c, thread(x, y, z));
  });
}

/// Whether every thread keeps, in each of the affine region's slots, the first thread's value
/// plus its index; the bases go to region_extra_.
Value* PassBuilder::all_kept_affine() {
  std::vector<Value*> slots;
  for (const std::size_t k : affine_->slots) {
    slots.push_back(slot_address(b_, frame_, threads_, b_.getInt64(0), layout_.slots[k]));
    region_extra_.push_back(b_.CreateLoad(i32_, slots.back(), "base"));
  }
  // No thread's base + index passes the largest int (asked once), so that each thread's
  // comparison can be made in 32 bits: twice the threads per vector.
  Value* fits = b_.getTrue();
  for (Value* base : region_extra_) {
    Value* last = b_.CreateAdd(b_.CreateSExt(base, i64_), b_.CreateSub(threads_, b_.getInt64(1)));
    fits = b_.CreateAnd(
        fits, b_.CreateICmpSLE(last, b_.getInt64(std::numeric_limits<std::int32_t>::max())));
  }
  const Carried all_affine = emit_loop(b_, threads_, {fits}, [&](Value* tid, const Carried& c) {
    Value* ok = c[0];
    for (std::size_t j = 0; j < slots.size(); ++j) {
      Value* kept = b_.CreateLoad(i32_, b_.CreateInBoundsGEP(i32_, slots[j], tid));
      ok = b_.CreateAnd(
          ok, b_.CreateICmpEQ(kept, b_.CreateAdd(region_extra_[j], b_.CreateTrunc(tid, i32_))));
    }
    return Carried{ok};
  });
  return all_affine[0];
}

/// Does every thread keep the first thread's value plus its index? Then the affine region.
Carried PassBuilder::affine_or_plain() {
  Value* all_affine = all_kept_affine();
  BasicBlock* affine_block = BasicBlock::Create(ctx_, "kjit.affine", pass_);
  BasicBlock* plain_block = BasicBlock::Create(ctx_, "kjit.plain", pass_);
  BasicBlock* join = BasicBlock::Create(ctx_, "kjit.pass.done", pass_);
  b_.CreateCondBr(all_affine, affine_block, plain_block);
  b_.SetInsertPoint(affine_block);
  all_region_ = affine_->region;
  const Carried out_affine = nest();
  BasicBlock* from_affine = b_.GetInsertBlock();
  b_.CreateBr(join);
  b_.SetInsertPoint(plain_block);
  all_region_ = code_.regions[r_];
  const Carried out_plain = nest();
  BasicBlock* from_plain = b_.GetInsertBlock();
  b_.CreateBr(join);
  b_.SetInsertPoint(join);
  return merge_carried(b_, out_affine, from_affine, out_plain, from_plain);
}

/// {min state, min state of threads that have not ended, max state} from the set of states
/// reached.
Carried PassBuilder::states_from_bits(Value* reached) {
  Value* live = b_.CreateAnd(reached, llvm::ConstantInt::get(bits_, ~(std::uint64_t{1} << kEnded)));
  const auto lowest = [&](Value* set) {
    return b_.CreateZExtOrTrunc(b_.CreateBinaryIntrinsic(llvm::Intrinsic::cttz, set, b_.getTrue()),
                                i32_);
  };
  Value* highest = b_.CreateSub(
      b_.getInt32(bits_->getBitWidth() - 1),
      b_.CreateZExtOrTrunc(b_.CreateBinaryIntrinsic(llvm::Intrinsic::ctlz, reached, b_.getTrue()),
                           i32_));
  return {lowest(reached),
          b_.CreateSelect(b_.CreateICmpEQ(live, llvm::ConstantInt::get(bits_, 0)),
                          b_.getInt32(std::numeric_limits<std::uint32_t>::max()), lowest(live)),
          highest};
}

/// Returns the states `out`, inlines the regions the pass runs over all threads, and readies the
/// pass for the optimiser.
void PassBuilder::finish(const Carried& out) {
  Value* packed = llvm::PoisonValue::get(result_);
  for (unsigned i = 0; i < 3; ++i) {
    packed = b_.CreateInsertValue(packed, out[i], i);
  }
  b_.CreateRet(packed);
  for (llvm::CallInst* call : inlined_) {
    llvm::InlineFunctionInfo info;
    if (!llvm::InlineFunction(*call, info).isSuccess()) {
      throw BackendError(fmt::format(
          "kjit: internal error: region of '{}' not inlined into its pass", f_.getName().str()));
    }
  }
  spaces_.restore_after_inlining(*pass_);
  hoist_invariant_loads(*pass_);
  // Only in the passes of a loop in step, which run once per iteration: measured elsewhere (the
  // first pass of a shuffle reduction with one element per thread), the flag kept LLVM from
  // vectorising the loop over threads.
  if (mode_ == PassMode::all && code_.through[r_] != nullptr) {
    sink_uniform_stores(*pass_, frame_);
  }
  if (accesses_ != nullptr) {
    for (Instruction& i : llvm::instructions(*pass_)) {
      const auto* call = llvm::dyn_cast<llvm::CallInst>(&i);
      // A shuffle of lanes in step touches no memory a thread sees, but LLVM counts it as an
      // access, as it does an operation run lane by lane (cpu_warp_lanes.hpp): in the group, or
      // the loop over lanes would not count as parallel.
      const bool shuffle = call != nullptr && call->getCalledFunction() != nullptr &&
                           is_lane_call(call->getCalledFunction()->getName());
      if ((llvm::isa<llvm::LoadInst, llvm::StoreInst>(i) && !i.isAtomic()) || shuffle) {
        i.setMetadata(llvm::LLVMContext::MD_access_group, accesses_);
      }
    }
  }
  if (mode_ == PassMode::all) {
    version_pass(*pass_, xs_, nx_);
  }
}

}  // namespace

Function* function_like(Function& f, llvm::FunctionType* type,
                        llvm::GlobalValue::LinkageTypes linkage, const std::string& name) {
  Function* g = Function::Create(type, linkage, name, f.getParent());
  g->setAttributes(
      llvm::AttributeList::get(f.getContext(), llvm::AttributeList::FunctionIndex,
                               llvm::AttrBuilder(f.getContext(), f.getAttributes().getFnAttrs())));
  return g;
}

Function* make_pass(Function& f, const Regions& code, unsigned r, PassMode mode,
                    const FrameLayout& layout, const MemorySpaces& spaces, bool over_live) {
  return PassBuilder(f, code, r, mode, layout, spaces, over_live).build();
}

}  // namespace kjit::cpu::barrier_split
