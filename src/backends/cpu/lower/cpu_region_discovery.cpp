// The waits of a thread entry about to be split (barriers, warp meetings, loop stops), which
// blocks reach which past them, and the values a thread keeps across them.
#include "backends/cpu/lower/cpu_barrier_regions_internal.hpp"

#include <llvm/ADT/BitVector.h>
#include <llvm/ADT/DenseMap.h>
#include <llvm/IR/CFG.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>
#include <llvm/Transforms/Utils/BasicBlockUtils.h>

#include <cstddef>
#include <iterator>
#include <map>
#include <set>
#include <utility>
#include <vector>

namespace kjit::cpu::barrier_split {

namespace {

using llvm::AllocaInst;
using llvm::BasicBlock;
using llvm::Function;
using llvm::Instruction;
using llvm::Value;

/// Which blocks each block reaches, and which a barrier's threads reach without passing a
/// given block again.
class Reachability {
 public:
  Reachability(Function& f, const std::vector<Barrier>& barriers) : barriers_(barriers) {
    for (BasicBlock& b : f) {
      index_[&b] = static_cast<unsigned>(blocks_.size());
      blocks_.push_back(&b);
    }
    for (BasicBlock* b : blocks_) {
      forward_.push_back(walk(b, nullptr));
    }
  }

  /// Whether a value defined in `def` and used at the end of (or within) `use` may have passed
  /// a barrier in between: a barrier reachable from `def`, from which `use` is reachable without
  /// passing `def`.
  bool crosses_barrier(BasicBlock* def, BasicBlock* use) {
    if (def == use) {
      return false;
    }
    for (std::size_t k = 0; k < barriers_.size(); ++k) {
      if (!forward_[index_[def]].test(index_[barriers_[k].block])) {
        continue;
      }
      auto [it, inserted] = after_.try_emplace({k, def});
      if (inserted) {
        it->second = walk(barriers_[k].resume, def);
      }
      if (it->second.test(index_[use])) {
        return true;
      }
    }
    return false;
  }

 private:
  llvm::BitVector walk(BasicBlock* start, BasicBlock* avoid) {
    llvm::BitVector seen(static_cast<unsigned>(blocks_.size()));
    if (start == avoid) {
      return seen;
    }
    std::vector<BasicBlock*> work{start};
    seen.set(index_[start]);
    while (!work.empty()) {
      BasicBlock* b = work.back();
      work.pop_back();
      for (BasicBlock* next : llvm::successors(b)) {
        if (next != avoid && !seen.test(index_[next])) {
          seen.set(index_[next]);
          work.push_back(next);
        }
      }
    }
    return seen;
  }

