#include "backends/cpu/lower/cpu_uniform_stores.hpp"

#include "backends/cpu/lower/cpu_loop_analyses.hpp"
#include "backends/cpu/lower/cpu_loop_stops.hpp"

#include <llvm/Analysis/AliasAnalysis.h>
#include <llvm/Analysis/BasicAliasAnalysis.h>
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/MemoryLocation.h>
#include <llvm/Analysis/ScopedNoAliasAA.h>
#include <llvm/Analysis/ValueTracking.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>
#include <llvm/Transforms/Utils/BasicBlockUtils.h>
#include <llvm/Transforms/Utils/LoopSimplify.h>

#include <vector>

namespace kjit::cpu {

namespace {

/// `v`, or, for a phi all of whose incoming values from blocks that can run are one value (as
/// a region's phis are where a barrier cut their other edges), that value.
llvm::Value* one_value(llvm::Value* v, const llvm::DominatorTree& dt) {
  auto* phi = llvm::dyn_cast<llvm::PHINode>(v);
  if (phi == nullptr) {
    return v;
  }
  llvm::Value* only = nullptr;
  for (unsigned k = 0; k < phi->getNumIncomingValues(); ++k) {
    llvm::Value* in = phi->getIncomingValue(k);
    if (in == phi || !dt.isReachableFromEntry(phi->getIncomingBlock(k))) {
      continue;
    }
    if (only != nullptr && only != in) {
      return v;
    }
    only = in;
  }
  return only != nullptr ? only : v;
}

/// Whether `pointer` is known not to be an address in `frame` that kjit computed. Nothing but
/// kjit's own code makes such addresses (from the frame, with offsets): a pointer of the
/// kernel's, even to one of its locals that lives in the frame, never reaches the slots of the
/// values kept across stops. A pointer chosen among others (a phi, a select) may be either.
bool not_a_slot(const llvm::Value* pointer, const llvm::Value* frame) {
  const llvm::Value* base = llvm::getUnderlyingObject(pointer, 0);  // 0: no depth limit
  return base != frame && !llvm::isa<llvm::PHINode, llvm::SelectInst>(base);
}

/// Whether `i` touches memory only through pointers that are not_a_slot.
bool outside_slots(const llvm::Instruction& i, const llvm::Value* frame) {
  if (const llvm::Value* pointer = accessed_pointer(i)) {
    return not_a_slot(pointer, frame);
  }
  const auto* call = llvm::dyn_cast<llvm::CallBase>(&i);
  if (call == nullptr || !call->onlyAccessesArgMemory()) {
    return false;
  }
  return llvm::all_of(call->args(), [&](const llvm::Use& arg) {
    return !arg->getType()->isPointerTy() || not_a_slot(arg.get(), frame);
  });
}

struct Sink {
  llvm::StoreInst* store;
  llvm::Value* value;  // what it stores, the same on every iteration
  llvm::Loop* loop;
};

/// Whether `v` is, or can be made by hoisting what computes it, the same on every iteration.
bool invariant(llvm::Loop& loop, llvm::Value* v) {
  bool changed = false;
  return loop.makeLoopInvariant(v, changed);
}

}  // namespace

unsigned sink_uniform_stores(llvm::Function& pass, const llvm::Value* frame) {
  LoopAnalyses a(pass);
  llvm::DominatorTree& dt = a.dt;
  llvm::LoopInfo& loops = a.loops;
  llvm::BasicAAResult basic(pass.getParent()->getDataLayout(), pass, a.tli, a.ac, &dt);
  llvm::ScopedNoAliasAAResult scoped;
  llvm::AAResults aa(a.tli);
  aa.addAAResult(basic);
  aa.addAAResult(scoped);

  std::vector<Sink> sinks;
  for (llvm::Loop* loop : loops.getLoopsInPreorder()) {
    // Only a loop the vectoriser takes (an innermost one) scalarises the store; in a scalar loop
    // it costs one store where a thread makes it, and the flag would cost a register.
    // A pass's loops over threads are those whose id lists parallel accesses.
    if (llvm::findOptionMDForLoop(loop, "llvm.loop.parallel_accesses") == nullptr ||
        !loop->isInnermost()) {
      continue;
    }
    // A preheader to clear the flag in, and exits of the loop's own to test it in.
    llvm::simplifyLoop(loop, &dt, &loops, nullptr, &a.ac, nullptr, false);
    if (loop->getLoopPreheader() == nullptr || loop->getExitBlock() == nullptr ||
        !loop->hasDedicatedExits()) {
      continue;
    }
    std::vector<llvm::Instruction*> memory;  // what in the loop touches memory
    for (llvm::BasicBlock* block : loop->blocks()) {
      for (llvm::Instruction& i : *block) {
        if (i.mayReadOrWriteMemory()) {
          memory.push_back(&i);
        }
      }
    }
    for (llvm::Instruction* i : memory) {
      auto* store = llvm::dyn_cast<llvm::StoreInst>(i);
      if (store == nullptr || !store->isSimple()) {
        continue;
      }
      llvm::Value* value = one_value(store->getValueOperand(), dt);
      if (!invariant(*loop, store->getPointerOperand()) || !invariant(*loop, value)) {
        continue;
      }
      if (llvm::getUnderlyingObject(store->getPointerOperand(), 0) != frame) {
        continue;
      }
      const llvm::MemoryLocation at = llvm::MemoryLocation::get(store);
      const bool alone = llvm::none_of(memory, [&](llvm::Instruction* other) {
        return other != store && !outside_slots(*other, frame) &&
               llvm::isModOrRefSet(aa.getModRefInfo(other, at));
      });
      if (alone) {
        sinks.push_back({store, value, loop});
      }
    }
  }

  llvm::BasicBlock& entry = pass.getEntryBlock();
  llvm::Type* flag_type = llvm::Type::getInt1Ty(pass.getContext());
  for (const Sink& s : sinks) {
    // A flag that SROA makes a register: set where the store was, tested after the loop.
    llvm::IRBuilder<> top(&entry, entry.getFirstInsertionPt());
    llvm::AllocaInst* flag = top.CreateAlloca(flag_type, nullptr, "kjit.stored");
    llvm::IRBuilder<> before(s.loop->getLoopPreheader()->getTerminator());
    before.CreateStore(before.getFalse(), flag);
    llvm::IRBuilder<> at(s.store);
    at.CreateStore(at.getTrue(), flag);
    llvm::BasicBlock* exit = s.loop->getExitBlock();
    llvm::IRBuilder<> after(exit, exit->getFirstInsertionPt());
    llvm::LoadInst* stored = after.CreateLoad(flag_type, flag, "kjit.any_stored");
    llvm::Instruction* then = llvm::SplitBlockAndInsertIfThen(stored, stored->getNextNode(), false);
    llvm::IRBuilder<> once(then);
    llvm::StoreInst* sunk =
        once.CreateAlignedStore(s.value, s.store->getPointerOperand(), s.store->getAlign());
    sunk->copyMetadata(*s.store);
    s.store->eraseFromParent();
  }
  return static_cast<unsigned>(sinks.size());
}

}  // namespace kjit::cpu
