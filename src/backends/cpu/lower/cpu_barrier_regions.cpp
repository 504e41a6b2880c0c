#include "backends/cpu/lower/cpu_barrier_regions.hpp"

#include "backends/cpu/lower/cpu_ir_loops.hpp"
#include "backends/cpu/lower/cpu_loop_stops.hpp"
#include "backends/cpu/lower/cpu_pass_versions.hpp"
#include "backends/cpu/lower/cpu_thread_guards.hpp"
#include "backends/cpu/lower/cpu_thread_ranges.hpp"
#include "backends/cpu/lower/cpu_uniform_stores.hpp"
#include "backends/cpu/prelude/cpu_abi.h"
#include "backends/cpu/run/cpu_runtime_symbols.hpp"
#include "backends/llvm/llvm_setup.hpp"

#include <kjit/error.hpp>

#include <llvm/ADT/BitVector.h>
#include <llvm/ADT/DenseMap.h>
#include <llvm/ADT/PostOrderIterator.h>
#include <llvm/ADT/SetVector.h>
#include <llvm/Analysis/PostDominators.h>
#include <llvm/Analysis/ScopedNoAliasAA.h>
#include <llvm/Analysis/ValueTracking.h>
#include <llvm/Demangle/Demangle.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/MDBuilder.h>
#include <llvm/IR/Module.h>
#include <llvm/Transforms/Utils/BasicBlockUtils.h>
#include <llvm/Transforms/Utils/Cloning.h>
#include <llvm/Transforms/Utils/Local.h>

#include <fmt/format.h>

#include <cstddef>
#include <functional>
#include <limits>
#include <map>
#include <optional>
#include <utility>
#include <vector>

namespace kjit::cpu {

namespace {

using llvm::AllocaInst;
using llvm::BasicBlock;
using llvm::Function;
using llvm::Instruction;
using llvm::Value;

// The thread entry's parameters; region functions take the same, then kFrame..kUniformTid:
// the index of the thread whose slots hold the values the same in every thread (UniformSlot).
// A pass over all threads gives 0: they keep such a value once, not once per thread.
enum Param : unsigned { kArgs = 0, kBlock, kX, kY, kZ, kFrame, kThreads, kTid, kUniformTid };

// A region function returns the barrier its thread stopped at (1-based), or kEnded.
constexpr std::uint32_t kEnded = 0;
constexpr unsigned kMaxInlineRounds = 64;
// The frame is cache-line aligned (CpuExecutor); every slot and snapshot keeps its alignment.
constexpr std::uint64_t kFrameAlign = 64;

/// Inlines every call on the way to a barrier into `f`, so that `f` calls the barrier itself, and
/// the small and always-inline functions it calls (the builtins' accessors, the argument
/// unpacking), so that the thread's context and arguments become registers.
/// With `everything`, inlines every call that is not recursive, so that the loops of the kernel
/// and of the functions it calls are in `f`.
bool inline_calls(Function& f, const std::set<Function*>& barrier_users, bool everything,
                  std::string& why) {
  constexpr std::size_t kSmallFunction = 64;  // instructions
  const auto calls_itself = [](Function* g) {
    return llvm::any_of(llvm::instructions(*g), [g](Instruction& i) {
      auto* call = llvm::dyn_cast<llvm::CallBase>(&i);
      return call != nullptr && call->getCalledFunction() == g;
    });
  };
  std::set<llvm::CallBase*> refused;
  const auto wanted = [&](llvm::CallBase* call) {
    Function* callee = call->getCalledFunction();
    if (callee == nullptr || callee->isDeclaration() || callee == &f || refused.count(call) != 0) {
      return false;
    }
    return barrier_users.count(callee) != 0 ||
           ((everything || callee->hasFnAttribute(llvm::Attribute::AlwaysInline) ||
             callee->getInstructionCount() <= kSmallFunction) &&
            !calls_itself(callee));
  };
  for (unsigned round = 0; round < kMaxInlineRounds; ++round) {
    std::vector<llvm::CallBase*> calls;
    for (Instruction& i : llvm::instructions(f)) {
      if (auto* call = llvm::dyn_cast<llvm::CallBase>(&i); call != nullptr && wanted(call)) {
        calls.push_back(call);
      }
    }
    if (calls.empty()) {
      return true;
    }
    for (llvm::CallBase* call : calls) {
      Function* callee = call->getCalledFunction();
      llvm::InlineFunctionInfo info;
      if (llvm::InlineFunction(*call, info).isSuccess()) {
        continue;
      }
      refused.insert(call);
      if (barrier_users.count(callee) != 0) {
        why = fmt::format(
            "'{}', which reaches __syncthreads() or a warp-level operation, cannot be "
            "inlined",
            llvm::demangle(callee->getName().str()));
        return false;
      }
    }
  }
  for (Instruction& i : llvm::instructions(f)) {
    if (auto* call = llvm::dyn_cast<llvm::CallBase>(&i);
        call != nullptr && call->getCalledFunction() != nullptr &&
        barrier_users.count(call->getCalledFunction()) != 0) {
      why = "recursion reaches __syncthreads() or a warp-level operation";
      return false;
    }
  }
  return true;
}

/// Caps the unroll count that `#pragma unroll N` asks for, in a kernel about to be split: each of
/// its regions is copied into several passes and runs inside a loop over the threads, so that a
/// large count multiplies the code the optimiser and the code generator work through (nbody's
/// `#pragma unroll 128` took seconds to compile) without making the loop over threads faster.
void limit_unrolling(Function& f) {
  constexpr std::uint64_t kMaxUnroll = 8;
  llvm::LLVMContext& ctx = f.getContext();
  for (BasicBlock& b : f) {
    Instruction* term = b.getTerminator();
    llvm::MDNode* loop = term != nullptr ? term->getMetadata(llvm::LLVMContext::MD_loop) : nullptr;
    if (loop == nullptr) {
      continue;
    }
    bool changed = false;
    llvm::SmallVector<llvm::Metadata*, 4> ops{nullptr};  // the loop ID refers to itself first
    for (unsigned i = 1; i < loop->getNumOperands(); ++i) {
      llvm::Metadata* op = loop->getOperand(i);
      auto* node = llvm::dyn_cast<llvm::MDNode>(op);
      auto* name = node != nullptr && node->getNumOperands() == 2
                       ? llvm::dyn_cast<llvm::MDString>(node->getOperand(0))
                       : nullptr;
      if (name != nullptr && name->getString() == "llvm.loop.unroll.count") {
        auto* count = llvm::mdconst::dyn_extract<llvm::ConstantInt>(node->getOperand(1));
        if (count != nullptr && count->getZExtValue() > kMaxUnroll) {
          op = llvm::MDNode::get(ctx, {name, llvm::ConstantAsMetadata::get(llvm::ConstantInt::get(
                                                 count->getType(), kMaxUnroll))});
          changed = true;
        }
      }
      ops.push_back(op);
    }
    if (changed) {
      llvm::MDNode* capped = llvm::MDNode::getDistinct(ctx, ops);
      capped->replaceOperandWith(0, capped);
      term->setMetadata(llvm::LLVMContext::MD_loop, capped);
    }
  }
}

/// SROA and friends on the inlined entry: what stays in SSA registers needs no frame slot.
/// InstCombine as the optimisation pipelines run it: a textual "instcombine" asks it to verify
/// that one iteration reached a fixpoint, a fatal error where it does not (a warp shuffle's
/// lane arithmetic did).
void simplify(Function& f) {
  llvm_setup::run_function_passes(f,
                                  "sroa<modify-cfg>,early-cse<memssa>,gvn,"
                                  "instcombine<no-verify-fixpoint>,dse,sroa<modify-cfg>,"
                                  "instcombine<no-verify-fixpoint>,simplifycfg");
}

/// The construct that keeps `f` from being split, or an empty string.
std::string unsplittable(Function& f) {
  for (Instruction& i : llvm::instructions(f)) {
    if (auto* a = llvm::dyn_cast<AllocaInst>(&i)) {
      const std::optional<llvm::TypeSize> size =
          a->getAllocationSize(f.getParent()->getDataLayout());
      if (!a->isStaticAlloca() || !size || size->isScalable()) {
        return "a local variable of variable size";
      }
      if (a->getAlign().value() > kFrameAlign) {
        return fmt::format("a local variable aligned to {} bytes (the frame guarantees {})",
                           a->getAlign().value(), kFrameAlign);
      }
    }
    if (llvm::isa<llvm::InvokeInst, llvm::CallBrInst, llvm::IndirectBrInst>(&i)) {
      return fmt::format("'{}' control flow", i.getOpcodeName());
    }
  }
  return {};
}

struct Barrier {
  BasicBlock* block;   // ends with the barrier call, then a branch to `resume`
  BasicBlock* resume;  // where the threads go on once all have arrived
  bool stop;           // a loop stop (cpu_loop_stops.hpp), not a __syncthreads()
  bool warp;           // where a warp's lanes meet (__kjit_warp_wait), not a __syncthreads()
};

/// The barriers, then where warps meet, then the loop stops: states 1..barriers are
/// __syncthreads(), the next `warps` states warp meetings, the states above them loop stops.
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

/// Values every thread of a block can recompute after a barrier instead of keeping them: pure
/// arithmetic on the thread's coordinates, the block record and the kernel's arguments (which
/// no kernel can write).
class Rematerialiser {
 public:
  explicit Rematerialiser(Function& f) : args_(f.getArg(kArgs)), block_(f.getArg(kBlock)) {}

