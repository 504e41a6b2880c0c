// Warp shuffles, votes and reductions whose lanes run in step (cpu_prelude_warp.h's
// __kjit_warp_in_step). Where every lane of every warp of a block reaches a shuffle together (no
// branch that may differ between the threads leads to it, and the threads come to it from one
// barrier, or from a barrier placed before it), the shuffle is no wait: it stays in the region
// around it, and the pass over all threads that runs that region takes each warp's 32 lanes as the
// lanes of one vector (cpu_block_passes.cpp), where the shuffle's vector form, defined here, is a
// permute. Elsewhere, and where the region holds what LLVM cannot vectorise, the lanes meet through
// the warp area as before (cpu_warp_meetings_lowering.cpp).
#include "backends/cpu/lower/cpu_warp_lanes.hpp"

#include "backends/cpu/lower/cpu_barrier_regions_internal.hpp"

#include "backends/cpu/prelude/cpu_abi.h"
#include "backends/cpu/run/cpu_runtime_symbols.hpp"
#include "backends/llvm/llvm_setup.hpp"
#include "support/logging.hpp"

#include <llvm/ADT/PostOrderIterator.h>
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/VectorUtils.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/PassManager.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Transforms/InstCombine/InstCombine.h>
#include <llvm/Transforms/Scalar/SimplifyCFG.h>
#include <llvm/Transforms/Utils/Cloning.h>
#include <llvm/Transforms/Utils/Local.h>
#include <llvm/Transforms/Utils/LoopUtils.h>
#include <llvm/Transforms/Utils/ModuleUtils.h>

#include <fmt/format.h>

#include <array>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace kjit::cpu {

