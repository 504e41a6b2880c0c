#include "backends/cpu/lower/cpu_loop_stops.hpp"

#include "backends/cpu/lower/cpu_loop_analyses.hpp"
#include "backends/cpu/lower/cpu_prefetch.hpp"

#include <llvm/Analysis/AssumptionCache.h>
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/ScalarEvolution.h>
#include <llvm/Analysis/ScalarEvolutionExpressions.h>
#include <llvm/Analysis/ValueTracking.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>
#include <llvm/Transforms/Utils/BasicBlockUtils.h>
#include <llvm/Transforms/Utils/LCSSA.h>
#include <llvm/Transforms/Utils/LoopPeel.h>
#include <llvm/Transforms/Utils/LoopSimplify.h>
#include <llvm/Transforms/Utils/LoopUtils.h>
#include <llvm/Transforms/Utils/UnrollLoop.h>

#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <set>
#include <vector>

namespace kjit::cpu {

namespace {

// A loop of at most this many iterations is left whole: LLVM unrolls it.
constexpr unsigned kShortLoop = 32;
// Loops in step of at most this many blocks and instructions run this many iterations per pass.
// RAJAPerf's REDUCE_SUM, grid-stride, with its data in cache: 0.15 ms a launch with one, 0.12
// with two, 0.10 with four, no faster with eight.
constexpr unsigned kIterationsPerPass = 4;
constexpr unsigned kUnrolledBlocks = 4;
constexpr std::size_t kUnrolledInstructions = 48;

std::size_t size_of(const llvm::Loop& loop) {
  std::size_t n = 0;
  for (const llvm::BasicBlock* b : loop.blocks()) {
    n += b->size();
  }
  return n;
}

/// At most how many times `loop`'s header runs, as a fixed-size array of the thread's own tells:
/// an access on every iteration to an array of N bytes (an alloca: wsm5's `float t[MKX]`) whose
/// address moves by S bytes an iteration stays inside the array, else the kernel is undefined;
/// so the header runs at most (N - size) / |S| + 2 times (the last one may leave before the
/// access). Level loops over a column (`for (k = kps - 1; k <= kpe - 1; ++k) t[k] = ...`) then
/// count as short although their bounds are run-time values. 0: no such array.
unsigned trips_within_arrays(llvm::ScalarEvolution& se, const llvm::DominatorTree& dt,
                             const llvm::Loop& loop) {
  const llvm::DataLayout& dl = loop.getHeader()->getModule()->getDataLayout();
  std::uint64_t best = 0;
  for (llvm::BasicBlock* b : loop.blocks()) {
    if (!dt.dominates(b, loop.getLoopLatch())) {
      continue;
    }
    for (llvm::Instruction& i : *b) {
      const auto* pointer = llvm::getLoadStorePointerOperand(&i);
      const auto* array = pointer != nullptr
                              ? llvm::dyn_cast<llvm::AllocaInst>(llvm::getUnderlyingObject(pointer))
                              : nullptr;
      const std::optional<llvm::TypeSize> bytes =
          array != nullptr ? array->getAllocationSize(dl) : std::nullopt;
      if (!bytes || bytes->isScalable()) {
        continue;
      }
      const auto* rec = llvm::dyn_cast<llvm::SCEVAddRecExpr>(se.getSCEV(
          const_cast<llvm::Value*>(pointer)));  // NOLINT(cppcoreguidelines-pro-type-const-cast)
      const auto* step = rec != nullptr && rec->getLoop() == &loop && rec->isAffine()
                             ? llvm::dyn_cast<llvm::SCEVConstant>(rec->getStepRecurrence(se))
                             : nullptr;
      const std::uint64_t size = dl.getTypeStoreSize(accessed_type(i)).getFixedValue();
      if (step == nullptr || step->getAPInt().isZero() || bytes->getFixedValue() < size) {
        continue;
      }
      const std::uint64_t trips =
          (bytes->getFixedValue() - size) / step->getAPInt().abs().getZExtValue() + 2;
      best = best == 0 ? trips : std::min(best, trips);
    }
  }
  return best > std::numeric_limits<unsigned>::max() ? 0 : static_cast<unsigned>(best);
}

/// Whether `address` takes the same values on every iteration of `loop` although it is not
/// invariant there: it varies only with loops inside `loop`, whose walks start again where they
/// started (wsm5's short loops over a column's levels, inside its long sedimentation loop). In
/// step, each iteration would be a pass that streams nothing in; the inner loop's own stop, if
/// it has one, serves its walk.
bool revisited(llvm::ScalarEvolution& se, const llvm::SCEV* address, const llvm::Loop& loop) {
  return !llvm::SCEVExprContains(address, [&](const llvm::SCEV* s) {
    if (const auto* rec = llvm::dyn_cast<llvm::SCEVAddRecExpr>(s)) {
      return !loop.contains(rec->getLoop()) || rec->getLoop() == &loop;
    }
    if (const auto* unknown = llvm::dyn_cast<llvm::SCEVUnknown>(s)) {
      return !se.isLoopInvariant(unknown, &loop);
    }
    return false;
  });
}

/// Whether `pointer`, accessed with `bytes` per access, moves in `loop` other than by one
/// element per iteration (a stride of the grid, a column of a matrix, an unknown pattern).
bool strided(llvm::ScalarEvolution& se, const llvm::Loop& loop, const llvm::Value* pointer,
             std::uint64_t bytes) {
  auto* p = const_cast<llvm::Value*>(pointer);  // NOLINT(cppcoreguidelines-pro-type-const-cast)
  const llvm::SCEV* address = se.getSCEV(p);
  if (se.isLoopInvariant(address, &loop) || revisited(se, address, loop)) {
    return false;
  }
  // As the vectoriser sees it: an index in unsigned or narrow arithmetic counts as advancing
  // by its step, which the vectoriser checks at run time does not wrap.
  llvm::PredicatedScalarEvolution pse(se, const_cast<llvm::Loop&>(loop));  // NOLINT
  const llvm::SCEVAddRecExpr* rec = pse.getAsAddRec(p);
  if (rec == nullptr || rec->getLoop() != &loop || !rec->isAffine()) {
    return true;
  }
  const auto* step = llvm::dyn_cast<llvm::SCEVConstant>(rec->getStepRecurrence(se));
  return step == nullptr || step->getAPInt().abs() != bytes;
}

/// Whether `loop` should run in step; if so, `strided_accesses` gets its loads and stores that
/// run on every iteration and move other than by one element per iteration.
bool wants_stop(llvm::ScalarEvolution& se, const llvm::DominatorTree& dt, const llvm::Loop& loop,
                const std::vector<const llvm::Function*>& waits,
                std::vector<llvm::Instruction*>& strided_accesses) {
  strided_accesses.clear();
  if (loop.getLoopLatch() == nullptr) {
    return false;
  }
  for (const unsigned max_trips :
       {se.getSmallConstantMaxTripCount(&loop), trips_within_arrays(se, dt, loop)}) {
    if (max_trips != 0 && max_trips <= kShortLoop) {
      return false;
    }
  }
  const llvm::DataLayout& dl = loop.getHeader()->getModule()->getDataLayout();
  bool touches_strided = false;
  for (llvm::BasicBlock* b : loop.blocks()) {
    const bool every_iteration = dt.dominates(b, loop.getLoopLatch());
    for (llvm::Instruction& i : *b) {
      if (const auto* call = llvm::dyn_cast<llvm::CallBase>(&i);
          call != nullptr && llvm::is_contained(waits, call->getCalledFunction())) {
        return false;  // a barrier already cuts this loop
      }
      const llvm::Value* pointer = accessed_pointer(i);
      llvm::Type* type = accessed_type(i);
      if (pointer == nullptr || !type->isSized() ||
          !strided(se, loop, pointer, dl.getTypeStoreSize(type).getFixedValue())) {
        continue;
      }
      touches_strided = true;
      if (every_iteration && (llvm::isa<llvm::LoadInst>(i) || llvm::isa<llvm::StoreInst>(i))) {
        strided_accesses.push_back(&i);
      }
    }
  }
  return touches_strided;
}

/// Makes each innermost loop of `f` that will run in step, of an unknown number of iterations
/// and a small body, run kIterationsPerPass iterations per pass: its first iteration peeled off
/// (a thread that runs the loop once, as a grid-stride loop over a grid as large as its data
/// does, still costs no pass), the rest unrolled that many times, each copy keeping its exit
/// test. What a pass costs besides the iterations (each thread's values through the frame, its
/// state, the check of kept indices) is then paid once for all of them. The loop holds no
/// barrier, so the order in which threads run its iterations is free. Returns the headers of
/// the loops it unrolled: mark_loop_stops puts a second stop on their way in from the peeled
/// iteration, so that the region a block starts with holds one copy of the body, not four (a
/// stop at the top of the header instead kept each thread's values at a store that only the
/// threads going on make, which LLVM vectorised as a scatter: one element per thread, 13 ms
/// against 20).
std::set<const llvm::BasicBlock*> unroll_for_passes(
    llvm::Function& f, const std::vector<const llvm::Function*>& waits) {
  LoopAnalyses a(f);
  llvm::DominatorTree& dt = a.dt;
  llvm::LoopInfo& loops = a.loops;
  llvm::AssumptionCache& ac = a.ac;
  llvm::ScalarEvolution& se = a.se;
  std::vector<llvm::Instruction*> strided_accesses;
  std::vector<llvm::Loop*> chosen;
  for (llvm::Loop* loop : loops.getLoopsInPreorder()) {
    if (loop->isInnermost() && se.getSmallConstantMaxTripCount(loop) == 0 &&
        loop->getNumBlocks() <= kUnrolledBlocks && size_of(*loop) <= kUnrolledInstructions &&
        wants_stop(se, dt, *loop, waits, strided_accesses)) {
      chosen.push_back(loop);
    }
  }
  std::set<const llvm::BasicBlock*> unrolled;
  for (llvm::Loop* loop : chosen) {
    llvm::simplifyLoop(loop, &dt, &loops, &se, &ac, nullptr, false);
    llvm::formLCSSA(*loop, dt, &loops, &se);
    if (!llvm::canPeel(loop)) {
      continue;
    }
    llvm::ValueToValueMapTy peeled;
    if (!llvm::peelLoop(loop, 1, &loops, &se, dt, &ac, true, peeled)) {
      continue;
    }
    llvm::simplifyLoop(loop, &dt, &loops, &se, &ac, nullptr, false);
    const llvm::UnrollLoopOptions options{.Count = kIterationsPerPass,
                                          .Force = true,
                                          .Runtime = false,
                                          .AllowExpensiveTripCount = false,
                                          .UnrollRemainder = false,
                                          .ForgetAllSCEV = true};
    if (llvm::UnrollLoop(loop, options, &loops, &se, &dt, &ac, nullptr, nullptr, true) !=
        llvm::LoopUnrollResult::Unmodified) {
      unrolled.insert(loop->getHeader());
    }
  }
  return unrolled;
}

}  // namespace

const llvm::Value* accessed_pointer(const llvm::Instruction& i) {
  if (const auto* rmw = llvm::dyn_cast<llvm::AtomicRMWInst>(&i)) {
    return rmw->getPointerOperand();
  }
  if (const auto* cas = llvm::dyn_cast<llvm::AtomicCmpXchgInst>(&i)) {
    return cas->getPointerOperand();
  }
  return llvm::getLoadStorePointerOperand(&i);
}

llvm::Type* accessed_type(const llvm::Instruction& i) {
  if (const auto* store = llvm::dyn_cast<llvm::StoreInst>(&i)) {
    return store->getValueOperand()->getType();
  }
  if (const auto* cas = llvm::dyn_cast<llvm::AtomicCmpXchgInst>(&i)) {
    return cas->getCompareOperand()->getType();
  }
  return accessed_pointer(i) != nullptr ? i.getType() : nullptr;
}

unsigned mark_loop_stops(llvm::Function& f, const std::vector<const llvm::Function*>& waits,
                         llvm::Function* stop) {
  const std::set<const llvm::BasicBlock*> unrolled =
      stop != nullptr ? unroll_for_passes(f, waits) : std::set<const llvm::BasicBlock*>{};
  LoopAnalyses a(f);
  const llvm::DominatorTree& dt = a.dt;
  llvm::ScalarEvolution& se = a.se;
  struct Stopped {
    llvm::BasicBlock* latch;
    llvm::BasicBlock* header;
    llvm::BasicBlock* preheader;  // the way in from a peeled iteration (unroll_for_passes); or null
  };
  std::vector<Stopped> back_edges;
  std::vector<llvm::Instruction*> strided_accesses;
  for (llvm::Loop* loop : a.loops.getLoopsInPreorder()) {
    if (wants_stop(se, dt, *loop, waits, strided_accesses)) {
      back_edges.push_back(
          {loop->getLoopLatch(), loop->getHeader(),
           unrolled.count(loop->getHeader()) != 0 ? loop->getLoopPreheader() : nullptr});
      if (stop != nullptr) {
        prefetch_next_iteration(se, *loop, strided_accesses);
      }
    }
  }
  if (stop != nullptr) {
    for (auto [latch, header, preheader] : back_edges) {
      if (preheader != nullptr) {  // and on the way in from the peeled iteration
        llvm::BasicBlock* way_in = llvm::SplitEdge(preheader, header);
        llvm::CallInst::Create(stop->getFunctionType(), stop, {}, "", way_in->getTerminator());
      }
      llvm::BasicBlock* edge = llvm::SplitEdge(latch, header);
      llvm::CallInst::Create(stop->getFunctionType(), stop, {}, "", edge->getTerminator());
    }
  }
  return static_cast<unsigned>(back_edges.size());
}

}  // namespace kjit::cpu
