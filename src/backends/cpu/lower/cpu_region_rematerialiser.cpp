// Values recomputed after a barrier instead of kept in the frame (Rematerialiser).
#include "backends/cpu/lower/cpu_barrier_regions_internal.hpp"

#include <llvm/Analysis/ValueTracking.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>

namespace kjit::cpu::barrier_split {

using llvm::Instruction;
using llvm::Value;

Rematerialiser::Rematerialiser(llvm::Function& f)
    : args_(f.getArg(kArgs)), block_(f.getArg(kBlock)) {}

bool Rematerialiser::can(Value* v, unsigned depth) {
  if (llvm::isa<llvm::Argument, llvm::Constant>(v)) {
    return true;
  }
  auto* i = llvm::dyn_cast<Instruction>(v);
  constexpr unsigned kMaxDepth = 12;
  if (i == nullptr || depth > kMaxDepth || llvm::isa<llvm::PHINode, llvm::AllocaInst>(i)) {
    return false;
  }
  if (auto it = known_.find(i); it != known_.end()) {
    return it->second;
  }
  bool ok = false;
  if (auto* load = llvm::dyn_cast<llvm::LoadInst>(i)) {
    ok = load->isSimple() && invariant(load->getPointerOperand()) &&
         can(load->getPointerOperand(), depth + 1);
  } else if (!i->mayReadOrWriteMemory() && llvm::isSafeToSpeculativelyExecute(i)) {
    ok = llvm::all_of(i->operands(), [&](Value* op) { return can(op, depth + 1); });
  }
  known_[i] = ok;
  return ok;
}

void Rematerialiser::mark_invariant_loads(llvm::Function& f) const {
  for (Instruction& i : llvm::instructions(f)) {
    if (auto* load = llvm::dyn_cast<llvm::LoadInst>(&i);
        load != nullptr && load->isSimple() && invariant(load->getPointerOperand())) {
      load->setMetadata(llvm::LLVMContext::MD_invariant_load,
                        llvm::MDNode::get(f.getContext(), {}));
    }
  }
}

Value* Rematerialiser::copy_before(Value* v, Instruction* where) {
  auto* i = llvm::dyn_cast<Instruction>(v);
  if (i == nullptr) {
    return v;
  }
  Instruction* copy = i->clone();
  for (llvm::Use& op : copy->operands()) {
    op.set(copy_before(op.get(), where));
  }
  copy->insertBefore(where);
  copy->setName(i->getName() + ".remat");
  return copy;
}

bool Rematerialiser::invariant(Value* pointer) const {
  const Value* base = llvm::getUnderlyingObject(pointer);
  if (base == args_ || base == block_) {
    return true;
  }
  const auto* slot = llvm::dyn_cast<llvm::LoadInst>(base);
  return slot != nullptr && llvm::getUnderlyingObject(slot->getPointerOperand()) == args_;
}

}  // namespace kjit::cpu::barrier_split
