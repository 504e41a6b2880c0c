#include "backends/cpu/lower/cpu_thread_guards.hpp"

#include <llvm/ADT/PostOrderIterator.h>
#include <llvm/ADT/STLExtras.h>
#include <llvm/Analysis/ValueTracking.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Intrinsics.h>
#include <llvm/Transforms/Utils/Cloning.h>

namespace kjit::cpu {

namespace {

using llvm::Function;
using llvm::Instruction;
using llvm::Value;

/// Whether `v` is the thread's x coordinate, or x widened (x < 1024: both widenings agree).
bool is_x(const Value* v, const llvm::Argument* x) {
  if (llvm::isa<llvm::ZExtInst, llvm::SExtInst>(v)) {
    v = llvm::cast<llvm::CastInst>(v)->getOperand(0);
  }
  return v == x;
}

/// Whether a value is the same in every thread of a pass and can be computed before its loop:
/// arithmetic that cannot trap on the shared parameters, loads of memory no kernel writes, and
/// loads of the snapshots.
class SharedValues {
 public:
  explicit SharedValues(const GuardInputs& inputs) : inputs_(inputs) {}

  bool computable(const Value* v, unsigned depth = 0) const {
    if (const auto* a = llvm::dyn_cast<llvm::Argument>(v)) {
      return a == inputs_.frame || llvm::is_contained(inputs_.shared, a);
    }
    if (llvm::isa<llvm::Constant>(v)) {
      return true;
    }
    const auto* i = llvm::dyn_cast<Instruction>(v);
    constexpr unsigned kMaxDepth = 16;
    if (i == nullptr || depth > kMaxDepth || llvm::isa<llvm::PHINode, llvm::AllocaInst>(i)) {
      return false;
    }
    const auto operands = [&] {
      return llvm::all_of(i->operands(),
                          [&](const Value* op) { return computable(op, depth + 1); });
    };
    if (const auto* load = llvm::dyn_cast<llvm::LoadInst>(i)) {
      const bool unwritten =
          load->hasMetadata(llvm::LLVMContext::MD_invariant_load) ||
          (inputs_.frame != nullptr &&
           llvm::getUnderlyingObject(load->getPointerOperand()) == inputs_.frame);
      return load->isSimple() && unwritten && operands();
    }
    return !i->mayReadOrWriteMemory() && llvm::isSafeToSpeculativelyExecute(i) && operands();
  }

 private:
  const GuardInputs& inputs_;
};

/// A copy of `region` in which `condition` is `value`.
Function* copy_with(Function& region, llvm::ICmpInst* condition, bool value, const char* suffix) {
  llvm::ValueToValueMapTy map;
  Function* copy = llvm::CloneFunction(&region, map);
  copy->setName(region.getName() + suffix);
  auto* copied = llvm::cast<Instruction>(map[condition]);
  copied->replaceAllUsesWith(llvm::ConstantInt::getBool(region.getContext(), value));
  copied->eraseFromParent();
  return copy;
}

/// A copy of `v`'s computation, made with `b`; `map` holds what is already copied.
Value* copy_computation(llvm::IRBuilderBase& b, Value* v, llvm::ValueToValueMapTy& map) {
  if (Value* done = map.lookup(v)) {
    return done;
  }
  if (llvm::isa<llvm::Constant>(v)) {
    return v;
  }
  Instruction* copy = llvm::cast<Instruction>(v)->clone();
  for (llvm::Use& op : copy->operands()) {
    op.set(copy_computation(b, op.get(), map));
  }
  b.Insert(copy, v->getName() + ".guard");
  map[v] = copy;
  return copy;
}

}  // namespace

std::optional<ThreadGuard> find_thread_guard(Function& region, const GuardInputs& inputs) {
  const SharedValues shared(inputs);
  llvm::ReversePostOrderTraversal<Function*> order(&region);
  for (llvm::BasicBlock* block : order) {
    auto* branch = llvm::dyn_cast<llvm::BranchInst>(block->getTerminator());
    auto* condition = branch != nullptr && branch->isConditional()
                          ? llvm::dyn_cast<llvm::ICmpInst>(branch->getCondition())
                          : nullptr;
    if (condition == nullptr) {
      continue;
    }
    // As `x <predicate> bound`.
    llvm::CmpInst::Predicate predicate = condition->getPredicate();
    Value* bound = condition->getOperand(1);
    if (is_x(condition->getOperand(1), inputs.x)) {
      predicate = condition->getSwappedPredicate();
      bound = condition->getOperand(0);
    } else if (!is_x(condition->getOperand(0), inputs.x)) {
      continue;
    }
    ThreadGuard guard;
    switch (llvm::ICmpInst::getUnsignedPredicate(predicate)) {
      case llvm::CmpInst::ICMP_ULT:
        break;
      case llvm::CmpInst::ICMP_ULE:
        guard.or_equal = true;
        break;
      case llvm::CmpInst::ICMP_UGT:
        guard.holds_below = false;
        guard.or_equal = true;
        break;
      case llvm::CmpInst::ICMP_UGE:
        guard.holds_below = false;
        break;
      default:
        continue;
    }
    if (!shared.computable(bound)) {
      continue;
    }
    guard.is_signed = llvm::ICmpInst::isSigned(predicate);
    guard.bound = bound;
    guard.below = copy_with(region, condition, guard.holds_below, ".below");
    guard.above = copy_with(region, condition, !guard.holds_below, ".above");
    return guard;
  }
  return std::nullopt;
}

Value* emit_split(llvm::IRBuilderBase& b, const ThreadGuard& guard,
                  const llvm::ValueToValueMapTy& params, Value* nx) {
  llvm::ValueToValueMapTy map;
  for (const auto& [from, to] : params) {
    map[from] = to;
  }
  Value* bound = copy_computation(b, guard.bound, map);
  Value* n = b.CreateZExt(nx, bound->getType());  // the bound is x's type or wider
  Value* one = llvm::ConstantInt::get(bound->getType(), 1);
  Value* zero = llvm::ConstantInt::get(bound->getType(), 0);
  const auto min = [&](Value* l, Value* r) {
    return b.CreateBinaryIntrinsic(guard.is_signed ? llvm::Intrinsic::smin : llvm::Intrinsic::umin,
                                   l, r);
  };
  Value* split = nullptr;
  if (guard.or_equal) {
    // x <= bound below min(bound, nx - 1) + 1 (no overflow); a negative signed bound: none.
    split = b.CreateAdd(min(bound, b.CreateSub(n, one)), one);
    if (guard.is_signed) {
      split = b.CreateBinaryIntrinsic(llvm::Intrinsic::smax, split, zero);
    }
  } else {
    split = guard.is_signed ? min(b.CreateBinaryIntrinsic(llvm::Intrinsic::smax, bound, zero), n)
                            : min(bound, n);
  }
  return b.CreateTrunc(split, nx->getType(), "split");
}

}  // namespace kjit::cpu