  bool can(Value* v, unsigned depth = 0) {
    if (llvm::isa<llvm::Argument, llvm::Constant>(v)) {
      return true;
    }
    auto* i = llvm::dyn_cast<Instruction>(v);
    constexpr unsigned kMaxDepth = 12;
    if (i == nullptr || depth > kMaxDepth || llvm::isa<llvm::PHINode, AllocaInst>(i)) {
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

  /// Marks the loads of memory no kernel writes as invariant, so that the optimiser may hoist
  /// them out of the loops over threads.
  void mark_invariant_loads(Function& f) const {
    for (Instruction& i : llvm::instructions(f)) {
      if (auto* load = llvm::dyn_cast<llvm::LoadInst>(&i);
          load != nullptr && load->isSimple() && invariant(load->getPointerOperand())) {
        load->setMetadata(llvm::LLVMContext::MD_invariant_load,
                          llvm::MDNode::get(f.getContext(), {}));
      }
    }
  }

  /// A copy of `v`'s computation, placed before `where`.
  Value* copy_before(Value* v, Instruction* where) {
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

 private:
  /// Memory no kernel writes: the block record, the argument pointer table, the arguments.
  bool invariant(Value* pointer) const {
    const Value* base = llvm::getUnderlyingObject(pointer);
    if (base == args_ || base == block_) {
      return true;
    }
    const auto* slot = llvm::dyn_cast<llvm::LoadInst>(base);
    return slot != nullptr && llvm::getUnderlyingObject(slot->getPointerOperand()) == args_;
  }

  Value* args_;
  Value* block_;
  llvm::DenseMap<Instruction*, bool> known_;
};

/// A value the same in every thread, kept across a barrier: each thread stores it to its own
/// slot; a pass over the threads copies one thread's slot to the snapshot first, and the loads
/// that cannot see a store of this pass read the snapshot, which stays put during the pass.
struct UniformSlot {
  AllocaInst* slot;
  AllocaInst* snapshot;
};

/// Alias scopes for the kinds of memory a region touches: the block's shared memory, the frame
/// (what were the thread's locals, and their states), the frame's slots of uniform values, its
/// snapshots, and what the kernel's arguments point to. None overlaps another: a kernel argument
/// cannot point into shared memory or into kjit's frame, and the frame's parts lie apart. Without
/// them, a loop over threads that loads global memory at addresses that are not affine functions
/// of the thread, and stores shared memory or the frame, cannot be vectorised; and the one slot
/// that a pass over all threads keeps a uniform value in (kUniformTid) could be any thread's.
class MemorySpaces {
 public:
  MemorySpaces(Function& f, const std::vector<UniformSlot>& uniform)
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

  /// Adds scopes to every load, store and atomic of `f` whose memory is known.
  void annotate(Function& f) const {
    for (Instruction& i : llvm::instructions(f)) {
      if (const Value* pointer = accessed_pointer(i)) {
        const Space space = space_of(pointer);
        if (space != Space::unknown) {
          add(i, scope_of(space), others(space));
        }
      }
    }
  }

  /// For kjit's own accesses to the threads' states.
  void annotate_frame_access(Instruction& i) const { set(i, Space::frame); }

  /// Inlining a region into its pass gives the region's scopes fresh copies; this puts the
  /// originals back, so that the pass's own accesses to the frame (the threads' states) are in
  /// the same scope as the region's, and known not to alias what the region reads elsewhere.
  void restore_after_inlining(Function& f) const {
    const auto original = [&](const llvm::MDNode* scope) -> const llvm::MDNode* {
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
    };
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

 private:
  static constexpr const char* kDomain = "kjit.memory";

  // warp: the block's warp area (cpu_prelude_warp.h), which only warp-level operations touch.
  enum class Space { unknown, shared, frame, uniform, snapshot, warp, global };

  [[nodiscard]] llvm::MDNode* scope_of(Space space) const {
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

  /// The scopes of every known space but `space`.
  [[nodiscard]] llvm::MDNode* others(Space space) const {
    llvm::MDNode* out = nullptr;
    for (const Space s :
         {Space::shared, Space::frame, Space::uniform, Space::snapshot, Space::warp}) {
      if (s != space) {
        out = llvm::MDNode::concatenate(out, scope_of(s));
      }
    }
    return out;
  }

  void set(Instruction& i, Space space) const {
    i.setMetadata(llvm::LLVMContext::MD_alias_scope, scope_of(space));
    i.setMetadata(llvm::LLVMContext::MD_noalias, others(space));
  }

  static void add(Instruction& i, llvm::MDNode* scope, llvm::MDNode* noalias) {
    if (scope != nullptr) {
      i.setMetadata(
          llvm::LLVMContext::MD_alias_scope,
          llvm::MDNode::concatenate(i.getMetadata(llvm::LLVMContext::MD_alias_scope), scope));
    }
    i.setMetadata(llvm::LLVMContext::MD_noalias,
                  llvm::MDNode::concatenate(i.getMetadata(llvm::LLVMContext::MD_noalias), noalias));
  }

  /// Whether `v` is a load from `base` plus a constant; its offset goes to `offset`.
  bool loaded_from(const Value* v, const Value* base, std::int64_t& offset) const {
    const auto* load = llvm::dyn_cast<llvm::LoadInst>(v);
    return load != nullptr &&
           llvm::GetPointerBaseWithConstantOffset(load->getPointerOperand(), offset, dl_) == base;
  }

  Space space_of(const Value* pointer) const {
    const Value* object = llvm::getUnderlyingObject(pointer);
    if (llvm::isa<AllocaInst>(object)) {
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

  const Value* args_;
  const Value* block_;
  const llvm::DataLayout& dl_;
  std::set<const Value*> snapshots_;
  std::set<const Value*> uniform_slots_;
  llvm::MDNode* shared_ = nullptr;
  llvm::MDNode* frame_ = nullptr;
  llvm::MDNode* uniform_ = nullptr;
  llvm::MDNode* snapshot_ = nullptr;
  llvm::MDNode* warp_ = nullptr;
};

Instruction* use_point(llvm::Use& use) {
  auto* user = llvm::cast<Instruction>(use.getUser());
  if (auto* phi = llvm::dyn_cast<llvm::PHINode>(user)) {
    return phi->getIncomingBlock(use)->getTerminator();
  }
  return user;
}

/// What may differ between the threads of a block, conservatively: values (the thread's
/// coordinates and index, loads of memory kernels write, calls, addresses of locals, what depends
/// on them, and everything computed under a branch on them), and the blocks under such a branch,
/// up to where its arms join (where the join's phis differ too). The rest is the same in every
/// thread. In a region, a load from the frame is the same in every thread where its address is:
/// a snapshot, or thread 0's slot of a uniform value in a pass over all threads.
struct Divergence {
  std::set<const Value*> values;
  std::set<const BasicBlock*> blocks;
};

Divergence divergence_of(Function& f) {
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
      } else if (llvm::isa<AllocaInst, llvm::AtomicRMWInst, llvm::AtomicCmpXchgInst>(i)) {
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
      const Instruction* term = b.getTerminator();
      const Value* condition = nullptr;
      if (const auto* br = llvm::dyn_cast<llvm::BranchInst>(term);
          br != nullptr && br->isConditional()) {
        condition = br->getCondition();
      } else if (const auto* sw = llvm::dyn_cast<llvm::SwitchInst>(term)) {
        condition = sw->getCondition();
      }
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

/// Whether every thread that runs `region` in a pass returns the same state: no return is under
/// a branch that may differ between threads.
bool returns_alike(Function& region) {
  const Divergence divergence = divergence_of(region);
  return llvm::none_of(region, [&](const BasicBlock& b) {
    return llvm::isa<llvm::ReturnInst>(b.getTerminator()) && divergence.blocks.count(&b) != 0;
  });
}

/// Makes every value that crosses a barrier either recomputed where it is used, or stored in a
/// stack slot (which becomes a frame slot) when it is defined and loaded where it is used.
std::vector<UniformSlot> keep_values_across(Function& f, Reachability& reach) {
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

/// A thread's slots: slot k of thread t is at frame + offset_k * threads + t * stride_k.
struct FrameSlot {
  AllocaInst* alloca;  // null for the thread's state
  std::uint64_t offset;
  std::uint64_t stride;
};

/// A uniform value's snapshot: one per block, after every thread's slots.
struct Snapshot {
  AllocaInst* alloca;
  std::size_t slot;  // index in FrameLayout::slots of the slot it copies
  std::uint64_t offset;
  std::uint64_t bytes;
};

struct FrameLayout {
  std::vector<FrameSlot> slots;
  FrameSlot state{};
  std::vector<Snapshot> snapshots;
  std::uint64_t thread_bytes = 0;      // per thread: the slots, then the state
  std::uint64_t bytes_per_thread = 0;  // what the executor reserves: also room for the snapshots

  /// Whether slot k keeps a value the same in every thread (it has a snapshot).
  [[nodiscard]] bool keeps_uniform(std::size_t k) const {
    return llvm::any_of(snapshots, [k](const Snapshot& s) { return s.slot == k; });
  }
};

FrameLayout lay_out_frame(Function& f, const std::vector<UniformSlot>& uniform) {
  const llvm::DataLayout& dl = f.getParent()->getDataLayout();
  FrameLayout layout;
  std::uint64_t cursor = 0;
  const auto place = [&](AllocaInst* a, std::uint64_t size, std::uint64_t align) {
    cursor = llvm::alignTo(cursor, align);
    const FrameSlot slot{a, cursor, llvm::alignTo(size, align)};
    cursor += slot.stride;
    return slot;
  };
  const auto size_of = [&](AllocaInst* a) {
    const std::optional<llvm::TypeSize> size = a->getAllocationSize(dl);
    return std::max<std::uint64_t>(size && !size->isScalable() ? size->getFixedValue() : 0, 1);
  };
  const auto is_snapshot = [&](AllocaInst* a) {
    return llvm::any_of(uniform, [a](const UniformSlot& u) { return u.snapshot == a; });
  };
  for (Instruction& i : f.getEntryBlock()) {
    if (auto* a = llvm::dyn_cast<AllocaInst>(&i); a != nullptr && !is_snapshot(a)) {
      layout.slots.push_back(place(a, size_of(a), a->getAlign().value()));
    }
  }
  layout.state = place(nullptr, sizeof(std::uint32_t), alignof(std::uint32_t));
  layout.thread_bytes = llvm::alignTo(cursor, kFrameAlign);
  cursor = 0;
  for (const UniformSlot& u : uniform) {
    const auto slot = static_cast<std::size_t>(
        llvm::find_if(layout.slots, [&](const FrameSlot& s) { return s.alloca == u.slot; }) -
        layout.slots.begin());
    const FrameSlot placed = place(u.snapshot, size_of(u.snapshot), u.snapshot->getAlign().value());
    layout.snapshots.push_back({u.snapshot, slot, placed.offset, placed.stride});
  }
  layout.bytes_per_thread = layout.thread_bytes + llvm::alignTo(cursor, kFrameAlign);
  return layout;
}

Value* slot_address(llvm::IRBuilder<>& b, Value* frame, Value* threads, Value* tid,
                    const FrameSlot& slot) {
  Value* offset = b.CreateAdd(b.CreateMul(b.getInt64(slot.offset), threads),
                              b.CreateMul(tid, b.getInt64(slot.stride)));
  return b.CreateInBoundsGEP(b.getInt8Ty(), frame, offset);
}

Value* snapshot_address(llvm::IRBuilder<>& b, Value* frame, Value* threads,
                        const FrameLayout& layout, const Snapshot& snapshot) {
  Value* offset = b.CreateAdd(b.CreateMul(b.getInt64(layout.thread_bytes), threads),
                              b.getInt64(snapshot.offset));
  return b.CreateInBoundsGEP(b.getInt8Ty(), frame, offset);
}

/// A new function in `f`'s module with `f`'s function attributes (target CPU and features: the
/// inliner merges only functions that agree on them).
Function* function_like(Function& f, llvm::FunctionType* type,
                        llvm::GlobalValue::LinkageTypes linkage, const std::string& name) {
  Function* g = Function::Create(type, linkage, name, f.getParent());
  g->setAttributes(
      llvm::AttributeList::get(f.getContext(), llvm::AttributeList::FunctionIndex,
                               llvm::AttrBuilder(f.getContext(), f.getAttributes().getFnAttrs())));
  return g;
}

/// Moves the loads of memory no kernel writes (the block record, the argument table and the
/// arguments), and the arithmetic on them and on `g`'s parameters, to `g`'s entry: out of the
/// loops over threads of a pass. LLVM cannot hoist such a load from one arm of a branch itself
/// (it does not know the memory is always there to read), and a base pointer loaded in the loop
/// keeps it from computing the bounds of the loop's accesses, and so from vectorising the loop.
void hoist_invariant_loads(Function& g) {
  BasicBlock& entry = g.getEntryBlock();
  std::set<const Value*> ready;
  const auto available = [&](const Value* v) {
    return llvm::isa<llvm::Argument, llvm::Constant>(v) || ready.count(v) != 0;
  };
  llvm::ReversePostOrderTraversal<Function*> order(&g);
  for (BasicBlock* b : order) {
    for (Instruction& i : llvm::make_early_inc_range(*b)) {
      const auto* load = llvm::dyn_cast<llvm::LoadInst>(&i);
      const bool movable =
          load != nullptr
              ? load->isSimple() && load->hasMetadata(llvm::LLVMContext::MD_invariant_load)
              : !i.mayReadOrWriteMemory() && !llvm::isa<llvm::PHINode>(i) &&
                    llvm::isSafeToSpeculativelyExecute(&i);
      if (!movable || !llvm::all_of(i.operands(), available)) {
        continue;
      }
      ready.insert(&i);
      if (b != &entry) {
        i.moveBefore(entry.getTerminator());
      }
    }
  }
}

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

/// Region r of `f`: a thread that starts at the entry (r = 0) or resumes after barrier r, and
/// runs to its next barrier (returns its number) or to its end (returns kEnded). With
/// `through_stops`, the thread goes on past loop stops, up to a barrier or its end. For each slot
/// in `affine` (indices in layout.slots), the region takes one more parameter, an i32 `base`,
/// and reads base + tid instead of what the thread kept in that slot (see AffineRegion).
/// `slots`, if given, receives the address of each of layout.slots in the region.
Function* make_region(Function& f, unsigned r, const std::vector<Barrier>& barriers,
                      const FrameLayout& layout, bool through_stops,
                      const std::vector<std::size_t>& affine = {},
                      std::vector<Value*>* slots = nullptr) {
  llvm::LLVMContext& ctx = f.getContext();
  auto* ptr = llvm::PointerType::get(ctx, 0);
  auto* i32 = llvm::Type::getInt32Ty(ctx);
  auto* i64 = llvm::Type::getInt64Ty(ctx);
  std::vector<llvm::Type*> params{ptr, ptr, i32, i32, i32, ptr, i64, i64, i64};
  params.insert(params.end(), affine.size(), i32);
  auto* type = llvm::FunctionType::get(i32, params, false);
  Function* g =
      Function::Create(type, llvm::GlobalValue::InternalLinkage,
                       f.getName() + ".region" + std::to_string(r) +
                           (through_stops ? ".through" : "") + (affine.empty() ? "" : ".affine"),
                       f.getParent());
  llvm::ValueToValueMapTy map;
  for (unsigned p = kArgs; p <= kZ; ++p) {
    map[f.getArg(p)] = g->getArg(p);
  }
  llvm::SmallVector<llvm::ReturnInst*, 4> returns;
  llvm::CloneFunctionInto(g, &f, map, llvm::CloneFunctionChangeType::LocalChangesOnly, returns);
  // No parameter is noalias: inlined into a pass's loop over threads, a noalias parameter
  // becomes an alias scope declared inside that loop, and LLVM's loop access analysis drops the
  // scope lists that name such a scope, those of MemorySpaces included. What the attribute would
  // say, MemorySpaces' scopes say.
  for (unsigned p : {kArgs, kBlock}) {  // written by no one while the block runs
    g->addParamAttr(p, llvm::Attribute::ReadOnly);
  }

  BasicBlock* old_entry = &g->getEntryBlock();
  BasicBlock* entry = BasicBlock::Create(ctx, "kjit.region", g, old_entry);
  llvm::IRBuilder<> b(entry);
  // The clone's locals become their places in the frame.
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
    Value* owner = g->getArg(layout.keeps_uniform(k) ? kUniformTid : kTid);
    slot_addresses.push_back(
        move_to(layout.slots[k].alloca,
                slot_address(b, g->getArg(kFrame), g->getArg(kThreads), owner, layout.slots[k])));
  }
  std::vector<Value*> snapshot_addresses;
  snapshot_addresses.reserve(layout.snapshots.size());
  for (const Snapshot& snapshot : layout.snapshots) {
    snapshot_addresses.push_back(
        move_to(snapshot.alloca,
                snapshot_address(b, g->getArg(kFrame), g->getArg(kThreads), layout, snapshot)));
  }
  b.CreateBr(r == 0 ? old_entry : llvm::cast<BasicBlock>(map[barriers[r - 1].resume]));
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
  llvm::removeUnreachableBlocks(*g);
  track_uniform_values(layout, slot_addresses, snapshot_addresses, *entry);
  for (std::size_t j = 0; j < affine.size(); ++j) {
    Value* base = g->getArg(static_cast<unsigned>(kUniformTid + 1 + j));
    for (llvm::LoadInst* load : loads_of_kept(slot_addresses[affine[j]])) {
      llvm::IRBuilder<> at(load);
      // No wrap: the pass checked that base + tid is what every thread kept, as an i32.
      load->replaceAllUsesWith(
          at.CreateAdd(base, at.CreateTrunc(g->getArg(kTid), i32), "kept.affine", false, true));
      load->eraseFromParent();
    }
  }
  if (slots != nullptr) {
    *slots = std::move(slot_addresses);
  }
  return g;
}

/// The slots of region r's own loads (in layout.slots) that may hold, in every thread, the
/// first thread's value plus the thread's index: a grid-stride loop's index at its stop. Only
/// i32 slots of values that differ between threads.
/// `slot_addresses` are the region's addresses of layout.slots (make_region's `slots`).
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

enum class PassMode {
  all,      // every thread runs the region (inlined: the loop may be vectorised)
  any,      // each thread that has not ended runs the region it waits for (called)
  through,  // each thread at a loop stop runs on to its next barrier or its end (called)
  warp,     // each thread at a warp meeting runs on to its next barrier or its end (called)
};

/// A region that reads some kept i32 values as base + tid (make_region's `affine`), for the
/// passes in which every thread's kept value is the first thread's plus its index, checked when
/// the pass starts. In a grid-stride loop run in step, each thread's index is kept at the stop
/// as such a value: read that way, LLVM loads the threads' elements as a vector, not a gather.
struct AffineRegion {
  Function* region = nullptr;
  std::vector<std::size_t> slots;  // in FrameLayout::slots, one base parameter each
};

/// A kernel's regions: regions[r] starts at the entry (r = 0) or after barrier r; through[r],
/// for a loop stop r, goes on past stops (null for the others); affine[r], for a loop stop r,
/// as above (no region where no candidate slot is read). Of the regions that passes run over all
/// threads (those, the affine ones and the guards' copies): `guards`, those with a ThreadGuard;
/// `alike`, those whose threads all return the same state (returns_alike).
struct Regions {
  unsigned barriers = 0;  // states 1..barriers: __syncthreads()
  unsigned warps = 0;     // the next states: warp meetings; above them, loop stops
  std::vector<Function*> regions;
  std::vector<Function*> through;
  std::vector<AffineRegion> affine;
  std::map<const Function*, ThreadGuard> guards;
  std::set<const Function*> alike;

  /// Whether the kernel has a loop in step: then its blocks can take turns (cpu_abi.h).
  [[nodiscard]] bool has_stops() const {
    return llvm::any_of(through, [](const Function* g) { return g != nullptr; });
  }
};

/// One pass over the block's threads. Returns {min state, min state of threads that have not
/// ended, max state}; a state is the barrier a thread waits at, or kEnded.
Function* make_pass(Function& f, const Regions& code, unsigned r, PassMode mode,
                    const FrameLayout& layout, const MemorySpaces& spaces, bool over_live = false) {
  llvm::LLVMContext& ctx = f.getContext();
  auto* ptr = llvm::PointerType::get(ctx, 0);
  auto* i32 = llvm::Type::getInt32Ty(ctx);
  auto* i64 = llvm::Type::getInt64Ty(ctx);
  auto* result = llvm::StructType::get(ctx, {i32, i32, i32});
  std::vector<llvm::Type*> parameters{ptr, ptr, ptr, i64, i32, i32, i32};
  if (over_live) {
    parameters.insert(parameters.end(), {i32, i32});  // the live threads' x: [first, end)
  }
  auto* type = llvm::FunctionType::get(result, parameters, false);
  const char* suffix = over_live                   ? "live"
                       : mode == PassMode::all     ? "all"
                       : mode == PassMode::any     ? "any"
                       : mode == PassMode::through ? "through"
                                                   : "warp";
  Function* pass = function_like(f, type, llvm::GlobalValue::InternalLinkage,
                                 fmt::format("{}.pass{}.{}", f.getName().str(), r, suffix));
  Value* args = pass->getArg(0);
  Value* block = pass->getArg(1);
  Value* frame = pass->getArg(2);
  Value* threads = pass->getArg(3);
  Value* nx = pass->getArg(4);
  Value* ny = pass->getArg(5);
  Value* nz = pass->getArg(6);
  Value* live_first = over_live ? pass->getArg(7) : nullptr;
  Value* live_end = over_live ? pass->getArg(8) : nullptr;
  llvm::IRBuilder<> b(BasicBlock::Create(ctx, "entry", pass));
  Value* states = slot_address(b, frame, threads, b.getInt64(0), layout.state);
  // The thread whose slots hold the values the same in every thread of a pass over all threads:
  // thread 0, or the first live one in a pass over the live threads.
  Value* holder = over_live ? b.CreateZExt(live_first, i64) : b.getInt64(0);
  // A pass that runs the threads at warp meetings on leaves those the runtime holds where they
  // are (kjit_cpu_warp_release): their flags in the warp area (cpu_abi.h).
  Value* held_flags = nullptr;
  if (mode == PassMode::warp) {
    Value* area = b.CreateLoad(
        ptr, b.CreateConstInBoundsGEP1_64(b.getInt8Ty(), block, offsetof(kjit_cpu_block, warp)),
        "warp_area");
    Value* n = b.CreateAnd(b.CreateAdd(threads, b.getInt64(KJIT_CPU_WARP_LANES - 1)),
                           b.getInt64(~std::uint64_t{KJIT_CPU_WARP_LANES - 1}));
    held_flags = b.CreateInBoundsGEP(
        b.getInt8Ty(), area,
        b.CreateAdd(
            b.getInt64(KJIT_CPU_WARP_HELD_AT(0)),
            b.CreateMul(n, b.getInt64(KJIT_CPU_WARP_HELD_AT(1) - KJIT_CPU_WARP_HELD_AT(0)))),
        "held_flags");
  }
  // The uniform values every thread of the pass reads: thread 0's (all threads are at one
  // barrier), or, when each thread runs its own region, the running thread's.
  const auto take_snapshots = [&](Value* tid) {
    for (const Snapshot& snapshot : layout.snapshots) {
      const FrameSlot& slot = layout.slots[snapshot.slot];
      b.CreateMemCpy(snapshot_address(b, frame, threads, layout, snapshot), llvm::Align(1),
                     slot_address(b, frame, threads, tid, slot), llvm::Align(1), snapshot.bytes);
    }
  };
  if (mode == PassMode::all && r != 0) {
    take_snapshots(holder);
  }
  const AffineRegion* affine = mode == PassMode::all && !over_live && r < code.affine.size() &&
                                       code.affine[r].region != nullptr
                                   ? &code.affine[r]
                                   : nullptr;
  // Where the threads of a guarded region change sides (ThreadGuard), computed once.
  std::map<const Function*, Value*> splits;
  if (mode == PassMode::all) {
    for (Function* region : {code.regions[r], affine != nullptr ? affine->region : nullptr}) {
      const auto guard = code.guards.find(region);
      if (guard == code.guards.end()) {
        continue;
      }
      llvm::ValueToValueMapTy params;
      params[region->getArg(kArgs)] = args;
      params[region->getArg(kBlock)] = block;
      params[region->getArg(kFrame)] = frame;
      params[region->getArg(kThreads)] = threads;
      splits[region] = emit_split(b, guard->second, params, nx);
    }
  }

  std::vector<llvm::CallInst*> inlined;
  std::vector<Value*> region_extra;  // the bases of an affine region
  const auto call_region = [&](Function* region, Value* x, Value* y, Value* z, Value* tid) {
    Value* uniform_tid = mode == PassMode::all ? holder : tid;
    std::vector<Value*> call_args{args, block, x, y, z, frame, threads, tid, uniform_tid};
    if (region->arg_size() > call_args.size()) {
      call_args.insert(call_args.end(), region_extra.begin(), region_extra.end());
    }
    llvm::CallInst* call = b.CreateCall(region, call_args);
    call->addFnAttr(mode == PassMode::all ? llvm::Attribute::AlwaysInline
                                          : llvm::Attribute::NoInline);
    if (mode == PassMode::all) {
      inlined.push_back(call);
    }
    return call;
  };
  Function* all_region = code.regions[r];
  std::vector<Value*> xs;  // of the loops over threads that run regions inlined
  const auto thread = [&](Value* x, Value* y, Value* z) -> Value* {
    Value* tid = b.CreateAdd(
        b.CreateMul(b.CreateAdd(b.CreateMul(b.CreateZExt(z, i64), b.CreateZExt(ny, i64)),
                                b.CreateZExt(y, i64)),
                    b.CreateZExt(nx, i64)),
        b.CreateZExt(x, i64), "tid");
    Value* state_address = b.CreateInBoundsGEP(i32, states, tid);
    Value* next = nullptr;
    if (mode == PassMode::all) {
      xs.push_back(x);
      next = call_region(all_region, x, y, z, tid);
    } else {
      auto* state = b.CreateLoad(i32, state_address, "state");
      spaces.annotate_frame_access(*state);
      BasicBlock* from = b.GetInsertBlock();
      BasicBlock* join = BasicBlock::Create(ctx, "kjit.thread.done", pass);
      std::vector<std::pair<BasicBlock*, Value*>> incoming{{from, state}};
      const auto run = [&](Function* region) {
        BasicBlock* body = BasicBlock::Create(ctx, "kjit.thread.run", pass, join);
        b.SetInsertPoint(body);
        take_snapshots(tid);  // only a thread that runs reads them
        Value* v = call_region(region, x, y, z, tid);
        b.CreateBr(join);
        incoming.emplace_back(b.GetInsertBlock(), v);
        return body;
      };
      const std::vector<Function*>& runs = mode == PassMode::through ? code.through : code.regions;
      const auto runs_at = [&](unsigned k) {  // a warp pass holds the threads at barriers
        return mode != PassMode::warp || (k > code.barriers && k <= code.barriers + code.warps);
      };
      Value* at = state;
      if (held_flags != nullptr) {  // a held thread runs nothing: state 0 has no case
        Value* held = b.CreateLoad(i32, b.CreateInBoundsGEP(i32, held_flags, tid), "held");
        at = b.CreateSelect(b.CreateICmpNE(held, b.getInt32(0)), b.getInt32(0), state);
      }
      llvm::SwitchInst* sw = b.CreateSwitch(at, join, static_cast<unsigned>(runs.size()));
      for (unsigned k = 1; k < runs.size(); ++k) {
        if (runs[k] != nullptr && runs_at(k)) {
          sw->addCase(b.getInt32(k), run(runs[k]));
        }
      }
      b.SetInsertPoint(join);
      llvm::PHINode* phi = b.CreatePHI(i32, static_cast<unsigned>(incoming.size()), "next");
      for (auto& [pred, value] : incoming) {
        phi->addIncoming(value, pred);
      }
      next = phi;
    }
    // A pass whose threads all return one state needs no record of each: the next pass runs
    // over all threads too (make_driver).
    if (mode != PassMode::all || code.alike.count(all_region) == 0) {
      spaces.annotate_frame_access(*b.CreateStore(next, state_address));
    }
    return next;
  };

  // The threads of a pass share nothing through memory that a barrier does not order (any other
  // exchange is a data race, as on a GPU), so the loop over threads carries no dependence
  // through its loads and stores. Said to LLVM, it vectorises without checking at run time that
  // the threads' accesses do not overlap, a check that fails whenever they do but are masked off
  // (a reduction tree's `if (t < stride) s[t] += s[t + stride]`).
  llvm::MDNode* accesses = mode == PassMode::all ? llvm::MDNode::getDistinct(ctx, {}) : nullptr;
  const auto new_loop_id = [&]() -> llvm::MDNode* {
    if (accesses == nullptr) {
      return nullptr;
    }
    llvm::TempMDTuple placeholder = llvm::MDNode::getTemporary(ctx, {});
    llvm::MDNode* id = llvm::MDNode::getDistinct(
        ctx, {placeholder.get(),
              llvm::MDNode::get(
                  ctx, {llvm::MDString::get(ctx, "llvm.loop.parallel_accesses"), accesses}),
              llvm::MDNode::get(ctx, {llvm::MDString::get(ctx, "llvm.loop.interleave.count"),
                                      llvm::ConstantAsMetadata::get(b.getInt32(1))})});
    id->replaceOperandWith(0, id);
    return id;
  };
  // The states the threads reach: as a set of bits where there are at most 64 states (an or over
  // the threads, which LLVM vectorises whatever it learns of the states; a min and max over a
  // state it finds constant after unswitching a loop become compares it does not recognise as
  // reductions), else as {min state, min state of threads that have not ended, max state}.
  const bool state_bits = code.regions.size() <= 64;
  // States are below code.regions.size(): a 32-bit set where they fit, half the vector work.
  llvm::IntegerType* bits = code.regions.size() <= 32 ? i32 : i64;
  // A pass over the live threads counts the others as ended: they are.
  const std::uint32_t none_yet = over_live ? kEnded : std::numeric_limits<std::uint32_t>::max();
  const auto nest = [&]() {
    const Carried init =
        state_bits
            ? Carried{llvm::ConstantInt::get(bits, over_live ? std::uint64_t{1} << kEnded : 0)}
            : Carried{b.getInt32(none_yet), b.getInt32(std::numeric_limits<std::uint32_t>::max()),
                      b.getInt32(0)};
    return emit_loop(b, nz, init, [&](Value* z, const Carried& c_z) {
      return emit_loop(b, ny, c_z, [&](Value* y, const Carried& c_y) {
        // The states reached so far (`c`, as above) with `next`.
        const auto fold = [&](const Carried& c, Value* next) -> Carried {
          if (state_bits) {
            return {b.CreateOr(c[0], b.CreateShl(llvm::ConstantInt::get(bits, 1),
                                                 b.CreateZExtOrTrunc(next, bits)))};
          }
          Value* live = b.CreateSelect(b.CreateICmpEQ(next, b.getInt32(kEnded)),
                                       b.getInt32(std::numeric_limits<std::uint32_t>::max()), next);
          return {b.CreateBinaryIntrinsic(llvm::Intrinsic::umin, c[0], next),
                  b.CreateBinaryIntrinsic(llvm::Intrinsic::umin, c[1], live),
                  b.CreateBinaryIntrinsic(llvm::Intrinsic::umax, c[2], next)};
        };
        const auto row = [&](Value* first, Value* end, const Carried& c_row, bool may_be_empty) {
          return emit_range(
              b, first, end, c_row,
              [&](Value* x, const Carried& c) { return fold(c, thread(x, y, z)); }, new_loop_id(),
              may_be_empty);
        };
        Value* first = over_live ? live_first : b.getInt32(0);
        Value* end = over_live ? live_end : nx;
        const auto split = splits.find(all_region);
        if (split == splits.end()) {
          return row(first, end, c_y, over_live);
        }
        // The threads below the split, then those above it, each over its copy of the region.
        Function* whole = all_region;
        const ThreadGuard& guard = code.guards.at(whole);
        Value* at = split->second;
        if (over_live) {
          at = b.CreateBinaryIntrinsic(llvm::Intrinsic::umax,
                                       b.CreateBinaryIntrinsic(llvm::Intrinsic::umin, at, end),
                                       first);
        }
        all_region = guard.below;
        const Carried below = row(first, at, c_y, true);
        all_region = guard.above;
        const Carried above = row(at, end, below, true);
        all_region = whole;
        return above;
      });
    });
  };
  Carried out;
  if (affine == nullptr) {
    out = nest();
  } else {
    // Does every thread keep the first thread's value plus its index? Then the affine region.
    std::vector<Value*> slots;
    for (const std::size_t k : affine->slots) {
      slots.push_back(slot_address(b, frame, threads, b.getInt64(0), layout.slots[k]));
      region_extra.push_back(b.CreateLoad(i32, slots.back(), "base"));
    }
    // No thread's base + index passes the largest int (asked once), so that each thread's
    // comparison can be made in 32 bits: twice the threads per vector.
    Value* fits = b.getTrue();
    for (Value* base : region_extra) {
      Value* last = b.CreateAdd(b.CreateSExt(base, i64), b.CreateSub(threads, b.getInt64(1)));
      fits = b.CreateAnd(
          fits, b.CreateICmpSLE(last, b.getInt64(std::numeric_limits<std::int32_t>::max())));
    }
    const Carried all_affine = emit_loop(b, threads, {fits}, [&](Value* tid, const Carried& c) {
      Value* ok = c[0];
      for (std::size_t j = 0; j < slots.size(); ++j) {
        Value* kept = b.CreateLoad(i32, b.CreateInBoundsGEP(i32, slots[j], tid));
        ok = b.CreateAnd(
            ok, b.CreateICmpEQ(kept, b.CreateAdd(region_extra[j], b.CreateTrunc(tid, i32))));
      }
      return Carried{ok};
    });
    BasicBlock* affine_block = BasicBlock::Create(ctx, "kjit.affine", pass);
    BasicBlock* plain_block = BasicBlock::Create(ctx, "kjit.plain", pass);
    BasicBlock* join = BasicBlock::Create(ctx, "kjit.pass.done", pass);
    b.CreateCondBr(all_affine[0], affine_block, plain_block);
    b.SetInsertPoint(affine_block);
    all_region = affine->region;
    const Carried out_affine = nest();
    BasicBlock* from_affine = b.GetInsertBlock();
    b.CreateBr(join);
    b.SetInsertPoint(plain_block);
    all_region = code.regions[r];
    const Carried out_plain = nest();
    BasicBlock* from_plain = b.GetInsertBlock();
    b.CreateBr(join);
    b.SetInsertPoint(join);
    for (std::size_t i = 0; i < out_plain.size(); ++i) {
      llvm::PHINode* phi = b.CreatePHI(out_plain[i]->getType(), 2);
      phi->addIncoming(out_affine[i], from_affine);
      phi->addIncoming(out_plain[i], from_plain);
      out.push_back(phi);
    }
  }
  if (state_bits) {  // every thread reached a state: some bit is set
    Value* reached = out[0];
    Value* live = b.CreateAnd(reached, llvm::ConstantInt::get(bits, ~(std::uint64_t{1} << kEnded)));
    const auto lowest = [&](Value* set) {
      return b.CreateZExtOrTrunc(b.CreateBinaryIntrinsic(llvm::Intrinsic::cttz, set, b.getTrue()),
                                 i32);
    };
    Value* highest =
        b.CreateSub(b.getInt32(bits->getBitWidth() - 1),
                    b.CreateZExtOrTrunc(
                        b.CreateBinaryIntrinsic(llvm::Intrinsic::ctlz, reached, b.getTrue()), i32));
    out = {lowest(reached),
           b.CreateSelect(b.CreateICmpEQ(live, llvm::ConstantInt::get(bits, 0)),
                          b.getInt32(std::numeric_limits<std::uint32_t>::max()), lowest(live)),
           highest};
  }
  Value* packed = llvm::PoisonValue::get(result);
  for (unsigned i = 0; i < 3; ++i) {
    packed = b.CreateInsertValue(packed, out[i], i);
  }
  b.CreateRet(packed);
  for (llvm::CallInst* call : inlined) {
    llvm::InlineFunctionInfo info;
    if (!llvm::InlineFunction(*call, info).isSuccess()) {
      throw BackendError(fmt::format(
          "kjit: internal error: region of '{}' not inlined into its pass", f.getName().str()));
    }
  }
  spaces.restore_after_inlining(*pass);
  hoist_invariant_loads(*pass);
  // Only in the passes of a loop in step, which run once per iteration: measured elsewhere (the
  // first pass of a shuffle reduction with one element per thread), the flag kept LLVM from
  // vectorising the loop over threads.
  if (mode == PassMode::all && code.through[r] != nullptr) {
    sink_uniform_stores(*pass, frame);
  }
  if (accesses != nullptr) {
    for (Instruction& i : llvm::instructions(*pass)) {
      if (llvm::isa<llvm::LoadInst, llvm::StoreInst>(i) && !i.isAtomic()) {
        i.setMetadata(llvm::LLVMContext::MD_access_group, accesses);
      }
    }
  }
  if (mode == PassMode::all) {
    version_pass(*pass, xs, nx);
  }
  return pass;
}

/// The block entry: region 0 for every thread, then, while any thread waits at a barrier, the
/// region after it (all threads at one barrier or stop, the common case); otherwise, the threads
/// at loop stops run on to their next barrier, then those at warp meetings (while any is), and
/// only then each thread its own region: a thread at a __syncthreads() waits until every thread
/// of the block is at one or has ended.
/// A kernel with loop stops can take turns with other blocks (kjit_cpu_block.yield): after a pass
/// that leaves every thread at one stop, it keeps the pass's outcome in the block record and
/// returns; called with `resume` set, it goes on from that outcome.
Function* make_driver(Function& f, const Regions& code, const FrameLayout& layout,
                      const MemorySpaces& spaces, const std::string& name) {
  const unsigned barriers = code.barriers + code.warps;  // the states below the stops
  const std::vector<Function*>& regions = code.regions;
  llvm::LLVMContext& ctx = f.getContext();
  auto* ptr = llvm::PointerType::get(ctx, 0);
  auto* i32 = llvm::Type::getInt32Ty(ctx);
  auto* i64 = llvm::Type::getInt64Ty(ctx);
  auto* type = llvm::FunctionType::get(llvm::Type::getVoidTy(ctx), {ptr, ptr}, false);
  Function* driver = function_like(f, type, llvm::GlobalValue::ExternalLinkage, name);
  Value* args = driver->getArg(0);
  Value* block = driver->getArg(1);
  llvm::IRBuilder<> b(BasicBlock::Create(ctx, "entry", driver));
  const auto field = [&](llvm::Type* t, std::size_t offset, const char* what) {
    return b.CreateLoad(t, b.CreateConstInBoundsGEP1_64(b.getInt8Ty(), block, offset), what);
  };
  Value* nx = field(i32, offsetof(kjit_cpu_block, block_dim), "nx");
  Value* ny = field(i32, offsetof(kjit_cpu_block, block_dim) + 4, "ny");
  Value* nz = field(i32, offsetof(kjit_cpu_block, block_dim) + 8, "nz");
  Value* frame = field(ptr, offsetof(kjit_cpu_block, frame), "frame");
  Value* warp_area =
      code.warps > 0 ? field(ptr, offsetof(kjit_cpu_block, warp), "warp_area") : nullptr;
  Value* threads = b.CreateMul(b.CreateMul(b.CreateZExt(nx, i64), b.CreateZExt(ny, i64)),
                               b.CreateZExt(nz, i64), "threads");
  BasicBlock* start = BasicBlock::Create(ctx, "start", driver);
  BasicBlock* loop = BasicBlock::Create(ctx, "loop", driver);
  BasicBlock* done = BasicBlock::Create(ctx, "done", driver);
  const bool can_yield = code.has_stops();
  auto* states_type = llvm::StructType::get(ctx, {i32, i32, i32});
  Value* resume_flag = b.CreateConstInBoundsGEP1_64(b.getInt8Ty(), block,
                                                    offsetof(kjit_cpu_block, resume), "resume_at");
  Value* saved_states = b.CreateConstInBoundsGEP1_64(b.getInt8Ty(), block,
                                                     offsetof(kjit_cpu_block, states), "saved_at");
  BasicBlock* resume = can_yield ? BasicBlock::Create(ctx, "resume", driver) : nullptr;
  BasicBlock* first = can_yield ? BasicBlock::Create(ctx, "first", driver) : start;
  b.CreateCondBr(b.CreateICmpEQ(threads, b.getInt64(0)), done, first);

  // (block, states, whether the driver may yield after them, the thread whose slots alone keep
  // the uniform values after a pass over all threads (thread 0) or over the live ones (the first
  // of them), kNoHolder after passes in which each thread keeps its own)
  constexpr std::uint64_t kNoHolder = std::numeric_limits<std::uint64_t>::max();
  std::vector<std::tuple<BasicBlock*, Value*, bool, Value*>> incoming;
  // The block's round of warp meetings (cpu_abi.h): the next one starts before every pass but
  // those of threads at loop stops, which leave the threads at warp meetings waiting; before a
  // pass that runs each thread at a meeting on, the runtime starts it and holds the meetings
  // that wait for lanes still on their way (cpu_warp_meetings.hpp).
  const auto next_round = [&](PassMode mode) {
    if (warp_area == nullptr || mode == PassMode::through) {
      return;
    }
    if (mode == PassMode::warp) {
      const llvm::FunctionCallee release = f.getParent()->getOrInsertFunction(
          kWarpReleaseSymbol, llvm::Type::getVoidTy(ctx), ptr, i64);
      b.CreateCall(release, {warp_area, threads});
      return;
    }
    b.CreateStore(b.CreateAdd(b.CreateLoad(i32, warp_area, "round"), b.getInt32(1)), warp_area);
  };
  const auto call_pass = [&](unsigned r, PassMode mode) {
    next_round(mode);
    Value* result = b.CreateCall(make_pass(f, code, r, mode, layout, spaces),
                                 {args, block, frame, threads, nx, ny, nz});
    incoming.emplace_back(b.GetInsertBlock(), result, true,
                          b.getInt64(mode == PassMode::all ? 0 : kNoHolder));
    b.CreateBr(loop);
  };
  if (can_yield) {
    b.SetInsertPoint(first);
    b.CreateCondBr(b.CreateICmpNE(b.CreateLoad(i32, resume_flag, "resuming"), b.getInt32(0)),
                   resume, start);
    b.SetInsertPoint(resume);
    Value* saved = llvm::PoisonValue::get(states_type);
    for (unsigned k = 0; k < 3; ++k) {
      saved = b.CreateInsertValue(
          saved, b.CreateLoad(i32, b.CreateConstInBoundsGEP1_64(i32, saved_states, k)), k);
    }
    // It yielded after these, all threads at one stop (their uniform values alike): go on.
    incoming.emplace_back(b.GetInsertBlock(), saved, false, b.getInt64(0));
    b.CreateBr(loop);
  }
  b.SetInsertPoint(start);
  call_pass(0, PassMode::all);

  BasicBlock* check = BasicBlock::Create(ctx, "check", driver);
  BasicBlock* same = BasicBlock::Create(ctx, "same_barrier", driver);
  BasicBlock* mixed = BasicBlock::Create(ctx, "mixed", driver);
  BasicBlock* through = BasicBlock::Create(ctx, "through_stops", driver);
  BasicBlock* any = BasicBlock::Create(ctx, "own_barriers", driver);
  b.SetInsertPoint(loop);
  llvm::PHINode* result = b.CreatePHI(states_type, 4, "states");
  llvm::PHINode* may_yield = b.CreatePHI(b.getInt1Ty(), 4, "may_yield");
  llvm::PHINode* holder = b.CreatePHI(i64, 4, "uniform_holder");
  Value* min_all = b.CreateExtractValue(result, 0, "min");
  Value* min_live = b.CreateExtractValue(result, 1, "min_live");
  Value* max = b.CreateExtractValue(result, 2, "max");
  if (can_yield) {
    BasicBlock* at_stop = BasicBlock::Create(ctx, "at_one_stop", driver);
    BasicBlock* yield = BasicBlock::Create(ctx, "yield", driver);
    BasicBlock* not_done = BasicBlock::Create(ctx, "not_done", driver);
    b.CreateCondBr(b.CreateICmpEQ(max, b.getInt32(kEnded)), done, not_done);
    b.SetInsertPoint(not_done);
    // Every thread at one stop (the stops have the highest numbers) after a pass of this call.
    b.CreateCondBr(b.CreateAnd(may_yield, b.CreateAnd(b.CreateICmpEQ(min_all, max),
                                                      b.CreateICmpUGT(max, b.getInt32(barriers)))),
                   at_stop, check);
    b.SetInsertPoint(at_stop);
    Value* asked = field(i32, offsetof(kjit_cpu_block, yield), "yield");
    b.CreateCondBr(b.CreateICmpNE(asked, b.getInt32(0)), yield, check);
    b.SetInsertPoint(yield);
    for (unsigned k = 0; k < 3; ++k) {
      b.CreateStore(b.CreateExtractValue(result, k),
                    b.CreateConstInBoundsGEP1_64(i32, saved_states, k));
    }
    b.CreateStore(b.getInt32(1), resume_flag);
    b.CreateRetVoid();
  } else {
    b.CreateCondBr(b.CreateICmpEQ(max, b.getInt32(kEnded)), done, check);
  }
  b.SetInsertPoint(check);
  // Every thread at one barrier (none ended): the vectorisable pass; otherwise each its own.
  b.CreateCondBr(
      b.CreateAnd(b.CreateICmpEQ(min_live, max), b.CreateICmpNE(min_all, b.getInt32(kEnded))), same,
      mixed);
  // The stops have the highest numbers: a thread waits at one when the maximum is above them.
  b.SetInsertPoint(mixed);
  // Gives every thread the uniform values that a pass over all threads, or over the live ones,
  // kept in one thread's slots alone (holder), unless `skip` (that thread is the next holder).
  const auto share_uniform = [&](Value* skip) {
    if (layout.snapshots.empty()) {
      return;
    }
    BasicBlock* share = BasicBlock::Create(ctx, "share_uniform", driver);
    BasicBlock* shared = BasicBlock::Create(ctx, "uniform_shared", driver);
    Value* needed = b.CreateICmpNE(holder, b.getInt64(kNoHolder));
    if (skip != nullptr) {
      needed = b.CreateAnd(needed, b.CreateICmpNE(holder, skip));
    }
    b.CreateCondBr(needed, share, shared);
    b.SetInsertPoint(share);
    emit_range(
        b, b.getInt64(0), threads, {},
        [&](Value* tid, const Carried&) {
          BasicBlock* copy = BasicBlock::Create(ctx, "share_copy", driver);
          BasicBlock* next = BasicBlock::Create(ctx, "share_next", driver);
          b.CreateCondBr(b.CreateICmpNE(tid, holder), copy, next);
          b.SetInsertPoint(copy);
          for (const Snapshot& snapshot : layout.snapshots) {
            const FrameSlot& slot = layout.slots[snapshot.slot];
            b.CreateMemCpy(slot_address(b, frame, threads, tid, slot), llvm::Align(1),
                           slot_address(b, frame, threads, holder, slot), llvm::Align(1),
                           snapshot.bytes);
          }
          b.CreateBr(next);
          b.SetInsertPoint(next);
          return Carried{};
        },
        nullptr, true);
    b.CreateBr(shared);
    b.SetInsertPoint(shared);
  };
  if (code.warps > 0) {
    // Some threads ended, the others wait at one barrier or meeting (a warp reduction's last
    // steps, `if (t < 32)`): in a 1-D block whose live threads are consecutive, a pass over them
    // alone, vectorisable as a pass over all threads, instead of one call per thread.
    BasicBlock* scan = BasicBlock::Create(ctx, "live_scan", driver);
    BasicBlock* live = BasicBlock::Create(ctx, "live", driver);
    BasicBlock* not_live = BasicBlock::Create(ctx, "not_live", driver);
    b.CreateCondBr(b.CreateAnd(b.CreateAnd(b.CreateICmpEQ(ny, b.getInt32(1)),
                                           b.CreateICmpEQ(nz, b.getInt32(1))),
                               b.CreateICmpEQ(min_live, max)),
                   scan, not_live);
    b.SetInsertPoint(scan);
    Value* states = slot_address(b, frame, threads, b.getInt64(0), layout.state);
    // {first live thread, last live thread + 1, live threads}
    const Carried range = emit_loop(
        b, threads, {threads, b.getInt64(0), b.getInt64(0)},
        [&](Value* tid, const Carried& c) -> Carried {
          Value* state = b.CreateLoad(i32, b.CreateInBoundsGEP(i32, states, tid), "state");
          spaces.annotate_frame_access(*llvm::cast<Instruction>(state));
          Value* alive = b.CreateICmpNE(state, b.getInt32(kEnded));
          // (Plain min, max and sum: reductions LLVM vectorises.)
          return {b.CreateBinaryIntrinsic(llvm::Intrinsic::umin, c[0],
                                          b.CreateSelect(alive, tid, threads)),
                  b.CreateBinaryIntrinsic(
                      llvm::Intrinsic::umax, c[1],
                      b.CreateSelect(alive, b.CreateAdd(tid, b.getInt64(1)), b.getInt64(0))),
                  b.CreateAdd(c[2], b.CreateZExt(alive, i64))};
        });
    b.CreateCondBr(b.CreateICmpEQ(b.CreateSub(range[1], range[0]), range[2]), live, not_live);
    b.SetInsertPoint(live);
    share_uniform(range[0]);
    Value* live_first = b.CreateTrunc(range[0], i32);
    Value* live_end = b.CreateTrunc(range[1], i32);
    llvm::SwitchInst* at_live =
        b.CreateSwitch(max, not_live, static_cast<unsigned>(regions.size()));
    for (unsigned r = 1; r < regions.size(); ++r) {
      BasicBlock* at = BasicBlock::Create(ctx, fmt::format("live{}", r), driver);
      at_live->addCase(b.getInt32(r), at);
      b.SetInsertPoint(at);
      next_round(PassMode::all);
      Value* out = b.CreateCall(make_pass(f, code, r, PassMode::all, layout, spaces, true),
                                {args, block, frame, threads, nx, ny, nz, live_first, live_end});
      incoming.emplace_back(b.GetInsertBlock(), out, true, range[0]);
      b.CreateBr(loop);
    }
    b.SetInsertPoint(not_live);
  }
  share_uniform(nullptr);
  if (code.warps > 0) {
    BasicBlock* warp = BasicBlock::Create(ctx, "warp_meetings", driver);
    BasicBlock* no_stop = BasicBlock::Create(ctx, "no_stop", driver);
    b.CreateCondBr(b.CreateICmpUGT(max, b.getInt32(barriers)), through, no_stop);
    b.SetInsertPoint(no_stop);
    b.CreateCondBr(b.CreateICmpUGT(max, b.getInt32(code.barriers)), warp, any);
    b.SetInsertPoint(warp);
    call_pass(0, PassMode::warp);
  } else {
    b.CreateCondBr(b.CreateICmpUGT(max, b.getInt32(barriers)), through, any);
  }
  b.SetInsertPoint(through);
  call_pass(0, PassMode::through);
  b.SetInsertPoint(same);
  llvm::SwitchInst* sw = b.CreateSwitch(max, mixed, static_cast<unsigned>(regions.size()));
  for (unsigned r = 1; r < regions.size(); ++r) {
    BasicBlock* at = BasicBlock::Create(ctx, fmt::format("barrier{}", r), driver);
    sw->addCase(b.getInt32(r), at);
    b.SetInsertPoint(at);
    call_pass(r, PassMode::all);
  }
  b.SetInsertPoint(any);
  call_pass(0, PassMode::any);
  for (auto& [pred, value, after_pass, kept_by] : incoming) {
    result->addIncoming(value, pred);
    may_yield->addIncoming(b.getInt1(after_pass), pred);
    holder->addIncoming(kept_by, pred);
  }
  b.SetInsertPoint(done);
  if (can_yield) {
    b.CreateStore(b.getInt32(0), resume_flag);
  }
  b.CreateRetVoid();
  return driver;
}

}  // namespace

RegionSplit split_at_barriers(Function& thread_entry, Function& barrier, Function* warp,
                              const std::set<Function*>& barrier_users,
                              const std::string& block_name, SplitAt what,
                              const std::string& range_name) {
  RegionSplit out;
  // __syncthreads() and, where the module has them, warp meetings: none of them null (an indirect
  // call's callee is null too, and must not count as a wait).
  std::vector<Function*> waits{&barrier};
  if (warp != nullptr) {
    waits.push_back(warp);
  }
  for (Function* wait : waits) {
    wait->addFnAttr(llvm::Attribute::Convergent);
    wait->addFnAttr(llvm::Attribute::NoUnwind);
  }
  // The warp round reads the warp area it is given and nothing else (cpu_prelude_warp.h), which
  // C++ cannot say: a pass's stores into the frame then move past it.
  if (Function* round = thread_entry.getParent()->getFunction(kWarpRoundSymbol)) {
    round->setMemoryEffects(llvm::MemoryEffects::argMemOnly(llvm::ModRefInfo::Ref));
  }
  if (!inline_calls(thread_entry, barrier_users, what == SplitAt::loops, out.why_not)) {
    return out;
  }
  out.why_not = unsplittable(thread_entry);
  if (!out.why_not.empty()) {
    return out;
  }
  // The barriers are about to go: the thread context they take need not stay in memory.
  for (Function* wait : waits) {
    for (llvm::User* user : wait->users()) {
      if (auto* call = llvm::dyn_cast<llvm::CallInst>(user);
          call != nullptr && call->getFunction() == &thread_entry) {
        call->setArgOperand(0, llvm::PoisonValue::get(call->getArgOperand(0)->getType()));
      }
    }
  }
  simplify(thread_entry);
  limit_unrolling(thread_entry);

  llvm::Module& m = *thread_entry.getParent();
  Function* stop =
      Function::Create(llvm::FunctionType::get(llvm::Type::getVoidTy(m.getContext()), false),
                       llvm::GlobalValue::ExternalLinkage, "__kjit_loop_stop", m);
  stop->addFnAttr(llvm::Attribute::Convergent);
  stop->addFnAttr(llvm::Attribute::NoUnwind);
  if (!range_name.empty()) {  // from a copy, which it rotates itself
    out.why_no_ranges = make_range_entry(thread_entry, range_name);
    out.ranges = out.why_no_ranges.empty();
  }
  const std::vector<const Function*> cuts(waits.begin(), waits.end());
  if (mark_loop_stops(thread_entry, cuts, nullptr) > 0) {
    // Rotated, a loop tests whether to go on at its end, before the stop on its back edge: a
    // thread stops only to run another iteration, so a loop that each thread runs once (a
    // grid-stride loop over a grid as large as the data) costs no pass of its own. Only then:
    // rotating every loop would grow the code of kernels without a loop in step.
    llvm_setup::run_function_passes(thread_entry, "loop(loop-rotate)");
    mark_loop_stops(thread_entry, cuts, stop);
  } else if (what == SplitAt::loops) {
    stop->eraseFromParent();
    out.why_not = "no loop to run in step";
    return out;
  }
  const std::vector<Barrier> barriers = split_blocks_at(thread_entry, barrier, warp, *stop);
  Regions code;
  code.barriers = static_cast<unsigned>(
      llvm::count_if(barriers, [](const Barrier& x) { return !x.stop && !x.warp; }));
  code.warps =
      static_cast<unsigned>(llvm::count_if(barriers, [](const Barrier& x) { return x.warp; }));
  Reachability reach(thread_entry, barriers);
  const std::vector<UniformSlot> uniform = keep_values_across(thread_entry, reach);
  const MemorySpaces spaces(thread_entry, uniform);
  spaces.annotate(thread_entry);
  const FrameLayout layout = lay_out_frame(thread_entry, uniform);
  for (unsigned r = 0; r <= barriers.size(); ++r) {
    const bool at_stop = r > 0 && barriers[r - 1].stop;
    std::vector<Value*> slot_addresses;
    code.regions.push_back(
        make_region(thread_entry, r, barriers, layout, false, {}, &slot_addresses));
    code.through.push_back(at_stop ? make_region(thread_entry, r, barriers, layout, true)
                                   : nullptr);
    AffineRegion affine;
    if (at_stop) {
      affine.slots = affine_candidates(slot_addresses, layout);
      if (!affine.slots.empty()) {
        affine.region = make_region(thread_entry, r, barriers, layout, false, affine.slots);
      }
    }
    code.affine.push_back(affine);
    for (Function* region : {code.regions.back(), affine.region}) {
      if (region == nullptr) {
        continue;
      }
      // The snapshots are taken before the loop of every pass but the first.
      const GuardInputs inputs{
          region->getArg(kX),
          {region->getArg(kArgs), region->getArg(kBlock), region->getArg(kThreads)},
          r != 0 ? region->getArg(kFrame) : nullptr};
      const bool alike = returns_alike(*region);
      if (alike) {
        code.alike.insert(region);
      }
      if (std::optional<ThreadGuard> guard = find_thread_guard(*region, inputs)) {
        code.guards.emplace(region, *guard);
        if (alike) {  // a condition made constant cannot make the threads differ
          code.alike.insert({guard->below, guard->above});
        }
      }
    }
  }
  make_driver(thread_entry, code, layout, spaces, block_name);
  thread_entry.eraseFromParent();
  stop->eraseFromParent();
  out.split = true;
  out.frame_bytes = layout.bytes_per_thread;
  out.yields = code.has_stops();
  return out;
}

}  // namespace kjit::cpu
