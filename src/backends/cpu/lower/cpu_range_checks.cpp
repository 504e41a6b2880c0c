#include "backends/cpu/lower/cpu_range_checks.hpp"

#include "support/logging.hpp"

#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/ScalarEvolution.h>
#include <llvm/Analysis/ScalarEvolutionExpressions.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/PassManager.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Support/CommandLine.h>
#include <llvm/Transforms/Scalar/InductiveRangeCheckElimination.h>
#include <llvm/Transforms/Scalar/LoopPassManager.h>
#include <llvm/Transforms/Scalar/LoopRotation.h>
#include <llvm/Transforms/Utils/LCSSA.h>
#include <llvm/Transforms/Utils/LoopSimplify.h>
#include <llvm/Transforms/Utils/LoopUtils.h>
#include <llvm/Transforms/Utils/LowerSwitch.h>

#include <mutex>
#include <optional>

namespace kjit::cpu {

namespace {

/// True when `s` mentions `loop`'s induction variables, or a value computed inside `loop`.
bool varies_in(const llvm::SCEV* s, const llvm::Loop& loop) {
  return llvm::SCEVExprContains(s, [&](const llvm::SCEV* e) {
    if (const auto* rec = llvm::dyn_cast<llvm::SCEVAddRecExpr>(e)) {
      return rec->getLoop() == &loop;
    }
    if (const auto* unknown = llvm::dyn_cast<llvm::SCEVUnknown>(e)) {
      const auto* inst = llvm::dyn_cast<llvm::Instruction>(unknown->getValue());
      return inst != nullptr && loop.contains(inst);
    }
    return false;
  });
}

/// True when `s` follows `loop`'s induction variables: an affine function of the thread's index
/// in a loop over threads.
bool follows(const llvm::SCEV* s, const llvm::Loop& loop) {
  return llvm::SCEVExprContains(s, [&](const llvm::SCEV* e) {
    const auto* rec = llvm::dyn_cast<llvm::SCEVAddRecExpr>(e);
    return rec != nullptr && rec->getLoop() == &loop;
  });
}

/// A loop over a warp's lanes in step (cpu_warp_passes.cpp: vectorised 32 wide, predicated).
bool over_lanes(const llvm::Loop& loop) {
  const std::optional<int> width =
      llvm::getOptionalIntLoopAttribute(&loop, "llvm.loop.vectorize.width");
  return width == 32 &&
         llvm::getBooleanLoopAttribute(&loop, "llvm.loop.vectorize.predicate.enable");
}

/// A branch in a loop on a comparison that follows the loop's induction variable (a range
/// check, such as a kernel's `if (i < n)` in the loop over threads), on one side of which the
/// loop loads from an address the same in every iteration; and no loop over a warp's lanes,
/// which IRCE (splitting every loop of the function it can) would split too: the lanes of its
/// loop after the split would run apart, where LLVM does not vectorise them.
bool has_guarded_shared_load(llvm::Function& f, llvm::FunctionAnalysisManager& am) {
  llvm::LoopInfo& loops = am.getResult<llvm::LoopAnalysis>(f);
  if (loops.empty() || llvm::any_of(loops.getLoopsInPreorder(),
                                    [](const llvm::Loop* l) { return over_lanes(*l); })) {
    return false;
  }
  llvm::ScalarEvolution& se = am.getResult<llvm::ScalarEvolutionAnalysis>(f);
  const llvm::DominatorTree& dt = am.getResult<llvm::DominatorTreeAnalysis>(f);
  for (llvm::BasicBlock& block : f) {
    const llvm::Loop* loop = loops.getLoopFor(&block);
    const auto* branch = llvm::dyn_cast<llvm::BranchInst>(block.getTerminator());
    if (loop == nullptr || branch == nullptr || !branch->isConditional()) {
      continue;
    }
    const auto* check = llvm::dyn_cast<llvm::ICmpInst>(branch->getCondition());
    if (check == nullptr || !se.isSCEVable(check->getOperand(0)->getType()) ||
        (!follows(se.getSCEV(check->getOperand(0)), *loop) &&
         !follows(se.getSCEV(check->getOperand(1)), *loop))) {
      continue;
    }
    for (const llvm::BasicBlock* side : branch->successors()) {
      const llvm::BasicBlockEdge edge(&block, side);
      for (llvm::BasicBlock* guarded : loop->blocks()) {
        if (!dt.dominates(edge, guarded)) {
          continue;
        }
        for (llvm::Instruction& inst : *guarded) {
          auto* load = llvm::dyn_cast<llvm::LoadInst>(&inst);
          if (load != nullptr && !varies_in(se.getSCEV(load->getPointerOperand()), *loop)) {
            return true;
          }
        }
      }
    }
  }
  return false;
}

/// IRCE, in the loop form it recognises (rotated, before induction variable simplification
/// rewrites the exit test as `!=`), on functions with a guarded shared load.
class SplitGuardedSharedLoads : public llvm::PassInfoMixin<SplitGuardedSharedLoads> {
 public:
  llvm::PreservedAnalyses run(llvm::Function& f, llvm::FunctionAnalysisManager& am) {
    if (!has_guarded_shared_load(f, am)) {
      return llvm::PreservedAnalyses::all();
    }
    llvm::FunctionPassManager split;
    split.addPass(llvm::LoopSimplifyPass());
    split.addPass(llvm::LCSSAPass());
    split.addPass(llvm::createFunctionToLoopPassAdaptor(llvm::LoopRotatePass()));
    split.addPass(llvm::IRCEPass());
    return split.run(f, am);
  }
};

/// IRCE's own test of profitability wants branch weights, which only a profile gives; here the
/// pass above has chosen the loops. The option is LLVM's, process-wide, and only IRCE reads it,
/// which LLVM's standard pipelines do not run.
void let_irce_split_without_profile() {
  static std::once_flag once;
  std::call_once(once, [] {
    const llvm::StringMap<llvm::cl::Option*>& options = llvm::cl::getRegisteredOptions();
    const auto it = options.find("irce-skip-profitability-checks");
    if (it == options.end() || it->second->addOccurrence(0, it->first(), "true")) {
      detail::log().warn(
          "this LLVM has no option irce-skip-profitability-checks: bounds checks that guard "
          "shared loads stay in the loops over threads");
    }
  });
}

}  // namespace

void add_range_check_splits(llvm::PassBuilder& builder) {
  let_irce_split_without_profile();
  builder.registerPeepholeEPCallback(
      [](llvm::FunctionPassManager& passes, llvm::OptimizationLevel level) {
        if (level == llvm::OptimizationLevel::O3) {
          passes.addPass(SplitGuardedSharedLoads());
        }
      });
  builder.registerVectorizerStartEPCallback(
      [](llvm::FunctionPassManager& passes, llvm::OptimizationLevel /*level*/) {
        passes.addPass(llvm::LowerSwitchPass());
      });
}

}  // namespace kjit::cpu
