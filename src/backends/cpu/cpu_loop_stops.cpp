#include "backends/cpu/cpu_loop_stops.hpp"

#include "backends/cpu/cpu_prefetch.hpp"

#include <llvm/Analysis/AssumptionCache.h>
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/ScalarEvolution.h>
#include <llvm/Analysis/ScalarEvolutionExpressions.h>
#include <llvm/Analysis/TargetLibraryInfo.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>
#include <llvm/TargetParser/Triple.h>
#include <llvm/Transforms/Utils/BasicBlockUtils.h>

#include <cstdint>
#include <utility>
#include <vector>

namespace kjit::cpu {

namespace {

// A loop of at most this many iterations is left whole: LLVM unrolls it.
constexpr unsigned kShortLoop = 32;

/// Whether `pointer`, accessed with `bytes` per access, moves in `loop` other than by one
/// element per iteration (a stride of the grid, a column of a matrix, an unknown pattern).
bool strided(llvm::ScalarEvolution& se, const llvm::Loop& loop, const llvm::Value* pointer,
             std::uint64_t bytes) {
  auto* p = const_cast<llvm::Value*>(pointer);  // NOLINT(cppcoreguidelines-pro-type-const-cast)
  if (se.isLoopInvariant(se.getSCEV(p), &loop)) {
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
  const unsigned max_trips = se.getSmallConstantMaxTripCount(&loop);
  if (max_trips != 0 && max_trips <= kShortLoop) {
    return false;
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
  llvm::DominatorTree dt(f);
  llvm::LoopInfo loops(dt);
  llvm::TargetLibraryInfoImpl library(llvm::Triple(f.getParent()->getTargetTriple()));
  llvm::TargetLibraryInfo tli(library, &f);
  llvm::AssumptionCache ac(f);
  llvm::ScalarEvolution se(f, tli, ac, dt, loops);
  std::vector<std::pair<llvm::BasicBlock*, llvm::BasicBlock*>> back_edges;
  std::vector<llvm::Instruction*> strided_accesses;
  for (llvm::Loop* loop : loops.getLoopsInPreorder()) {
    if (wants_stop(se, dt, *loop, waits, strided_accesses)) {
      back_edges.emplace_back(loop->getLoopLatch(), loop->getHeader());
      if (stop != nullptr) {
        prefetch_next_iteration(se, *loop, strided_accesses);
      }
    }
  }
  if (stop != nullptr) {
    for (auto [latch, header] : back_edges) {
      llvm::BasicBlock* edge = llvm::SplitEdge(latch, header);
      llvm::CallInst::Create(stop->getFunctionType(), stop, {}, "", edge->getTerminator());
    }
  }
  return static_cast<unsigned>(back_edges.size());
}

}  // namespace kjit::cpu
