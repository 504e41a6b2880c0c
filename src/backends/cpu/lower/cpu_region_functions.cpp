// The regions of a split kernel as functions: from the entry or a barrier to the next barrier
// or the end, their thread's kept values read from and written to the block's frame.
#include "backends/cpu/lower/cpu_barrier_regions_internal.hpp"

#include <kjit/error.hpp>

#include <llvm/IR/CFG.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>
#include <llvm/Transforms/Utils/Cloning.h>
#include <llvm/Transforms/Utils/Local.h>
#include <llvm/Transforms/Utils/ValueMapper.h>

#include <fmt/format.h>

#include <set>
#include <utility>

namespace kjit::cpu::barrier_split {

namespace {

using llvm::AllocaInst;
using llvm::BasicBlock;
using llvm::Function;
using llvm::Value;

/// The blocks that may run after a store to `slot` within one region.
std::set<const BasicBlock*> after_stores_to(const Value* slot) {
  std::set<const BasicBlock*> after;
  std::vector<const BasicBlock*> work;
  for (const llvm::User* user : slot->users()) {
    if (const auto* store = llvm::dyn_cast<llvm::StoreInst>(user);
        store != nullptr && store->getPointerOperand() == slot) {
      work.push_back(store->getParent());
    }
  }
  while (!work.empty()) {
    const BasicBlock* x = work.back();
    work.pop_back();
    if (after.insert(x).second) {
      work.insert(work.end(), llvm::succ_begin(x), llvm::succ_end(x));
    }
  }
  return after;
}

/// The loads of `slot` that no store to it within the region may precede: they read what the
/// thread kept at its previous stop or barrier.
std::vector<llvm::LoadInst*> loads_of_kept(Value* slot) {
  const std::set<const BasicBlock*> after = after_stores_to(slot);
  std::vector<llvm::LoadInst*> out;
  for (llvm::User* user : slot->users()) {
    if (auto* load = llvm::dyn_cast<llvm::LoadInst>(user); load != nullptr &&
                                                           load->getPointerOperand() == slot &&
                                                           after.count(load->getParent()) == 0) {
      out.push_back(load);
    }
  }
  return out;
}

/// What a thread of a region reads of a uniform value: the snapshot taken before the pass until
/// the thread stores the value, then what it stored. Its slot cannot tell: in a pass over all
/// threads it is one for all of them, where a thread that ran earlier in the pass may have stored
/// already (a loop around a barrier whose count depends on an outer loop's does), and a load may
/// run both before and after the thread's own store. A local of the region follows the value;
/// SROA makes it registers.
void track_uniform_values(const FrameLayout& layout, const std::vector<Value*>& slot_addresses,
                          const std::vector<Value*>& snapshot_addresses, BasicBlock& entry) {
  for (std::size_t k = 0; k < layout.snapshots.size(); ++k) {
    Value* slot = slot_addresses[layout.snapshots[k].slot];
    Value* snapshot = snapshot_addresses[k];
    const std::set<const BasicBlock*> after_store = after_stores_to(slot);
    std::vector<llvm::LoadInst*> late;  // loads that may run after a store of the region
    for (llvm::User* user : snapshot->users()) {
      auto* load = llvm::dyn_cast<llvm::LoadInst>(user);
      if (load != nullptr && after_store.count(load->getParent()) != 0) {
        late.push_back(load);
      }
    }
    if (late.empty()) {
      continue;
    }
    llvm::Type* type = late.front()->getType();
    llvm::IRBuilder<> top(&entry, entry.begin());
    AllocaInst* current = top.CreateAlloca(type, nullptr, "kjit.current");
    llvm::IRBuilder<> init(entry.getTerminator());
    llvm::LoadInst* before = init.CreateLoad(type, snapshot, "kjit.before");
    before->copyMetadata(*late.front());
    init.CreateStore(before, current);
    for (llvm::User* user : slot->users()) {
      if (auto* store = llvm::dyn_cast<llvm::StoreInst>(user);
          store != nullptr && store->getPointerOperand() == slot) {
        llvm::IRBuilder<> after(store->getNextNode());
        after.CreateStore(store->getValueOperand(), current);
      }
    }
    for (llvm::LoadInst* load : late) {
      load->setOperand(llvm::LoadInst::getPointerOperandIndex(), current);
      load->setMetadata(llvm::LLVMContext::MD_alias_scope, nullptr);
      load->setMetadata(llvm::LLVMContext::MD_noalias, nullptr);
    }
  }
}

/// Region r's function, `f` cloned: its thread takes the region's parameters (Param), then an
/// i32 base for each of `affine_slots` (make_region). `map` and `returns` receive the clone's.
Function* clone_region(Function& f, unsigned r, bool through_stops, std::size_t affine_slots,
                       llvm::ValueToValueMapTy& map,
                       llvm::SmallVectorImpl<llvm::ReturnInst*>& returns) {
  llvm::LLVMContext& ctx = f.getContext();
  auto* ptr = llvm::PointerType::get(ctx, 0);
  auto* i32 = llvm::Type::getInt32Ty(ctx);
  auto* i64 = llvm::Type::getInt64Ty(ctx);
  std::vector<llvm::Type*> params{ptr, ptr, i32, i32, i32, ptr, i64, i64, i64};
  params.insert(params.end(), affine_slots, i32);
  auto* type = llvm::FunctionType::get(i32, params, false);
  Function* g =
      Function::Create(type, llvm::GlobalValue::InternalLinkage,
                       f.getName() + ".region" + std::to_string(r) +
                           (through_stops ? ".through" : "") + (affine_slots == 0 ? "" : ".affine"),
                       f.getParent());
  for (unsigned p = kArgs; p <= kZ; ++p) {
    map[f.getArg(p)] = g->getArg(p);
  }
  llvm::CloneFunctionInto(g, &f, map, llvm::CloneFunctionChangeType::LocalChangesOnly, returns);
  // No parameter is noalias: inlined into a pass's loop over threads, a noalias parameter
  // becomes an alias scope declared inside that loop, and LLVM's loop access analysis drops the
  // scope lists that name such a scope, those of MemorySpaces included. What the attribute would
  // say, MemorySpaces' scopes say.
  for (unsigned p : {kArgs, kBlock}) {  // written by no one while the block runs
    g->addParamAttr(p, llvm::Attribute::ReadOnly);
  }
  return g;
}

/// The clone's locals (`map`, from `f`'s) become their places in the frame, addressed with `b`
/// in the region `g`: returns {the addresses of layout.slots, those of layout.snapshots}.
std::pair<std::vector<Value*>, std::vector<Value*>> place_locals(Function& g,
                                                                 llvm::ValueToValueMapTy& map,
                                                                 const FrameLayout& layout,
                                                                 llvm::IRBuilder<>& b) {
  const auto move_to = [&](AllocaInst* original, Value* address) {
    auto* local = llvm::cast<AllocaInst>(map[original]);
    address->takeName(local);
    local->replaceAllUsesWith(address);
    local->eraseFromParent();
    return address;
  };
  std::vector<Value*> slot_addresses;
  slot_addresses.reserve(layout.slots.size());
  for (std::size_t k = 0; k < layout.slots.size(); ++k) {
    Value* owner = g.getArg(layout.keeps_uniform(k) ? kUniformTid : kTid);
    slot_addresses.push_back(
        move_to(layout.slots[k].alloca,
                slot_address(b, g.getArg(kFrame), g.getArg(kThreads), owner, layout.slots[k])));
  }
  std::vector<Value*> snapshot_addresses;
  snapshot_addresses.reserve(layout.snapshots.size());
  for (const Snapshot& snapshot : layout.snapshots) {
    snapshot_addresses.push_back(
        move_to(snapshot.alloca,
                snapshot_address(b, g.getArg(kFrame), g.getArg(kThreads), layout, snapshot)));
  }
  return {std::move(slot_addresses), std::move(snapshot_addresses)};
}

/// The region's thread returns at each barrier (its number) and at its end (kEnded); with
/// `through_stops`, it goes on past the loop stops. `map` and `returns` are the clone's of `f`.
void return_at_waits(Function& f, llvm::ValueToValueMapTy& map,
                     const std::vector<Barrier>& barriers, bool through_stops,
                     const llvm::SmallVectorImpl<llvm::ReturnInst*>& returns) {
  llvm::LLVMContext& ctx = f.getContext();
  auto* i32 = llvm::Type::getInt32Ty(ctx);
  for (std::size_t k = 0; k < barriers.size(); ++k) {
    auto* block = llvm::cast<BasicBlock>(map[barriers[k].block]);
    if (through_stops && barriers[k].stop) {
      block->getTerminator()->getPrevNode()->eraseFromParent();  // the stop's call
      continue;
    }
    block->getTerminator()->eraseFromParent();
    auto* wait = llvm::dyn_cast<llvm::CallInst>(&block->back());
    if (wait == nullptr || wait->getCalledFunction() == nullptr ||
        !wait->getCalledFunction()->hasFnAttribute(llvm::Attribute::Convergent)) {
      throw BackendError(
          fmt::format("kjit: internal error: barrier {} of '{}' does not end its block", k + 1,
                      f.getName().str()));
    }
    wait->eraseFromParent();  // the barrier call
    llvm::ReturnInst::Create(ctx, llvm::ConstantInt::get(i32, k + 1), block);
  }
  for (llvm::ReturnInst* ret : returns) {
    llvm::ReturnInst::Create(ctx, llvm::ConstantInt::get(i32, kEnded), ret->getIterator());
    ret->eraseFromParent();
  }
}

/// Region `g` reads base + tid where it read what its thread kept in one of the `affine` slots.
void read_affine(Function& g, const std::vector<std::size_t>& affine,
                 const std::vector<Value*>& slot_addresses) {
  auto* i32 = llvm::Type::getInt32Ty(g.getContext());
  for (std::size_t j = 0; j < affine.size(); ++j) {
    Value* base = g.getArg(static_cast<unsigned>(kUniformTid + 1 + j));
    for (llvm::LoadInst* load : loads_of_kept(slot_addresses[affine[j]])) {
      llvm::IRBuilder<> at(load);
      // No wrap: the pass checked that base + tid is what every thread kept, as an i32.
      load->replaceAllUsesWith(
          at.CreateAdd(base, at.CreateTrunc(g.getArg(kTid), i32), "kept.affine", false, true));
      load->eraseFromParent();
    }
  }
}

}  // namespace

Function* make_region(Function& f, unsigned r, const std::vector<Barrier>& barriers,
                      const FrameLayout& layout, bool through_stops,
                      const std::vector<std::size_t>& affine, std::vector<Value*>* slots) {
  llvm::ValueToValueMapTy map;
  llvm::SmallVector<llvm::ReturnInst*, 4> returns;
  Function* g = clone_region(f, r, through_stops, affine.size(), map, returns);
  BasicBlock* old_entry = &g->getEntryBlock();
  BasicBlock* entry = BasicBlock::Create(f.getContext(), "kjit.region", g, old_entry);
  llvm::IRBuilder<> b(entry);
  auto [slot_addresses, snapshot_addresses] = place_locals(*g, map, layout, b);
  b.CreateBr(r == 0 ? old_entry : llvm::cast<BasicBlock>(map[barriers[r - 1].resume]));
  return_at_waits(f, map, barriers, through_stops, returns);
  llvm::removeUnreachableBlocks(*g);
  track_uniform_values(layout, slot_addresses, snapshot_addresses, *entry);
  read_affine(*g, affine, slot_addresses);
  if (slots != nullptr) {
    *slots = std::move(slot_addresses);
  }
  return g;
}

std::vector<std::size_t> affine_candidates(const std::vector<Value*>& slot_addresses,
                                           const FrameLayout& layout) {
  std::vector<std::size_t> out;
  for (std::size_t k = 0; k < layout.slots.size(); ++k) {
    const AllocaInst* a = layout.slots[k].alloca;
    if (!layout.keeps_uniform(k) && a->getAllocatedType()->isIntegerTy(32) &&
        !a->isArrayAllocation() && layout.slots[k].stride == sizeof(std::int32_t) &&
        !loads_of_kept(slot_addresses[k]).empty()) {
      out.push_back(k);
    }
  }
  return out;
}

}  // namespace kjit::cpu::barrier_split
