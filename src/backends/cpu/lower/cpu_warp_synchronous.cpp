// Legacy warp-synchronous code: the volatile shared-memory stores of pre-Volta reductions and
// scans, kept in lockstep by warp meetings (run/cpu_warp_meetings.cpp holds the runtime's side).
#include "backends/cpu/lower/cpu_lowering_steps.hpp"
#include "backends/cpu/run/cpu_runtime_symbols.hpp"

#include <llvm/Analysis/ValueTracking.h>
#include <llvm/IR/DerivedTypes.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>

#include <initializer_list>

namespace kjit::cpu::lowering {

/// Legacy warp-synchronous code (the `volatile` shared-memory tails of pre-Volta reductions and
/// scans) counts on the lanes of a warp running in lockstep from one statement to the next. Each
/// volatile store to memory that may be shared gets its warp's lanes meeting before it (every
/// lane has read what the statement reads) and after it (every lane's store is there before any
/// reads on): the lockstep those statements assume, and never a silent wrong answer. Meetings in
/// code that needs none (a volatile store between two __syncthreads()) cost a pass, not a result.
void keep_volatile_stores_in_lockstep(llvm::Module& m) {
  std::vector<llvm::StoreInst*> stores;
  for (llvm::Function& f : m) {
    for (llvm::Instruction& i : llvm::instructions(f)) {
      auto* store = llvm::dyn_cast<llvm::StoreInst>(&i);
      if (store == nullptr || !store->isVolatile()) {
        continue;
      }
      // Run after the shared layout: what is left of locals and variables is not shared.
      const llvm::Value* object = llvm::getUnderlyingObject(store->getPointerOperand());
      if (llvm::isa<llvm::AllocaInst, llvm::GlobalVariable>(object)) {
        continue;  // a thread's own local, or a __device__ variable: no warp reads it in step
      }
      stores.push_back(store);
    }
  }
  if (stores.empty()) {
    return;
  }
  llvm::LLVMContext& ctx = m.getContext();
  auto* ptr = llvm::PointerType::get(ctx, 0);
  const llvm::FunctionCallee context = m.getOrInsertFunction(kContextFn, ptr);
  const llvm::FunctionCallee wait =
      m.getOrInsertFunction(kWarpWaitSymbol, llvm::Type::getVoidTy(ctx), ptr);
  for (llvm::StoreInst* store : stores) {
    for (llvm::Instruction* at : {static_cast<llvm::Instruction*>(store), store->getNextNode()}) {
      llvm::IRBuilder<> b(at);
      b.CreateCall(wait, {b.CreateCall(context)});
    }
  }
}

}  // namespace kjit::cpu::lowering