  const std::vector<Barrier>& barriers_;
  std::vector<BasicBlock*> blocks_;
  llvm::DenseMap<BasicBlock*, unsigned> index_;
  std::vector<llvm::BitVector> forward_;
  std::map<std::pair<std::size_t, BasicBlock*>, llvm::BitVector> after_;
};

Instruction* use_point(llvm::Use& use) {
  auto* user = llvm::cast<Instruction>(use.getUser());
  if (auto* phi = llvm::dyn_cast<llvm::PHINode>(user)) {
    return phi->getIncomingBlock(use)->getTerminator();
  }
  return user;
}

}  // namespace

std::vector<Barrier> split_blocks_at(Function& f, Function& barrier, Function* warp,
                                     Function& stop) {
  std::vector<Barrier> out;
  std::vector<llvm::CallInst*> calls;  // out[k]'s call
  for (Function* kind : {&barrier, warp, &stop}) {
    if (kind == nullptr) {
      continue;
    }
    for (Instruction& i : llvm::instructions(f)) {
      if (auto* call = llvm::dyn_cast<llvm::CallInst>(&i);
          call != nullptr && call->getCalledFunction() == kind) {
        calls.push_back(call);
        out.push_back({nullptr, nullptr, kind == &stop, kind == warp});
      }
    }
  }
  // SplitBlock keeps the head of a block and moves the tail into a new one: a later split at a
  // wait earlier in the same block (a __syncwarp() right before a __syncthreads()) moves an
  // earlier wait's call out of the block it was split in. Each wait's block is known only once
  // all are split; its resume, the head of its tail, stays.
  for (std::size_t k = 0; k < calls.size(); ++k) {
    out[k].resume = llvm::SplitBlock(calls[k]->getParent(), calls[k]->getNextNode());
  }
  for (std::size_t k = 0; k < calls.size(); ++k) {
    out[k].block = calls[k]->getParent();
  }
  return out;
}

std::vector<bool> waits_after_divergent_ends(Function& f, const std::vector<Barrier>& barriers) {
  std::set<const BasicBlock*> syncs;  // blocks that end with a __syncthreads()
  std::map<const BasicBlock*, std::vector<std::size_t>> waits_in;
  for (std::size_t k = 0; k < barriers.size(); ++k) {
    if (!barriers[k].stop && !barriers[k].warp) {
      syncs.insert(barriers[k].block);
    }
    waits_in[barriers[k].block].push_back(k);
  }
  Rematerialiser(f).mark_invariant_loads(f);  // the kernel's arguments are the same in all
  const std::set<const Value*> divergent = divergence_of(f).values;
  std::vector<bool> out(barriers.size(), false);
  for (BasicBlock& b : f) {
    const Value* condition = branch_condition(b);
    if (condition == nullptr || divergent.count(condition) == 0) {
      continue;
    }
    // From the branch: whether the end is reached without a __syncthreads(), and which waits are
    // reached at all.
    bool ends = false;
    std::vector<const BasicBlock*> work(llvm::succ_begin(&b), llvm::succ_end(&b));
    std::set<const BasicBlock*> seen(work.begin(), work.end());
    while (!work.empty() && !ends) {
      const BasicBlock* x = work.back();
      work.pop_back();
      ends = llvm::isa<llvm::ReturnInst>(x->getTerminator());
      if (syncs.count(x) != 0) {
        continue;
      }
      for (const BasicBlock* next : llvm::successors(x)) {
        if (seen.insert(next).second) {
          work.push_back(next);
        }
      }
    }
    if (!ends) {
      continue;
    }
    work.assign(llvm::succ_begin(&b), llvm::succ_end(&b));
    seen.clear();
    seen.insert(work.begin(), work.end());
    while (!work.empty()) {
      const BasicBlock* x = work.back();
      work.pop_back();
      if (const auto it = waits_in.find(x); it != waits_in.end()) {
        for (const std::size_t k : it->second) {
          out[k] = true;
        }
      }
      for (const BasicBlock* next : llvm::successors(x)) {
        if (seen.insert(next).second) {
          work.push_back(next);
        }
      }
    }
  }
  return out;
}

std::vector<UniformSlot> keep_values_across(Function& f, const std::vector<Barrier>& barriers) {
  Reachability reach(f, barriers);
  Rematerialiser remat(f);
  remat.mark_invariant_loads(f);
  const std::set<const Value*> divergent = divergence_of(f).values;
  std::vector<UniformSlot> uniform;
  std::vector<Instruction*> defs;
  for (Instruction& i : llvm::instructions(f)) {
    if (!i.getType()->isVoidTy() && !llvm::isa<AllocaInst>(i)) {
      defs.push_back(&i);
    }
  }
  const llvm::DataLayout& dl = f.getParent()->getDataLayout();
  BasicBlock& entry = f.getEntryBlock();
  for (Instruction* def : defs) {
    std::vector<llvm::Use*> crossing;
    for (llvm::Use& use : def->uses()) {
      if (reach.crosses_barrier(def->getParent(), use_point(use)->getParent())) {
        crossing.push_back(&use);
      }
    }
    if (crossing.empty()) {
      continue;
    }
    if (remat.can(def)) {
      for (llvm::Use* use : crossing) {
        use->set(remat.copy_before(def, use_point(*use)));
      }
      continue;
    }
    auto* slot = new AllocaInst(def->getType(), dl.getAllocaAddrSpace(), nullptr,
                                dl.getPrefTypeAlign(def->getType()), def->getName() + ".kept",
                                entry.getFirstInsertionPt());
    const llvm::BasicBlock::iterator after = llvm::isa<llvm::PHINode>(def)
                                                 ? def->getParent()->getFirstInsertionPt()
                                                 : std::next(def->getIterator());
    new llvm::StoreInst(def, slot, after);
    AllocaInst* read_from = slot;
    if (divergent.count(def) == 0) {
      read_from = new AllocaInst(def->getType(), dl.getAllocaAddrSpace(), nullptr,
                                 dl.getPrefTypeAlign(def->getType()), def->getName() + ".uniform",
                                 entry.getFirstInsertionPt());
      uniform.push_back({slot, read_from});
    }
    for (llvm::Use* use : crossing) {
      use->set(new llvm::LoadInst(def->getType(), read_from, def->getName() + ".reload",
                                  use_point(*use)->getIterator()));
    }
  }
  return uniform;
}

}  // namespace kjit::cpu::barrier_split