namespace {

using llvm::BasicBlock;
using llvm::CallInst;
using llvm::Function;
using llvm::Instruction;
using llvm::Value;

std::vector<CallInst*> calls_of(Function& f, std::string_view symbol) {
  std::vector<CallInst*> out;
  const Function* callee = f.getParent()->getFunction(symbol);
  if (callee == nullptr) {
    return out;
  }
  for (Instruction& i : llvm::instructions(f)) {
    if (auto* call = llvm::dyn_cast<CallInst>(&i);
        call != nullptr && call->getCalledFunction() == callee) {
      out.push_back(call);
    }
  }
  return out;
}

/// Replaces each marker's call with `in_step`'s answer and drops the code no thread can reach.
void resolve(Function& f, const std::vector<CallInst*>& markers,
             const std::set<CallInst*>& in_step) {
  auto* i1 = llvm::Type::getInt1Ty(f.getContext());
  for (CallInst* marker : markers) {
    marker->replaceAllUsesWith(llvm::ConstantInt::get(i1, in_step.count(marker) != 0 ? 1 : 0));
    marker->eraseFromParent();
  }
  for (BasicBlock& b : f) {
    llvm::ConstantFoldTerminator(&b, /*DeleteDeadConditions=*/true);
  }
  llvm::removeUnreachableBlocks(f);
}

/// The waits a thread stops at in `f`: __syncthreads(), warp meetings and loop stops.
bool is_wait(const Instruction& i, const std::vector<Function*>& waits) {
  const auto* call = llvm::dyn_cast<CallInst>(&i);
  return call != nullptr && llvm::is_contained(waits, call->getCalledFunction());
}

/// What runs lane by lane in a loop over a warp's lanes (lane_by_lane): atomics, volatile
/// accesses, and calls of functions that are not intrinsics LLVM vectorises (not those that take
/// a variable number of arguments).
bool runs_lane_by_lane(const Instruction& i, const std::vector<Function*>& waits) {
  // Its vector form takes and gives vectors of its values: each must be a vector's element (not
  // the {value, success} of a compare-exchange, not a vector itself).
  const auto element = [](const llvm::Type* t) {
    return t->isVoidTy() || llvm::VectorType::isValidElementType(const_cast<llvm::Type*>(t));
  };
  if (!element(i.getType()) || llvm::any_of(i.operands(), [&](const llvm::Use& u) {
        return !llvm::isa<BasicBlock, Function>(u.get()) && !element(u->getType());
      })) {
    return false;
  }
  if (llvm::isa<llvm::AtomicRMWInst>(i)) {
    return true;
  }
  if (const auto* load = llvm::dyn_cast<llvm::LoadInst>(&i)) {
    return load->isVolatile() && !load->isAtomic();
  }
  if (const auto* store = llvm::dyn_cast<llvm::StoreInst>(&i)) {
    return store->isVolatile() && !store->isAtomic();
  }
  const auto* call = llvm::dyn_cast<CallInst>(&i);
  if (call == nullptr || is_wait(i, waits)) {
    return false;
  }
  const Function* callee = call->getCalledFunction();
  if (callee == nullptr || callee->isVarArg() || callee->isIntrinsic() ||
      is_lane_exchange(callee->getName()) ||
      callee->getName() == llvm::StringRef(kWarpInStepSymbol)) {
    return false;
  }
  return true;
}

/// What LLVM's loop vectoriser cannot take in a loop over a warp's lanes, even lane by lane:
/// fences, other atomics, calls through pointers or of variadic functions, intrinsics it does not
/// vectorise, loops, and code that never returns. Such a region keeps its lanes meeting through
/// memory.
bool vectorisable(const BasicBlock& b, const std::vector<Function*>& waits,
                  const llvm::LoopInfo& loops) {
  // (A switch is fine: the pipeline lowers switches to branches before vectorising,
  // cpu_range_checks.cpp.)
  if (loops.getLoopFor(&b) != nullptr || llvm::isa<llvm::UnreachableInst>(b.getTerminator())) {
    return false;
  }
  for (const Instruction& i : b) {
    if (runs_lane_by_lane(i, waits)) {
      continue;
    }
    if (llvm::isa<llvm::FenceInst, llvm::AtomicRMWInst, llvm::AtomicCmpXchgInst>(i)) {
      return false;
    }
    if (const auto* load = llvm::dyn_cast<llvm::LoadInst>(&i);
        load != nullptr && !load->isSimple()) {
      return false;
    }
    if (const auto* store = llvm::dyn_cast<llvm::StoreInst>(&i);
        store != nullptr && !store->isSimple()) {
      return false;
    }
    const auto* call = llvm::dyn_cast<CallInst>(&i);
    if (call == nullptr || is_wait(i, waits)) {
      continue;
    }
    const Function* callee = call->getCalledFunction();
    if (callee == nullptr) {
      return false;
    }
    if (is_lane_exchange(callee->getName()) ||
        callee->getName() == llvm::StringRef(kWarpInStepSymbol)) {
      continue;
    }
    const llvm::Intrinsic::ID id = callee->getIntrinsicID();
    if (id == llvm::Intrinsic::not_intrinsic) {
      return false;
    }
    if (!llvm::isTriviallyVectorizable(id) && id != llvm::Intrinsic::lifetime_start &&
        id != llvm::Intrinsic::lifetime_end && id != llvm::Intrinsic::assume &&
        id != llvm::Intrinsic::prefetch && !llvm::isa<llvm::DbgInfoIntrinsic>(call)) {
      return false;
    }
  }
  return true;
}

/// The walks of trace(), with every candidate's marker taken as true: its branch goes on into the
/// shuffle's vector form only, its meeting through memory is never reached.
class InStepWalks {
 public:
  InStepWalks(Function& f, const std::set<CallInst*>& candidates) : candidates_(candidates) {
    std::vector<BasicBlock*> work{&f.getEntryBlock()};
    live_.insert(&f.getEntryBlock());
    while (!work.empty()) {
      BasicBlock* b = work.back();
      work.pop_back();
      for (BasicBlock* next : successors(b)) {
        if (live_.insert(next).second) {
          work.push_back(next);
        }
      }
    }
  }

  /// The successors a thread can take from `b`.
  std::vector<BasicBlock*> successors(BasicBlock* b) const {
    const auto* br = llvm::dyn_cast<llvm::BranchInst>(b->getTerminator());
    if (br != nullptr && br->isConditional()) {
      const auto* marker = llvm::dyn_cast<CallInst>(br->getCondition());
      if (marker != nullptr && candidates_.count(const_cast<CallInst*>(marker)) != 0) {
        return {br->getSuccessor(0)};
      }
    }
    return {llvm::succ_begin(b), llvm::succ_end(b)};
  }

