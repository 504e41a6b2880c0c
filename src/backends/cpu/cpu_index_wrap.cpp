#include "backends/cpu/cpu_index_wrap.hpp"

#include <llvm/IR/Constants.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InstrTypes.h>
#include <llvm/IR/Instructions.h>
#include <llvm/Transforms/Utils/Cloning.h>
#include <llvm/Transforms/Utils/ValueMapper.h>

#include <cstdint>
#include <utility>

namespace kjit::cpu {

namespace {

using llvm::BasicBlock;
using llvm::Value;

/// An add of `base` (known on entry) and a thread's x coordinate that may wrap.
struct IndexAdd {
  llvm::BinaryOperator* add;
  Value* base;
};

bool known_on_entry(const Value* v, const BasicBlock& entry) {
  if (llvm::isa<llvm::Argument, llvm::Constant>(v)) {
    return true;
  }
  const auto* i = llvm::dyn_cast<llvm::Instruction>(v);
  return i != nullptr && i->getParent() == &entry;
}

std::vector<IndexAdd> index_adds(const std::vector<Value*>& xs, const BasicBlock& entry) {
  std::vector<IndexAdd> out;
  for (Value* x : xs) {
    if (!x->getType()->isIntegerTy(32)) {
      continue;
    }
    for (llvm::User* user : x->users()) {
      auto* add = llvm::dyn_cast<llvm::BinaryOperator>(user);
      if (add == nullptr || add->getOpcode() != llvm::Instruction::Add ||
          (add->hasNoSignedWrap() && add->hasNoUnsignedWrap())) {
        continue;
      }
      Value* base = add->getOperand(0) == x ? add->getOperand(1) : add->getOperand(0);
      if (base != x && known_on_entry(base, entry)) {
        out.push_back({add, base});
      }
    }
  }
  return out;
}

/// Gives the cloned loops their own loop metadata: two loops must not share an identity.
void renew_loop_ids(const std::vector<BasicBlock*>& blocks) {
  for (BasicBlock* block : blocks) {
    llvm::Instruction* term = block->getTerminator();
    llvm::MDNode* id = term->getMetadata(llvm::LLVMContext::MD_loop);
    if (id == nullptr || id->getNumOperands() == 0 || id->getOperand(0) != id) {
      continue;
    }
    llvm::SmallVector<llvm::Metadata*, 4> operands{nullptr};
    for (unsigned i = 1; i < id->getNumOperands(); ++i) {
      operands.push_back(id->getOperand(i));
    }
    llvm::MDNode* fresh = llvm::MDNode::getDistinct(term->getContext(), operands);
    fresh->replaceOperandWith(0, fresh);
    term->setMetadata(llvm::LLVMContext::MD_loop, fresh);
  }
}

}  // namespace

bool version_on_index_wrap(llvm::Function& pass, const std::vector<Value*>& xs, Value* nx) {
  BasicBlock& entry = pass.getEntryBlock();
  const std::vector<IndexAdd> adds = index_adds(xs, entry);
  if (adds.empty()) {
    return false;
  }
  // Every block but the entry, copied; the copies use the entry's values as the originals do.
  std::vector<BasicBlock*> originals;
  for (BasicBlock& block : pass) {
    if (&block != &entry) {
      originals.push_back(&block);
    }
  }
  llvm::ValueToValueMapTy map;
  std::vector<BasicBlock*> copies;
  for (BasicBlock* block : originals) {
    BasicBlock* copy = llvm::CloneBasicBlock(block, map, ".nowrap", &pass);
    map[block] = copy;
    copies.push_back(copy);
  }
  llvm::remapInstructionsInBlocks(copies, map);
  renew_loop_ids(copies);

  llvm::LLVMContext& ctx = pass.getContext();
  BasicBlock* wraps = BasicBlock::Create(ctx, "kjit.index.may_wrap", &pass);
  BasicBlock* no_wrap = BasicBlock::Create(ctx, "kjit.index.no_wrap", &pass);
  llvm::Instruction* start = entry.getTerminator();
  llvm::Instruction* start_copy = start->clone();
  start->removeFromParent();
  start->insertInto(wraps, wraps->end());
  start_copy->insertInto(no_wrap, no_wrap->end());
  llvm::RemapInstruction(start_copy, map,
                         llvm::RF_IgnoreMissingLocals | llvm::RF_NoModuleLevelChanges);
  for (BasicBlock* next : llvm::successors(wraps)) {
    next->replacePhiUsesWith(&entry, wraps);
  }
  for (BasicBlock* next : llvm::successors(no_wrap)) {
    next->replacePhiUsesWith(&entry, no_wrap);
  }

  // No index wraps when base + x stays below 2^31 for every x in [0, nx): then it neither
  // overflows as a signed nor as an unsigned number.
  llvm::IRBuilder<> b(&entry);
  auto* i64 = b.getInt64Ty();
  Value* fits = b.getTrue();
  Value* threads = b.CreateZExt(nx, i64);
  for (const IndexAdd& index : adds) {
    Value* last = b.CreateAdd(b.CreateZExt(index.base, i64), threads);
    fits = b.CreateAnd(fits, b.CreateICmpULE(last, b.getInt64(std::uint64_t{1} << 31)));
    auto* fast = llvm::cast<llvm::BinaryOperator>(map[index.add]);
    fast->setHasNoSignedWrap(true);
    fast->setHasNoUnsignedWrap(true);
  }
  b.CreateCondBr(fits, no_wrap, wraps);
  return true;
}

}  // namespace kjit::cpu
