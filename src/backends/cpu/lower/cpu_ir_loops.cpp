#include "backends/cpu/lower/cpu_ir_loops.hpp"

#include <llvm/IR/Constants.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/Instructions.h>

namespace kjit::cpu {

using llvm::BasicBlock;
using llvm::Function;
using llvm::Value;

Carried emit_range(llvm::IRBuilder<>& b, Value* first, Value* end, const Carried& init,
                   const LoopBody& body, llvm::MDNode* loop_id, bool may_be_empty) {
  Function* f = b.GetInsertBlock()->getParent();
  BasicBlock* before = b.GetInsertBlock();
  BasicBlock* header = BasicBlock::Create(f->getContext(), "kjit.threads", f);
  BasicBlock* exit = BasicBlock::Create(f->getContext(), "kjit.threads.done", f);
  if (may_be_empty) {
    b.CreateCondBr(b.CreateICmpULT(first, end), header, exit);
  } else {
    b.CreateBr(header);
  }
  b.SetInsertPoint(header);
  llvm::PHINode* iv = b.CreatePHI(end->getType(), 2, "iv");
  iv->addIncoming(first, before);
  Carried phis;
  for (Value* v : init) {
    llvm::PHINode* phi = b.CreatePHI(v->getType(), 2);
    phi->addIncoming(v, before);
    phis.push_back(phi);
  }
  Carried out = body(iv, phis);
  Value* next = b.CreateAdd(iv, llvm::ConstantInt::get(end->getType(), 1), "iv.next", true, true);
  BasicBlock* latch = b.GetInsertBlock();
  iv->addIncoming(next, latch);
  for (std::size_t i = 0; i < phis.size(); ++i) {
    llvm::cast<llvm::PHINode>(phis[i])->addIncoming(out[i], latch);
  }
  llvm::BranchInst* back = b.CreateCondBr(b.CreateICmpULT(next, end), header, exit);
  if (loop_id != nullptr) {
    back->setMetadata(llvm::LLVMContext::MD_loop, loop_id);
  }
  b.SetInsertPoint(exit);
  if (!may_be_empty) {
    return out;
  }
  return merge_carried(b, init, before, out, latch);
}

Carried merge_carried(llvm::IRBuilder<>& b, const Carried& a, llvm::BasicBlock* from_a,
                      const Carried& other, llvm::BasicBlock* from_other) {
  Carried merged;
  for (std::size_t i = 0; i < a.size(); ++i) {
    llvm::PHINode* phi = b.CreatePHI(a[i]->getType(), 2);
    phi->addIncoming(a[i], from_a);
    phi->addIncoming(other[i], from_other);
    merged.push_back(phi);
  }
  return merged;
}

Carried emit_loop(llvm::IRBuilder<>& b, Value* count, const Carried& init, const LoopBody& body,
                  llvm::MDNode* loop_id) {
  return emit_range(b, llvm::ConstantInt::get(count->getType(), 0), count, init, body, loop_id,
                    false);
}

}  // namespace kjit::cpu