  /// The predecessors a thread can come to `b` from.
  std::vector<BasicBlock*> predecessors(BasicBlock* b) const {
    std::vector<BasicBlock*> out;
    for (BasicBlock* pred : llvm::predecessors(b)) {
      if (live_.count(pred) != 0 && llvm::is_contained(successors(pred), b) &&
          !llvm::is_contained(out, pred)) {
        out.push_back(pred);
      }
    }
    return out;
  }

 private:
  const std::set<CallInst*>& candidates_;
  std::set<BasicBlock*> live_;
};

/// Of the shuffles `candidates` (their markers), taken all in step: those whose threads come
/// from a __syncthreads() that no branch differing between them leads to, or from the entry
/// (`ready`), and those whose threads come from another wait (a warp meeting, a loop stop) or
/// from a region that does not vectorise, and need a barrier placed to start their own
/// (`need_barrier`): right before them where every thread reaches them, else before the branch
/// that differs between threads on the way there, where every thread comes once (the first
/// warp's steps after a loop with barriers, `if (t < 32)`); either only if nothing in their
/// region (from where it starts to the next waits) keeps LLVM from vectorising it. The others
/// are not in the result.
struct Origins {
  std::set<CallInst*> ready;
  std::set<CallInst*> need_barrier;
  std::map<CallInst*, Instruction*> barrier_at;        // where each of need_barrier's goes before
  std::set<Instruction*> barriers;                     // every barrier_at
  std::map<CallInst*, std::set<BasicBlock*>> regions;  // the blocks of each one's region
};

/// Where the threads of shuffle `marker` come from: back to the wait before it on every way
/// there. Whether that is, on every way, a __syncthreads() that no branch differing between
/// threads leads to, the entry, or an instruction in `barriers_before` (a barrier goes before
/// it); and the first instruction of the region from each.
struct Start {
  bool from_barrier = true;
  std::vector<Instruction*> at;
};

Start start_of(Function& f, CallInst* marker, const InStepWalks& walks,
               const std::vector<Function*>& waits, const Function& barrier,
               const barrier_split::Divergence& divergence,
               const std::set<Instruction*>& barriers_before) {
  Start out;
  std::set<BasicBlock*> seen{marker->getParent()};
  // Each block with the last of its instructions to look at, backwards.
  std::vector<std::pair<BasicBlock*, Instruction*>> work{
      {marker->getParent(), marker->getPrevNode()}};
  while (!work.empty() && out.from_barrier) {
    auto [block, last] = work.back();
    work.pop_back();
    Instruction* wait = nullptr;
    for (Instruction* i = last; i != nullptr && wait == nullptr; i = i->getPrevNode()) {
      wait = is_wait(*i, waits) || barriers_before.count(i) != 0 ? i : nullptr;
    }
    if (wait != nullptr && barriers_before.count(wait) != 0) {
      out.at.push_back(wait);  // its barrier starts the region
      continue;
    }
    if (wait != nullptr) {
      out.from_barrier = llvm::cast<CallInst>(wait)->getCalledFunction() == &barrier &&
                         divergence.blocks.count(block) == 0;
      out.at.push_back(wait->getNextNode());
      continue;
    }
    if (block == &f.getEntryBlock()) {
      out.at.push_back(&block->front());
    }
    for (BasicBlock* pred : walks.predecessors(block)) {
      if (seen.insert(pred).second) {
        work.emplace_back(pred, pred->getTerminator());  // a barrier may go before it
      }
    }
  }
  return out;
}

/// The blocks of the region from `from` on to the next waits, if every one vectorises.
std::optional<std::set<BasicBlock*>> vectorising_region(const std::vector<Instruction*>& from,
                                                        const InStepWalks& walks,
                                                        const std::vector<Function*>& waits,
                                                        const llvm::LoopInfo& loops) {
  std::set<BasicBlock*> region;
  std::vector<Instruction*> next(from.begin(), from.end());
  while (!next.empty()) {
    Instruction* first = next.back();
    next.pop_back();
    BasicBlock* block = first->getParent();
    region.insert(block);
    if (!vectorisable(*block, waits, loops)) {
      return std::nullopt;
    }
    bool ends = false;
    for (Instruction* i = first; i != nullptr && !ends; i = i->getNextNode()) {
      ends = is_wait(*i, waits);
    }
    if (ends) {
      continue;
    }
    for (BasicBlock* succ : walks.successors(block)) {
      if (region.insert(succ).second) {
        next.push_back(&succ->front());
      }
    }
  }
  return region;
}

/// Where a barrier for shuffle `marker` can go, so that every thread of the block comes to it
/// once: right before the shuffle, or before the branch that differs between threads on the way
/// to it (its block's nearest dominator that every thread runs, outside loops). Null if nowhere.
Instruction* barrier_point(CallInst* marker, const barrier_split::Divergence& divergence,
                           const llvm::DominatorTree& dt, const llvm::LoopInfo& loops) {
  if (divergence.blocks.count(marker->getParent()) == 0) {
    return marker;
  }
  for (const llvm::DomTreeNode* node = dt.getNode(marker->getParent()); node != nullptr;
       node = node->getIDom()) {
    BasicBlock* b = node->getBlock();
    if (divergence.blocks.count(b) == 0 && loops.getLoopFor(b) == nullptr) {
      return b->getTerminator();
    }
  }
  return nullptr;
}

Origins trace(Function& f, const std::set<CallInst*>& candidates,
              const std::vector<Function*>& waits, const Function& barrier,
              const barrier_split::Divergence& divergence, const llvm::DominatorTree& dt,
              const llvm::LoopInfo& loops) {
  const InStepWalks walks(f, candidates);
  Origins out;
  // In the order the threads reach them: an earlier shuffle with a barrier before it starts the
  // region of those that follow it.
  std::vector<CallInst*> ordered;
  for (BasicBlock* b : llvm::ReversePostOrderTraversal<Function*>(&f)) {
    for (Instruction& i : *b) {
      if (auto* call = llvm::dyn_cast<CallInst>(&i);
          call != nullptr && candidates.count(call) != 0) {
        ordered.push_back(call);
      }
    }
  }
  for (CallInst* marker : ordered) {
    const Start start = start_of(f, marker, walks, waits, barrier, divergence, out.barriers);
    // Where the region from where the threads come does not vectorise, a barrier on the way to
    // the shuffle may start one that does (the loop before a warp's reduction stays out of it);
    // a barrier goes only where every thread of the block comes, and where every way from it to
    // the shuffle is free of waits.
    if (start.from_barrier) {
      if (auto region = vectorising_region(start.at, walks, waits, loops)) {
        out.ready.insert(marker);
        out.regions[marker] = std::move(*region);
        continue;
      }
    }
    Instruction* at = barrier_point(marker, divergence, dt, loops);
    if (at == nullptr) {
      continue;
    }
    if (at != marker) {
      std::set<Instruction*> with = out.barriers;
      with.insert(at);
      const Start from_there = start_of(f, marker, walks, waits, barrier, divergence, with);
      if (!from_there.from_barrier ||
          llvm::any_of(from_there.at, [&](const Instruction* i) { return i != at; })) {
        continue;
      }
    }
    if (auto region = vectorising_region({at}, walks, waits, loops)) {
      out.need_barrier.insert(marker);
      out.barrier_at[marker] = at;
      out.barriers.insert(at);
      out.regions[marker] = std::move(*region);
    }
  }
  return out;
}

bool full_mask(const CallInst* marker) {
  const auto* mask = llvm::dyn_cast<llvm::ConstantInt>(marker->getArgOperand(0));
  return mask != nullptr && mask->getZExtValue() == 0xffffffffU;
}

/// A shuffle in a loop of known trip count (`for (offset = 16; offset > 0; offset /= 2)`): each
/// of its copies can run in step once the loop is unrolled. Returns the markers after.
std::vector<CallInst*> unroll_shuffle_loops(Function& f, const std::vector<CallInst*>& markers) {
  const llvm::DominatorTree dt(f);
  const llvm::LoopInfo loops(dt);
  bool unroll = false;
  for (CallInst* marker : markers) {
    llvm::Loop* loop = loops.getLoopFor(marker->getParent());
    if (loop != nullptr && full_mask(marker)) {  // the loop around it, not those around that
      llvm::addStringMetadataToLoop(loop, "llvm.loop.unroll.full");  // as `#pragma unroll`
      unroll = true;
    }
  }
  if (!unroll) {
    return markers;
  }
  llvm_setup::run_function_passes(f, "loop(loop-unroll-full),simplifycfg");
  return calls_of(f, kWarpInStepSymbol);
}

/// In the blocks of regions of lanes in step: what cannot be vectorised runs lane by lane, and
/// prefetches (hints the vectoriser takes none of) go.
void run_lane_by_lane(Function& f, const std::set<BasicBlock*>& blocks,
                      const std::vector<Function*>& waits) {
  std::vector<Instruction*> alone;
  std::vector<Instruction*> hints;
  for (BasicBlock& b : f) {
    if (blocks.count(&b) == 0) {
      continue;
    }
    for (Instruction& i : b) {
      const auto* call = llvm::dyn_cast<CallInst>(&i);
      if (runs_lane_by_lane(i, waits)) {
        alone.push_back(&i);
      } else if (call != nullptr && call->getIntrinsicID() == llvm::Intrinsic::prefetch) {
        hints.push_back(&i);
      }
    }
  }
  for (Instruction* i : hints) {
    i->eraseFromParent();
  }
  for (Instruction* i : alone) {
    lane_by_lane(*i);
  }
}

}  // namespace

