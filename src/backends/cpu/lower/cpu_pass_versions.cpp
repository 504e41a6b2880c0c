#include "backends/cpu/lower/cpu_pass_versions.hpp"

#include "backends/cpu/run/cpu_runtime_symbols.hpp"

#include <llvm/IR/Constants.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InstrTypes.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>
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

bool is_warp_round(const llvm::CallInst* call) {
  const llvm::Function* callee = call->getCalledFunction();
  return callee != nullptr && callee->getName() == llvm::StringRef(kWarpRoundSymbol);
}

/// The pass's calls of __kjit_warp_round, when one of them reads a warp area known on entry;
/// none otherwise. Every call reads the block's warp area (the prelude reads it from the block
/// record), possibly through copies of the same load.
std::vector<llvm::CallInst*> warp_rounds(llvm::Function& pass) {
  std::vector<llvm::CallInst*> out;
  for (BasicBlock& block : pass) {
    for (llvm::Instruction& i : block) {
      auto* call = llvm::dyn_cast<llvm::CallInst>(&i);
      if (call == nullptr || !is_warp_round(call)) {
        continue;
      }
      const bool on_entry = known_on_entry(call->getArgOperand(0), pass.getEntryBlock());
      out.insert(on_entry ? out.begin() : out.end(), call);  // one known on entry first
    }
  }
  if (out.empty() || !known_on_entry(out[0]->getArgOperand(0), pass.getEntryBlock())) {
    return {};
  }
  return out;
}

/// The block's round of warp meetings, from its warp area `area` (cpu_abi.h).
Value* emit_round(llvm::IRBuilderBase& b, Value* area) {
  return b.CreateLoad(b.getInt32Ty(), area, "warp.round");
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

bool version_pass(llvm::Function& pass, const std::vector<Value*>& xs, Value* nx) {
  BasicBlock& entry = pass.getEntryBlock();
  // The round is the same for all threads and does not change during a pass: read once, every
  // lane reads and writes the same place of its warp area.
  const std::vector<llvm::CallInst*> rounds = warp_rounds(pass);
  if (!rounds.empty()) {
    llvm::IRBuilder<> at_entry(entry.getTerminator());
    Value* round = emit_round(at_entry, rounds[0]->getArgOperand(0));
    for (llvm::CallInst* call : rounds) {
      call->replaceAllUsesWith(round);
      call->eraseFromParent();
    }
  }
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
    BasicBlock* copy = llvm::CloneBasicBlock(block, map, ".fast", &pass);
    map[block] = copy;
    copies.push_back(copy);
  }
  llvm::remapInstructionsInBlocks(copies, map);
  renew_loop_ids(copies);

  llvm::LLVMContext& ctx = pass.getContext();
  BasicBlock* general = BasicBlock::Create(ctx, "kjit.pass.general", &pass);
  BasicBlock* fast = BasicBlock::Create(ctx, "kjit.pass.fast", &pass);
  llvm::Instruction* start = entry.getTerminator();
  llvm::Instruction* start_copy = start->clone();
  start->removeFromParent();
  start->insertInto(general, general->end());
  start_copy->insertInto(fast, fast->end());
  llvm::RemapInstruction(start_copy, map,
                         llvm::RF_IgnoreMissingLocals | llvm::RF_NoModuleLevelChanges);
  for (BasicBlock* next : llvm::successors(general)) {
    next->replacePhiUsesWith(&entry, general);
  }
  for (BasicBlock* next : llvm::successors(fast)) {
    next->replacePhiUsesWith(&entry, fast);
  }

  llvm::IRBuilder<> b(&entry);
  auto* i64 = b.getInt64Ty();
  Value* holds = b.getTrue();
  // No index wraps when base + x stays below 2^31 for every x in [0, nx): then it neither
  // overflows as a signed nor as an unsigned number.
  Value* width = b.CreateZExt(nx, i64);
  for (const IndexAdd& index : adds) {
    Value* last = b.CreateAdd(b.CreateZExt(index.base, i64), width);
    holds = b.CreateAnd(holds, b.CreateICmpULE(last, b.getInt64(std::uint64_t{1} << 31)));
    auto* copy = llvm::cast<llvm::BinaryOperator>(map[index.add]);
    copy->setHasNoSignedWrap(true);
    copy->setHasNoUnsignedWrap(true);
  }
  b.CreateCondBr(holds, fast, general);
  return true;
}

void lower_warp_rounds(llvm::Module& m) {
  llvm::Function* hook = m.getFunction(llvm::StringRef(kWarpRoundSymbol));
  if (hook == nullptr) {
    return;
  }
  std::vector<llvm::CallInst*> calls;
  for (llvm::User* user : hook->users()) {
    if (auto* call = llvm::dyn_cast<llvm::CallInst>(user); call != nullptr && is_warp_round(call)) {
      calls.push_back(call);
    }
  }
  for (llvm::CallInst* call : calls) {
    llvm::IRBuilder<> b(call);
    call->replaceAllUsesWith(emit_round(b, call->getArgOperand(0)));
    call->eraseFromParent();
  }
  if (hook->use_empty()) {
    hook->eraseFromParent();
  }
}

}  // namespace kjit::cpu
