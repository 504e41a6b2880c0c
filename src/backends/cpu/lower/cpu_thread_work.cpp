#include "backends/cpu/lower/cpu_thread_work.hpp"

#include "backends/cpu/run/cpu_runtime_symbols.hpp"

#include <llvm/Analysis/LoopInfo.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Operator.h>
#include <llvm/IR/PatternMatch.h>

#include <functional>
#include <set>
#include <string_view>

namespace kjit::cpu::thread_ranges {

using llvm::CmpInst;
using llvm::Function;
using llvm::Instruction;

/// The field of the block record that a 32-bit load reads, as a byte offset.
std::optional<std::int64_t> block_field(const Value* v, const Value* block) {
  const auto* load = llvm::dyn_cast<llvm::LoadInst>(v);
  if (load == nullptr || !load->getType()->isIntegerTy(32) || load->isVolatile()) {
    return std::nullopt;
  }
  const Value* p = load->getPointerOperand();
  if (p == block) {
    return 0;
  }
  const auto* gep = llvm::dyn_cast<llvm::GEPOperator>(p);
  if (gep == nullptr || gep->getPointerOperand() != block) {
    return std::nullopt;
  }
  const llvm::DataLayout& dl = load->getModule()->getDataLayout();
  llvm::APInt offset(dl.getIndexTypeSizeInBits(p->getType()), 0);
  if (!gep->accumulateConstantOffset(dl, offset)) {
    return std::nullopt;
  }
  return offset.getSExtValue();
}

namespace {

/// The values that may differ between the threads of one row of a grid (a range entry runs one
/// row, the same y, per call): threadIdx.x and blockIdx.x, what is computed from them, a thread's
/// own memory (allocas) and values merged after a branch outside the work. blockDim, gridDim and
/// the y and z indices are the same in every thread of a row.
class Varying {
 public:
  /// `work`: the blocks of the work (a loop's), whose merges follow the thread's index alone.
  Varying(Function& f, const std::set<const BasicBlock*>& work) {
    for (const unsigned a : {kX, kBlock}) {
      add(f.getArg(a));
    }
    for (Instruction& i : llvm::instructions(f)) {
      if (llvm::isa<llvm::AllocaInst>(i) ||
          (llvm::isa<llvm::PHINode>(i) && work.count(i.getParent()) == 0)) {
        add(&i);
      }
    }
    const Value* block = f.getArg(kBlock);
    while (!work_.empty()) {
      Value* v = work_.back();
      work_.pop_back();
      for (llvm::User* user : v->users()) {
        if (const std::optional<std::int64_t> field = block_field(user, block);
            field && *field > kBlockIdxX && *field < kDimsEnd) {
          continue;  // blockIdx.y and .z, blockDim, gridDim
        }
        add(user);
      }
    }
  }

  [[nodiscard]] bool varies(const Value* v) const { return set_.count(v) != 0; }

 private:
  void add(Value* v) {
    if (set_.insert(v).second) {
      work_.push_back(v);
    }
  }