namespace barrier_split {

unsigned put_lanes_in_step(Function& f, Function& barrier, const std::vector<Function*>& waits,
                           bool allowed) {
  std::vector<CallInst*> markers = calls_of(f, kWarpInStepSymbol);
  if (markers.empty()) {
    return 0;
  }
  if (!allowed || llvm::none_of(markers, full_mask)) {
    resolve(f, markers, {});
    return 0;
  }
  markers = unroll_shuffle_loops(f, markers);
  if (markers.empty()) {  // (a loop whose body never runs)
    return 0;
  }
  // Each marker is the same in every thread (the answer is per call site): not a branch that
  // differs between threads, to the divergence analysis. It goes before anything else runs.
  Function* in_step_fn = markers.front()->getCalledFunction();
  in_step_fn->setDoesNotAccessMemory();
  in_step_fn->setSpeculatable();
  in_step_fn->setWillReturn();
  in_step_fn->setDoesNotThrow();
  Rematerialiser(f).mark_invariant_loads(f);
  const Divergence divergence = divergence_of(f);
  const llvm::DominatorTree dt(f);
  const llvm::LoopInfo loops(dt);
  // Full masks outside loops. Under a branch that differs between threads (the first warp's
  // last steps, `if (t < 32)`) as well: a full mask says that the warp's 32 lanes all take it, so
  // the lanes that do not are whole warps, masked off in the vectors.
  std::set<CallInst*> in_step;
  for (CallInst* marker : markers) {
    if (full_mask(marker) && loops.getLoopFor(marker->getParent()) == nullptr) {
      in_step.insert(marker);
    }
  }
  // Those whose region does not vectorise meet through memory: their meetings are waits, which
  // only make the others' regions smaller; again until none is dropped.
  Origins origins;
  for (;;) {
    origins = trace(f, in_step, waits, barrier, divergence, dt, loops);
    if (origins.ready.size() + origins.need_barrier.size() == in_step.size()) {
      break;
    }
    in_step = origins.ready;
    in_step.insert(origins.need_barrier.begin(), origins.need_barrier.end());
  }
  for (Instruction* at : origins.barriers) {
    llvm::CallInst::Create(&barrier,
                           {llvm::PoisonValue::get(barrier.getFunctionType()->getParamType(0))}, "",
                           at->getIterator());
  }
  // What runs lane by lane in the regions of lanes in step (the wait that starts a region,
  // a region's last block after its wait, are no part of it).
  std::set<BasicBlock*> lanes_regions;
  for (CallInst* m : in_step) {
    lanes_regions.insert(origins.regions[m].begin(), origins.regions[m].end());
  }
  resolve(f, markers, in_step);
  run_lane_by_lane(f, lanes_regions, waits);
  detail::log().debug(
      "kjit: {} of the {} warp-level operations of '{}' run with a warp's lanes in step "
      "({} after a barrier placed for them)",
      in_step.size(), markers.size(), f.getName().str(), origins.need_barrier.size());
  return static_cast<unsigned>(in_step.size());
}

}  // namespace barrier_split

}  // namespace kjit::cpu
