// Alias scopes for the kinds of memory a region touches (MemorySpaces): what lets LLVM vectorise
// a pass's loop over threads without checking at run time that its accesses do not overlap.
#include "backends/cpu/lower/cpu_barrier_regions_internal.hpp"

#include "backends/cpu/lower/cpu_loop_stops.hpp"
#include "backends/cpu/prelude/cpu_abi.h"

#include <llvm/ADT/SetVector.h>
#include <llvm/Analysis/ScopedNoAliasAA.h>
#include <llvm/Analysis/ValueTracking.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/MDBuilder.h>
#include <llvm/IR/Module.h>

#include <cstddef>

namespace kjit::cpu::barrier_split {

using llvm::Instruction;
using llvm::Value;

MemorySpaces::MemorySpaces(llvm::Function& f, const std::vector<UniformSlot>& uniform)
    : args_(f.getArg(kArgs)), block_(f.getArg(kBlock)), dl_(f.getParent()->getDataLayout()) {
  llvm::MDBuilder md(f.getContext());
  llvm::MDNode* domain = md.createAnonymousAliasScopeDomain(kDomain);
  const auto scope = [&](const char* name) {
    return llvm::MDNode::get(f.getContext(), {md.createAnonymousAliasScope(domain, name)});
  };
  shared_ = scope("shared");
  frame_ = scope("frame");
  uniform_ = scope("uniform");
  snapshot_ = scope("snapshot");
  warp_ = scope("warp");
  for (const UniformSlot& u : uniform) {
    snapshots_.insert(u.snapshot);
    uniform_slots_.insert(u.slot);
  }
}

void MemorySpaces::annotate(llvm::Function& f) const {
  for (Instruction& i : llvm::instructions(f)) {
    if (const Value* pointer = accessed_pointer(i)) {
      const Space space = space_of(pointer);
      if (space != Space::unknown) {
        add(i, scope_of(space), others(space));
      }
    }
  }
}

const llvm::MDNode* MemorySpaces::original(const llvm::MDNode* scope) const {
  const llvm::AliasScopeNode node(scope);
  const llvm::MDNode* domain = node.getDomain();  // {itself, its name}
  const auto* domain_name = domain != nullptr && domain->getNumOperands() > 1
                                ? llvm::dyn_cast<llvm::MDString>(domain->getOperand(1))
                                : nullptr;
  if (domain_name == nullptr || domain_name->getString() != kDomain) {
    return scope;
  }
  for (const llvm::MDNode* list : {shared_, frame_, uniform_, snapshot_, warp_}) {
    const auto* mine = llvm::cast<llvm::MDNode>(list->getOperand(0));
    if (llvm::AliasScopeNode(mine).getName() == node.getName()) {
      return mine;
    }
  }
  return scope;
}

void MemorySpaces::restore_after_inlining(llvm::Function& f) const {
  for (Instruction& i : llvm::instructions(f)) {
    for (unsigned kind : {llvm::LLVMContext::MD_alias_scope, llvm::LLVMContext::MD_noalias}) {
      const llvm::MDNode* list = i.getMetadata(kind);
      if (list == nullptr) {
        continue;
      }
      llvm::SmallSetVector<llvm::Metadata*, 8> scopes;
      for (const llvm::MDOperand& op : list->operands()) {
        scopes.insert(const_cast<llvm::MDNode*>(  // NOLINT(cppcoreguidelines-pro-type-const-cast)
            original(llvm::cast<llvm::MDNode>(op.get()))));
      }
      i.setMetadata(kind, llvm::MDNode::get(f.getContext(), scopes.getArrayRef()));
    }
  }
}

llvm::MDNode* MemorySpaces::scope_of(Space space) const {
  switch (space) {
    case Space::shared:
      return shared_;
    case Space::frame:
      return frame_;
    case Space::uniform:
      return uniform_;
    case Space::snapshot:
      return snapshot_;
    case Space::warp:
      return warp_;
    default:
      return nullptr;
  }
}

llvm::MDNode* MemorySpaces::others(Space space) const {
  llvm::MDNode* out = nullptr;
  for (const Space s :
       {Space::shared, Space::frame, Space::uniform, Space::snapshot, Space::warp}) {
    if (s != space) {
      out = llvm::MDNode::concatenate(out, scope_of(s));
    }
  }
  return out;
}

void MemorySpaces::set(Instruction& i, Space space) const {
  i.setMetadata(llvm::LLVMContext::MD_alias_scope, scope_of(space));
  i.setMetadata(llvm::LLVMContext::MD_noalias, others(space));
}

void MemorySpaces::add(Instruction& i, llvm::MDNode* scope, llvm::MDNode* noalias) {
  if (scope != nullptr) {
    i.setMetadata(
        llvm::LLVMContext::MD_alias_scope,
        llvm::MDNode::concatenate(i.getMetadata(llvm::LLVMContext::MD_alias_scope), scope));
  }
  i.setMetadata(llvm::LLVMContext::MD_noalias,
                llvm::MDNode::concatenate(i.getMetadata(llvm::LLVMContext::MD_noalias), noalias));
}

bool MemorySpaces::loaded_from(const Value* v, const Value* base, std::int64_t& offset) const {
  const auto* load = llvm::dyn_cast<llvm::LoadInst>(v);
  return load != nullptr &&
         llvm::GetPointerBaseWithConstantOffset(load->getPointerOperand(), offset, dl_) == base;
}

MemorySpaces::Space MemorySpaces::space_of(const Value* pointer) const {
  const Value* object = llvm::getUnderlyingObject(pointer);
  if (llvm::isa<llvm::AllocaInst>(object)) {
    return snapshots_.count(object) != 0       ? Space::snapshot
           : uniform_slots_.count(object) != 0 ? Space::uniform
                                               : Space::frame;
  }
  std::int64_t offset = 0;
  if (loaded_from(object, block_, offset)) {
    if (offset == static_cast<std::int64_t>(offsetof(kjit_cpu_block, shared))) {
      return Space::shared;
    }
    return offset == static_cast<std::int64_t>(offsetof(kjit_cpu_block, warp)) ? Space::warp
                                                                               : Space::unknown;
  }
  if (object == args_ || object == block_) {
    return Space::global;
  }
  // A pointer argument's value: loaded from the slot that args[i] points to.
  const auto* value = llvm::dyn_cast<llvm::LoadInst>(object);
  if (value != nullptr &&
      loaded_from(llvm::getUnderlyingObject(value->getPointerOperand()), args_, offset)) {
    return Space::global;
  }
  return Space::unknown;
}

}  // namespace kjit::cpu::barrier_split
