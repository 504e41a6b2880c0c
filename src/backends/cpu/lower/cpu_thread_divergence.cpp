// What may differ between the threads of a block (Divergence), and the regions whose threads all
// return the same state.
#include "backends/cpu/lower/cpu_barrier_regions_internal.hpp"

#include <llvm/Analysis/PostDominators.h>
#include <llvm/Analysis/ValueTracking.h>
#include <llvm/IR/CFG.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>

#include <utility>
#include <vector>

namespace kjit::cpu::barrier_split {

using llvm::BasicBlock;
using llvm::Instruction;
using llvm::Value;

const Value* branch_condition(const BasicBlock& b) {
  const Instruction* term = b.getTerminator();
  if (const auto* br = llvm::dyn_cast<llvm::BranchInst>(term);
      br != nullptr && br->isConditional()) {
    return br->getCondition();
  }
  if (const auto* sw = llvm::dyn_cast<llvm::SwitchInst>(term)) {
    return sw->getCondition();
  }
  return nullptr;
}

Divergence divergence_of(llvm::Function& f) {
  std::set<const Value*> divergent{f.getArg(kX), f.getArg(kY), f.getArg(kZ)};
  const Value* frame = nullptr;
  if (f.arg_size() > kTid) {  // a region
    divergent.insert(f.getArg(kTid));
    frame = f.getArg(kFrame);
  }
  std::set<const BasicBlock*> under_divergent_branch;
  const llvm::PostDominatorTree pdt(f);
  const auto depends = [&](const Instruction& i) {
    return llvm::any_of(i.operands(), [&](const Value* op) { return divergent.count(op) != 0; });
  };
  for (bool changed = true; changed;) {
    changed = false;
    for (Instruction& i : llvm::instructions(f)) {
      if (divergent.count(&i) != 0) {
        continue;
      }
      bool differs = under_divergent_branch.count(i.getParent()) != 0 || depends(i);
      if (auto* load = llvm::dyn_cast<llvm::LoadInst>(&i)) {
        differs =
            differs ||
            !(load->hasMetadata(llvm::LLVMContext::MD_invariant_load) ||
              (frame != nullptr && llvm::getUnderlyingObject(load->getPointerOperand()) == frame));
      } else if (llvm::isa<llvm::AllocaInst, llvm::AtomicRMWInst, llvm::AtomicCmpXchgInst>(i)) {
        differs = true;
      } else if (llvm::isa<llvm::CallBase>(i)) {
        differs = differs || i.mayReadOrWriteMemory() || !llvm::isSafeToSpeculativelyExecute(&i);
      }
      if (differs) {
        divergent.insert(&i);
        changed = true;
      }
    }
    for (BasicBlock& b : f) {
      const Value* condition = branch_condition(b);
      if (condition == nullptr || divergent.count(condition) == 0) {
        continue;
      }
      const llvm::DomTreeNode* node = pdt.getNode(&b);
      const BasicBlock* join =
          node != nullptr && node->getIDom() != nullptr ? node->getIDom()->getBlock() : nullptr;
      std::vector<const BasicBlock*> work(llvm::succ_begin(&b), llvm::succ_end(&b));
      while (!work.empty()) {
        const BasicBlock* x = work.back();
        work.pop_back();
        if (x == join || !under_divergent_branch.insert(x).second) {
          continue;
        }
        changed = true;
        work.insert(work.end(), llvm::succ_begin(x), llvm::succ_end(x));
      }
      if (join != nullptr) {
        for (const llvm::PHINode& phi : join->phis()) {
          changed = divergent.insert(&phi).second || changed;
        }
      }
    }
  }
  return {std::move(divergent), std::move(under_divergent_branch)};
}

bool returns_alike(llvm::Function& region) {
  const Divergence divergence = divergence_of(region);
  return llvm::none_of(region, [&](const BasicBlock& b) {
    return llvm::isa<llvm::ReturnInst>(b.getTerminator()) && divergence.blocks.count(&b) != 0;
  });
}

}  // namespace kjit::cpu::barrier_split