  std::set<const Value*> set_;
  std::vector<Value*> work_;
};

/// `cmp` as a bound of the form `value < limit` or `value <= limit` (signed or not), taken as it
/// is or, with `negate`, as its negation.
std::optional<Bound> bound_of(const llvm::ICmpInst* cmp, const Value* value, bool negate) {
  if (cmp == nullptr) {
    return std::nullopt;
  }
  Bound out{cmp->getPredicate(), nullptr};
  if (cmp->getOperand(0) == value) {
    out.limit = cmp->getOperand(1);
  } else if (cmp->getOperand(1) == value) {
    out.limit = cmp->getOperand(0);
    out.pred = CmpInst::getSwappedPredicate(out.pred);
  } else {
    return std::nullopt;
  }
  if (negate) {
    out.pred = CmpInst::getInversePredicate(out.pred);
  }
  switch (out.pred) {
    case CmpInst::ICMP_SLT:
    case CmpInst::ICMP_SLE:
    case CmpInst::ICMP_ULT:
    case CmpInst::ICMP_ULE:
      return out;
    default:
      return std::nullopt;
  }
}

/// The bound on `value` under which `branch` goes to `into`: a comparison, or with `conjunctions`
/// also one conjunct of `c && other` (`!(c || other)` on the branch's other side), `other` then
/// returned as the bound's `also`.
std::optional<Bound> bound_into(const Instruction* branch, const BasicBlock* into,
                                const Value* value, bool conjunctions = false) {
  const auto* br = llvm::dyn_cast_or_null<llvm::BranchInst>(branch);
  if (br == nullptr || !br->isConditional() || br->getSuccessor(0) == br->getSuccessor(1)) {
    return std::nullopt;
  }
  const bool on_true = br->getSuccessor(0) == into;
  if (!on_true && br->getSuccessor(1) != into) {
    return std::nullopt;
  }
  Value* condition = br->getCondition();
  if (std::optional<Bound> b =
          bound_of(llvm::dyn_cast<llvm::ICmpInst>(condition), value, !on_true)) {
    return b;
  }
  if (!conjunctions) {
    return std::nullopt;
  }
  // Into on true: `a && b` (an `and`, or `select a, b, false`); on false: `a || b`.
  using namespace llvm::PatternMatch;
  Value* a = nullptr;
  Value* b = nullptr;
  const bool joined = on_true ? match(condition, m_LogicalAnd(m_Value(a), m_Value(b)))
                              : match(condition, m_LogicalOr(m_Value(a), m_Value(b)));
  if (!joined) {
    return std::nullopt;
  }
  for (const auto& [mine, other] : {std::pair{a, b}, std::pair{b, a}}) {
    if (std::optional<Bound> bound =
            bound_of(llvm::dyn_cast<llvm::ICmpInst>(mine), value, !on_true)) {
      bound->also = other;
      return bound;
    }
  }
  return std::nullopt;
}

/// Recognises a loop's start as the thread's linear index in a 1-D grid
/// (blockIdx.x * blockDim.x + threadIdx.x) plus values every thread shares, in any order of the
/// sum, with zero-extended operands or a sum extended as a whole. `narrowed` collects the sums
/// computed in a narrower type before an extension: within a range of threads they must not wrap.
class LaneIndex {
 public:
  LaneIndex(const Varying& varying, const Function& f)
      : varying_(varying), block_(f.getArg(kBlock)), x_(f.getArg(kX)) {}

  [[nodiscard]] bool matches(Value* start) {
    Terms t;
    return match(start, t) && t.thread == 1 && t.block_base == 1;
  }
  [[nodiscard]] const std::vector<std::pair<Value*, bool>>& narrowed() const { return narrowed_; }

 private:
  struct Terms {
    int thread = 0;      // threadIdx.x
    int block_base = 0;  // blockIdx.x * blockDim.x
  };

  static Value* without_zext(Value* v) {
    auto* ext = llvm::dyn_cast<llvm::ZExtInst>(v);
    return ext != nullptr ? ext->getOperand(0) : v;
  }

  [[nodiscard]] bool is_field(Value* v, std::int64_t offset) const {
    return block_field(v, block_) == offset;
  }

  [[nodiscard]] bool is_block_base(Value* v) const {
    auto* mul = llvm::dyn_cast<llvm::BinaryOperator>(v);
    if (mul == nullptr || mul->getOpcode() != Instruction::Mul) {
      return false;
    }
    Value* a = mul->getOperand(0);
    Value* b = mul->getOperand(1);
    if (llvm::isa<llvm::ZExtInst>(a) != llvm::isa<llvm::ZExtInst>(b)) {
      return false;
    }
    a = without_zext(a);
    b = without_zext(b);
    return (is_field(a, kBlockIdxX) && is_field(b, kBlockDimX)) ||
           (is_field(b, kBlockIdxX) && is_field(a, kBlockDimX));
  }

  bool match(Value* v, Terms& t) {
    if (!varying_.varies(v)) {
      return true;
    }
    if (without_zext(v) == x_) {
      ++t.thread;
      return true;
    }
    if (is_block_base(v)) {
      ++t.block_base;
      return true;
    }
    if (auto* op = llvm::dyn_cast<llvm::BinaryOperator>(v)) {
      if (op->getOpcode() == Instruction::Add) {
        return match(op->getOperand(0), t) && match(op->getOperand(1), t);
      }
      if (op->getOpcode() == Instruction::Sub) {
        return !varying_.varies(op->getOperand(1)) && match(op->getOperand(0), t);
      }
      return false;
    }
    if (llvm::isa<llvm::ZExtInst, llvm::SExtInst>(v)) {
      Value* from = llvm::cast<llvm::CastInst>(v)->getOperand(0);
      Terms inner;
      if (!match(from, inner) || inner.thread != 1 || inner.block_base != 1) {
        return false;
      }
      narrowed_.emplace_back(from, llvm::isa<llvm::SExtInst>(v));
      ++t.thread;
      ++t.block_base;
      return true;
    }
    return false;
  }

  const Varying& varying_;
  const Value* block_;
  const Value* x_;
  std::vector<std::pair<Value*, bool>> narrowed_;
};

/// The blocks from which a `ret` can be reached.
std::set<const BasicBlock*> reaching_return(Function& f) {
  std::set<const BasicBlock*> out;
  std::vector<const BasicBlock*> work;
  for (BasicBlock& b : f) {
    if (llvm::isa<llvm::ReturnInst>(b.getTerminator())) {
      out.insert(&b);
      work.push_back(&b);
    }
  }
  while (!work.empty()) {
    const BasicBlock* b = work.back();
    work.pop_back();
    for (const BasicBlock* pred : llvm::predecessors(b)) {
      if (out.insert(pred).second) {
        work.push_back(pred);
      }
    }
  }
  return out;
}

bool is_wait(const Instruction& i) {
  const auto* call = llvm::dyn_cast<llvm::CallBase>(&i);
  const Function* callee = call != nullptr ? call->getCalledFunction() : nullptr;
  if (call == nullptr) {
    return false;
  }
  if (callee == nullptr) {
    return true;  // an indirect call: it might reach anything
  }
  const std::string_view name(callee->getName().data(), callee->getName().size());
  return name == kBarrierWaitSymbol || name == kWarpWaitSymbol || name == "__kjit_loop_stop";
}

/// Outside the work (`body`), nothing but values it reads, and paths that leave the kernel: no
/// side effects, and no branch but the `guard` that differs between threads.
std::string check_outside_work(Function& f, const std::set<const BasicBlock*>& body,
                               const Varying& varying, const BasicBlock* guard) {
  for (BasicBlock& b : f) {
    if (body.count(&b) != 0) {
      continue;
    }
    for (Instruction& i : b) {
      if (i.mayHaveSideEffects()) {
        return "it does work outside its loop or element";
      }
    }
    const Instruction* term = b.getTerminator();
    if (&b != guard && term->getNumSuccessors() > 1) {
      const auto* br = llvm::dyn_cast<llvm::BranchInst>(term);
      const auto* sw = llvm::dyn_cast<llvm::SwitchInst>(term);
      const Value* condition = br != nullptr   ? br->getCondition()
                               : sw != nullptr ? sw->getCondition()
                                               : nullptr;
      if (condition == nullptr || varying.varies(condition)) {
        return "a branch outside its loop or element differs between threads";
      }
    }
  }
  return {};
}

/// With the guard, start and bound of `out` chosen: checks that the work's blocks (those
/// `in_work` says, and the paths from `entry` that never return) read the thread's identity only
/// through the index, and that nothing outside them does work or branches differently between
/// threads.
std::string check_work(Function& f, const llvm::DominatorTree& dt, BasicBlock* entry,
                       const std::function<bool(const BasicBlock*)>& in_work, Work& out) {
  const std::set<const BasicBlock*> returning = reaching_return(f);
  out.body.clear();
  for (BasicBlock& b : f) {
    if (in_work(&b) || (returning.count(&b) == 0 && dt.dominates(entry, &b))) {
      out.body.push_back(&b);
    }
  }
  const std::set<const BasicBlock*> body(out.body.begin(), out.body.end());
  const Varying varying(f, body);
  if (varying.varies(out.bound.limit) || (out.step != nullptr && varying.varies(out.step)) ||
      (out.bound.also != nullptr && varying.varies(out.bound.also))) {
    return "its bound or stride differ between threads";
  }
  LaneIndex lane(varying, f);
  if (!lane.matches(out.start)) {
    return "its index is not blockIdx.x * blockDim.x + threadIdx.x";
  }
  out.narrowed = lane.narrowed();
  if (std::string why = check_outside_work(f, body, varying, out.guard); !why.empty()) {
    return why;
  }
  // The work may read the thread's identity only through the index. One element's work may also
  // read another value of the index plus values a row shares, computed before the guard.
  out.derived.clear();
  const auto derives = [&](Value* v) {
    auto* def = llvm::dyn_cast<Instruction>(v);
    if (def == nullptr || v->getType() != out.start->getType() ||
        !dt.dominates(def, out.guard->getTerminator())) {
      return false;
    }
    if (llvm::is_contained(out.derived, v)) {
      return true;
    }
    LaneIndex other(varying, f);
    if (!other.matches(v)) {
      return false;
    }
    out.narrowed.insert(out.narrowed.end(), other.narrowed().begin(), other.narrowed().end());
    out.derived.push_back(v);
    return true;
  };
  for (BasicBlock* b : out.body) {
    for (Instruction& i : *b) {
      if (is_wait(i)) {
        return "it synchronises threads";
      }
      if (&i == out.index) {
        continue;  // its start, the thread's first index
      }
      for (const llvm::Use& u : i.operands()) {
        const auto* def = llvm::dyn_cast<Instruction>(u.get());
        const bool outside = llvm::isa<llvm::Argument>(u.get()) ||
                             (def != nullptr && body.count(def->getParent()) == 0);
        // One element's work reads its index as `start`; a loop's, through the loop's index.
        const bool index = out.index == nullptr && u.get() == out.start;
        if (!outside || index || !varying.varies(u.get())) {
          continue;
        }
        if (out.index != nullptr || !derives(u.get())) {
          return "it reads the thread's index other than through the index";
        }
      }
    }
    for (BasicBlock* next : llvm::successors(b)) {
      if (body.count(next) == 0 && next != out.exit) {
        return "its work leaves to more than one place";
      }
    }
  }
  return {};
}

/// The grid-stride loop of `f`'s only loop at the top level, or why it is none.
std::string find_loop(Function& f, const llvm::DominatorTree& dt, llvm::Loop& loop, Work& out) {
  out.into = loop.getLoopPreheader();
  out.header = loop.getHeader();
  out.latch = loop.getLoopLatch();
  out.exit = loop.getExitBlock();
  if (out.into == nullptr || out.latch == nullptr || out.exit == nullptr ||
      loop.getExitingBlock() != out.latch) {
    return "its loop leaves other than at its end";
  }
  if (std::distance(out.header->phis().begin(), out.header->phis().end()) != 1 ||
      !out.header->phis().begin()->getType()->isIntegerTy()) {
    return "its loop carries values other than one integer index";
  }
  out.index = &*out.header->phis().begin();
  out.start = out.index->getIncomingValueForBlock(out.into);
  Value* next = out.index->getIncomingValueForBlock(out.latch);
  auto* add = llvm::dyn_cast<llvm::BinaryOperator>(next);
  if (add == nullptr || add->getOpcode() != Instruction::Add ||
      (add->getOperand(0) != out.index && add->getOperand(1) != out.index)) {
    return "its loop's index does not advance by a stride";
  }
  out.step = add->getOperand(add->getOperand(0) == out.index ? 1 : 0);
  const std::optional<Bound> latch_bound = bound_into(out.latch->getTerminator(), out.header, next);
  out.guard = out.into->getSinglePredecessor();
  const std::optional<Bound> guard_bound =
      out.guard != nullptr ? bound_into(out.guard->getTerminator(), out.into, out.start)
                           : std::nullopt;
  if (!latch_bound || !guard_bound || latch_bound->pred != guard_bound->pred ||
      latch_bound->limit != guard_bound->limit || !loop.isLoopInvariant(out.step) ||
      !loop.isLoopInvariant(latch_bound->limit)) {
    return "its loop is not `for (i = start; i < bound; i += stride)`";
  }
  out.bound = *latch_bound;
  return check_work(
      f, dt, out.header, [&](const BasicBlock* b) { return loop.contains(b); }, out);
}

/// The accesses of a grid-stride loop's iterations when each is to element `i` of an array
/// (`p[i]`, with the loop's index) or to an address every iteration shares, loads and stores
/// only; empty otherwise (a call, an atomic, any other address).
std::vector<MemoryAccess> flat_accesses(const Work& work) {
  constexpr std::size_t kMaxAccesses = 12;  // pairs checked at run time grow as its square
  const std::set<const BasicBlock*> body(work.body.begin(), work.body.end());
  const auto shared = [&](const Value* v) {
    const auto* i = llvm::dyn_cast<Instruction>(v);
    return i == nullptr ? !llvm::isa<llvm::PoisonValue, llvm::UndefValue>(v)
                        : body.count(i->getParent()) == 0;
  };
  const auto is_index = [&](const Value* v) {
    if (const auto* ext = llvm::dyn_cast<llvm::CastInst>(v);
        ext != nullptr && llvm::isa<llvm::SExtInst, llvm::ZExtInst>(ext)) {
      v = ext->getOperand(0);
    }
    return v == work.index;
  };
  std::vector<MemoryAccess> out;
  for (BasicBlock* b : work.body) {
    for (Instruction& i : *b) {
      if (!i.mayReadOrWriteMemory()) {
        continue;
      }
      auto* load = llvm::dyn_cast<llvm::LoadInst>(&i);
      auto* store = llvm::dyn_cast<llvm::StoreInst>(&i);
      if ((load == nullptr || !load->isSimple()) && (store == nullptr || !store->isSimple())) {
        return {};
      }
      const llvm::DataLayout& dl = i.getModule()->getDataLayout();
      llvm::Type* type = load != nullptr ? load->getType() : store->getValueOperand()->getType();
      Value* pointer = load != nullptr ? load->getPointerOperand() : store->getPointerOperand();
      MemoryAccess access;
      access.store = store != nullptr;
      if (shared(pointer) && access.store) {
        return {};  // every iteration writes one place: which write is last depends on order
      }
      if (shared(pointer)) {
        access.base = pointer;
        access.size = dl.getTypeStoreSize(type);
      } else if (auto* gep = llvm::dyn_cast<llvm::GetElementPtrInst>(pointer);
                 gep != nullptr && gep->getNumIndices() == 1 && shared(gep->getPointerOperand()) &&
                 is_index(gep->getOperand(1)) &&
                 dl.getTypeAllocSize(gep->getSourceElementType()) == dl.getTypeStoreSize(type)) {
        access.base = gep->getPointerOperand();
        access.size = dl.getTypeAllocSize(gep->getSourceElementType());
        access.indexed = true;
      } else {
        return {};
      }
      out.push_back(access);
      if (out.size() > kMaxAccesses) {
        return {};
      }
    }
  }
  return out;
}

/// The guard of a kernel whose threads each work on one element (`if (i < n) ...`): a branch
/// outside any loop into a block only it reaches when the thread's index is within a bound.
std::string find_element(Function& f, const llvm::DominatorTree& dt, const llvm::LoopInfo& loops,
                         Work& out) {
  std::string why = "it has no `if (i < n)` on blockIdx.x * blockDim.x + threadIdx.x";
  for (BasicBlock& g : f) {
    const auto* br = llvm::dyn_cast<llvm::BranchInst>(g.getTerminator());
    if (br == nullptr || !br->isConditional() || loops.getLoopFor(&g) != nullptr) {
      continue;
    }
    // The comparisons the branch tests: its condition, or the two sides of an `&&` or `||`.
    std::vector<Value*> compared;
    Value* condition = br->getCondition();
    Value* a = nullptr;
    Value* b = nullptr;
    using namespace llvm::PatternMatch;
    for (Value* c : match(condition, m_LogicalAnd(m_Value(a), m_Value(b))) ||
                            match(condition, m_LogicalOr(m_Value(a), m_Value(b)))
                        ? std::vector<Value*>{a, b}
                        : std::vector<Value*>{condition}) {
      if (auto* cmp = llvm::dyn_cast<llvm::ICmpInst>(c)) {
        compared.push_back(cmp->getOperand(0));
        compared.push_back(cmp->getOperand(1));
      }
    }
    for (unsigned s = 0; s < 2; ++s) {
      BasicBlock* into = br->getSuccessor(s);
      if (into->getSinglePredecessor() != &g) {
        continue;
      }
      for (Value* start : compared) {
        const std::optional<Bound> bound = bound_into(br, into, start, /*conjunctions=*/true);
        if (!bound) {
          continue;
        }
        Work candidate;
        candidate.guard = &g;
        candidate.into = into;
        candidate.exit = br->getSuccessor(1 - s);
        candidate.start = start;
        candidate.bound = *bound;
        why = check_work(
            f, dt, into, [&](const BasicBlock* in) { return dt.dominates(into, in); }, candidate);
        if (why.empty()) {
          out = candidate;
          return {};
        }
      }
    }
  }
  return why;
}

}  // namespace

std::string find_work(Function& f, Work& out) {
  const llvm::DominatorTree dt(f);
  const llvm::LoopInfo loops(dt);
  if (loops.getTopLevelLoops().size() == 1) {
    std::string why = find_loop(f, dt, *loops.getTopLevelLoops().front(), out);
    if (why.empty()) {
      if (out.narrowed.empty()) {
        out.accesses = flat_accesses(out);
      }
      return why;
    }
    out = Work{};
    // A loop inside one element's work (`if (i < n) for (k ...)`) is no grid-stride loop.
    std::string element_why = find_element(f, dt, loops, out);
    return element_why.empty() ? element_why : why;
  }
  return find_element(f, dt, loops, out);
}

}  // namespace kjit::cpu::thread_ranges
