// The vector forms of what runs in a loop over a warp's lanes in step (cpu_warp_lanes.cpp): the
// shuffles' permutes, and the operations LLVM's loop vectoriser cannot widen, run lane by lane;
// what the optimiser does with them after vectorising, and what is left when it did not.
#include "backends/cpu/lower/cpu_warp_lanes.hpp"

#include "backends/cpu/lower/cpu_barrier_regions_internal.hpp"

#include "backends/cpu/prelude/cpu_abi.h"
#include "backends/cpu/run/cpu_runtime_symbols.hpp"

#include <llvm/Analysis/LoopInfo.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/PassManager.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Transforms/InstCombine/InstCombine.h>
#include <llvm/Transforms/Scalar/SimplifyCFG.h>
#include <llvm/Transforms/Utils/Cloning.h>
#include <llvm/Transforms/Utils/Local.h>
#include <llvm/Transforms/Utils/ModuleUtils.h>

#include <fmt/format.h>

#include <array>
#include <cstdint>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace kjit::cpu {

using llvm::BasicBlock;
using llvm::CallInst;
using llvm::Function;
using llvm::Instruction;
using llvm::Value;

bool is_lane_exchange(llvm::StringRef name) {
  return llvm::is_contained(kWarpLaneExchangeSymbols, std::string_view(name));
}

namespace {

constexpr unsigned kLanes = KJIT_CPU_WARP_LANES;
constexpr std::string_view kLaneOpPrefix = "__kjit_warp_op.";

}  // namespace

bool is_lane_call(llvm::StringRef name) {
  return is_lane_exchange(name) || name.starts_with(kLaneOpPrefix);
}

namespace {

/// The function that runs `i` (runs_lane_by_lane) on its operands, `operands`: its own call, or
/// a copy of it.
Function* make_lane_op(Instruction& i, const std::vector<Value*>& operands) {
  llvm::Module& m = *i.getModule();
  std::vector<llvm::Type*> types;
  types.reserve(operands.size());
  for (Value* v : operands) {
    types.push_back(v->getType());
  }
  Function* op =
      Function::Create(llvm::FunctionType::get(i.getType(), types, false),
                       llvm::GlobalValue::InternalLinkage, std::string(kLaneOpPrefix) + "0", m);
  op->addFnAttr(llvm::Attribute::NoInline);  // until the loop is vectorised
  op->addFnAttr(llvm::Attribute::NoUnwind);
  llvm::IRBuilder<> b(BasicBlock::Create(m.getContext(), "entry", op));
  Instruction* copy = i.clone();
  if (auto* call = llvm::dyn_cast<CallInst>(copy)) {
    for (unsigned k = 0; k < call->arg_size(); ++k) {
      call->setArgOperand(k, op->getArg(k));
    }
  } else {
    for (unsigned k = 0; k < copy->getNumOperands(); ++k) {
      copy->setOperand(k, op->getArg(k));
    }
  }
  b.Insert(copy);
  if (i.getType()->isVoidTy()) {
    b.CreateRetVoid();
  } else {
    b.CreateRet(copy);
  }
  return op;
}

/// The vector form of `op`: for each lane whose mask bit is set, in lane order, `op` on its
/// values; the results as a vector.
Function* make_lane_op_form(Function& op) {
  llvm::Module& m = *op.getParent();
  llvm::LLVMContext& ctx = m.getContext();
  const unsigned n = op.arg_size();
  std::vector<llvm::Type*> types;
  types.reserve(n + 1);
  for (const llvm::Argument& a : op.args()) {
    types.push_back(llvm::FixedVectorType::get(a.getType(), kLanes));
  }
  types.push_back(llvm::FixedVectorType::get(llvm::Type::getInt1Ty(ctx), kLanes));
  llvm::Type* result =
      op.getReturnType()->isVoidTy()
          ? op.getReturnType()
          : static_cast<llvm::Type*>(llvm::FixedVectorType::get(op.getReturnType(), kLanes));
  Function* form = Function::Create(llvm::FunctionType::get(result, types, false),
                                    llvm::GlobalValue::InternalLinkage, op.getName() + ".lanes", m);
  form->addFnAttr(llvm::Attribute::NoUnwind);
  llvm::IRBuilder<> b(BasicBlock::Create(ctx, "entry", form));
  Value* out = result->isVoidTy() ? nullptr : llvm::PoisonValue::get(result);
  for (unsigned l = 0; l < kLanes; ++l) {
    BasicBlock* run = BasicBlock::Create(ctx, "lane", form);
    BasicBlock* next = BasicBlock::Create(ctx, "next", form);
    BasicBlock* from = b.GetInsertBlock();
    b.CreateCondBr(b.CreateExtractElement(form->getArg(n), b.getInt32(l)), run, next);
    b.SetInsertPoint(run);
    std::vector<Value*> args;
    args.reserve(n);
    for (unsigned k = 0; k < n; ++k) {
      args.push_back(b.CreateExtractElement(form->getArg(k), b.getInt32(l)));
    }
    Value* r = b.CreateCall(&op, args);
    Value* with = out == nullptr ? nullptr : b.CreateInsertElement(out, r, b.getInt32(l));
    b.CreateBr(next);
    b.SetInsertPoint(next);
    if (out != nullptr) {
      llvm::PHINode* phi = b.CreatePHI(result, 2);
      phi->addIncoming(out, from);
      phi->addIncoming(with, run);
      out = phi;
    }
  }
  if (out == nullptr) {
    b.CreateRetVoid();
  } else {
    b.CreateRet(out);
  }
  return form;
}

}  // namespace

void lane_by_lane(Instruction& i) {
  std::vector<Value*> operands;
  if (auto* call = llvm::dyn_cast<CallInst>(&i)) {
    operands.assign(call->arg_begin(), call->arg_end());
  } else {
    operands.assign(i.op_begin(), i.op_end());
  }
  Function* op = make_lane_op(i, operands);
  Function* form = make_lane_op_form(*op);
  llvm::appendToCompilerUsed(*i.getModule(), {form});
  llvm::IRBuilder<> b(&i);
  CallInst* call = b.CreateCall(op, operands);
  std::string variant = fmt::format("_ZGV_LLVM_M{}", kLanes);
  variant.append(operands.size(), 'v');
  variant += fmt::format("_{}({})", op->getName().str(), form->getName().str());
  call->addFnAttr(llvm::Attribute::get(i.getContext(), "vector-function-abi-variant", variant));
  i.replaceAllUsesWith(call);
  call->takeName(&i);
  i.eraseFromParent();
}

namespace barrier_split {

bool runs_lanes_in_step(const Function& g) {
  for (const Instruction& i : llvm::instructions(g)) {
    const auto* call = llvm::dyn_cast<CallInst>(&i);
    if (call != nullptr && call->getCalledFunction() != nullptr &&
        is_lane_exchange(call->getCalledFunction()->getName())) {
      return true;
    }
  }
  return false;
}

}  // namespace barrier_split

namespace {

/// A vector form's declaration: the scalar form's parameters as vectors of 32, then the mask of
/// the lanes that run; always inlined.
Function* declare_form(llvm::Module& m, Function& scalar) {
  llvm::LLVMContext& ctx = m.getContext();
  std::vector<llvm::Type*> params;
  for (const llvm::Argument& a : scalar.args()) {
    params.push_back(llvm::FixedVectorType::get(a.getType(), kLanes));
  }
  params.push_back(llvm::FixedVectorType::get(llvm::Type::getInt1Ty(ctx), kLanes));
  auto* type = llvm::FunctionType::get(llvm::FixedVectorType::get(scalar.getReturnType(), kLanes),
                                       params, false);
  Function* g =
      Function::Create(type, llvm::GlobalValue::InternalLinkage, scalar.getName() + ".lanes", m);
  g->addFnAttr(llvm::Attribute::AlwaysInline);
  g->addFnAttr(llvm::Attribute::NoUnwind);
  return g;
}

/// The vector form of shuffle `scalar` (i32 or i64 values): the lanes of a warp as the lanes of
/// the vectors, for each the value of the lane it reads, or its own where that lane is outside
/// its segment (PTX's shfl.sync, as cpu_prelude_warp.h's shfl computes it lane by lane). Its
/// parameters are those of the scalar form, as vectors, then the mask of the lanes that run.
Function* define_shuffle_form(llvm::Module& m, Function& scalar) {
  Function* g = declare_form(m, scalar);
  auto* values = llvm::cast<llvm::FixedVectorType>(g->getReturnType());
  auto* ints = llvm::FixedVectorType::get(llvm::Type::getInt32Ty(m.getContext()), kLanes);
  llvm::IRBuilder<> b(BasicBlock::Create(m.getContext(), "entry", g));
  const auto splat = [&](std::int64_t v) { return llvm::ConstantInt::get(ints, v); };
  std::vector<llvm::Constant*> lane_numbers;
  lane_numbers.reserve(kLanes);
  for (unsigned l = 0; l < kLanes; ++l) {
    lane_numbers.push_back(b.getInt32(l));
  }
  Value* lane = llvm::ConstantVector::get(lane_numbers);  // the lane is the vector's lane
  Value* v = g->getArg(0);
  Value* mode = g->getArg(2);
  Value* bval = b.CreateAnd(g->getArg(3), splat(31));
  Value* segmask = b.CreateAnd(b.CreateSub(splat(32), g->getArg(4)), splat(31));
  Value* outside = b.CreateXor(segmask, splat(-1));
  Value* min_lane = b.CreateAnd(lane, segmask);
  Value* up = b.CreateICmpEQ(mode, splat(0));
  Value* max_lane =
      b.CreateOr(min_lane, b.CreateAnd(b.CreateSelect(up, splat(0), splat(31)), outside));
  Value* j_up = b.CreateSub(lane, bval);
  Value* j_down = b.CreateAdd(lane, bval);
  Value* j_xor = b.CreateXor(lane, bval);
  Value* j_idx = b.CreateOr(min_lane, b.CreateAnd(bval, outside));
  Value* j =
      b.CreateSelect(up, j_up,
                     b.CreateSelect(b.CreateICmpEQ(mode, splat(1)), j_down,
                                    b.CreateSelect(b.CreateICmpEQ(mode, splat(2)), j_xor, j_idx)));
  Value* ok = b.CreateSelect(up, b.CreateICmpSGE(j, max_lane), b.CreateICmpSLE(j, max_lane));
  Value* from = b.CreateAnd(j, splat(31));
  Value* read = llvm::PoisonValue::get(values);
  for (unsigned l = 0; l < kLanes; ++l) {
    read = b.CreateInsertElement(
        read, b.CreateExtractElement(v, b.CreateExtractElement(from, b.getInt32(l))),
        b.getInt32(l));
  }
  b.CreateRet(b.CreateSelect(ok, read, v));
  return g;
}

/// The vector form of a vote (__kjit_warp_ballot): the bits of the lanes that run whose
/// predicate is not zero, in every lane.
Function* define_ballot_form(llvm::Module& m, Function& scalar) {
  Function* g = declare_form(m, scalar);
  llvm::IRBuilder<> b(BasicBlock::Create(m.getContext(), "entry", g));
  Value* votes = b.CreateAnd(b.CreateIsNotNull(g->getArg(0)), g->getArg(1));
  b.CreateRet(b.CreateVectorSplat(kLanes, b.CreateBitCast(votes, b.getInt32Ty())));
  return g;
}

/// The vector form of a reduction (__kjit_warp_reduce32, its operation one of cpu_prelude_warp.h's
/// reduce_op, the same in every lane): the operation over the lanes that run, in every lane.
Function* define_reduce_form(llvm::Module& m, Function& scalar) {
  Function* g = declare_form(m, scalar);
  llvm::IRBuilder<> b(BasicBlock::Create(m.getContext(), "entry", g));
  Value* op = b.CreateExtractElement(g->getArg(1), b.getInt32(0));
  using Id = llvm::Intrinsic::ID;
  // In reduce_op's order: the reduction, and the value of the lanes that do not run.
  const std::array<std::pair<Id, std::uint32_t>, 8> ops = {{
      {llvm::Intrinsic::vector_reduce_add, 0U},
      {llvm::Intrinsic::vector_reduce_umin, ~0U},
      {llvm::Intrinsic::vector_reduce_umax, 0U},
      {llvm::Intrinsic::vector_reduce_and, ~0U},
      {llvm::Intrinsic::vector_reduce_or, 0U},
      {llvm::Intrinsic::vector_reduce_xor, 0U},
      {llvm::Intrinsic::vector_reduce_smin, 0x7fffffffU},
      {llvm::Intrinsic::vector_reduce_smax, 0x80000000U},
  }};
  Value* result = llvm::PoisonValue::get(b.getInt32Ty());
  for (unsigned k = 0; k < ops.size(); ++k) {
    Value* lanes = b.CreateSelect(g->getArg(2), g->getArg(0),
                                  b.CreateVectorSplat(kLanes, b.getInt32(ops[k].second)));
    Value* r = b.CreateUnaryIntrinsic(ops[k].first, lanes);
    result = b.CreateSelect(b.CreateICmpEQ(op, b.getInt32(k)), r, result);
  }
  b.CreateRet(b.CreateVectorSplat(kLanes, result));
  return g;
}

/// The vector form of exchange `scalar` (is_lane_exchange).
Function* define_vector_form(llvm::Module& m, Function& scalar) {
  if (scalar.getName() == llvm::StringRef(kWarpBallotSymbol)) {
    return define_ballot_form(m, scalar);
  }
  if (scalar.getName() == llvm::StringRef(kWarpReduceSymbol)) {
    return define_reduce_form(m, scalar);
  }
  return define_shuffle_form(m, scalar);
}

/// LLVM's loop vectoriser calls a vector form, not the function it stands for: inlined after
/// vectorisation, a shuffle by a constant distance folds to a permute.
struct InlineLaneForms : llvm::PassInfoMixin<InlineLaneForms> {
  llvm::PreservedAnalyses run(Function& f, llvm::FunctionAnalysisManager& /*am*/) {
    std::vector<CallInst*> calls;
    for (Instruction& i : llvm::instructions(f)) {
      auto* call = llvm::dyn_cast<CallInst>(&i);
      if (call != nullptr && call->getCalledFunction() != nullptr &&
          call->getCalledFunction()->getName().starts_with("__kjit_warp_") &&
          (call->getCalledFunction()->getName().ends_with(".lanes") ||
           call->getCalledFunction()->getName().starts_with(kLaneOpPrefix))) {
        calls.push_back(call);
      }
    }
    const bool changed = !calls.empty();
    // A vector form of an operation lane by lane calls the operation: inlined in turn.
    while (!calls.empty()) {
      CallInst* call = calls.back();
      calls.pop_back();
      call->getCalledFunction()->removeFnAttr(llvm::Attribute::NoInline);
      llvm::InlineFunctionInfo info;
      if (!llvm::InlineFunction(*call, info).isSuccess()) {
        continue;
      }
      for (llvm::CallBase* inlined : info.InlinedCallSites) {
        auto* c = llvm::dyn_cast<CallInst>(inlined);
        if (c != nullptr && c->getCalledFunction() != nullptr &&
            c->getCalledFunction()->getName().starts_with(kLaneOpPrefix)) {
          calls.push_back(c);
        }
      }
    }
    return changed ? llvm::PreservedAnalyses::none() : llvm::PreservedAnalyses::all();
  }
};

/// Once inlined, the vector forms and the operations run lane by lane go: kept for the
/// vectoriser by llvm.compiler.used, they would otherwise be compiled to code nothing calls.
struct DropLaneForms : llvm::PassInfoMixin<DropLaneForms> {
  llvm::PreservedAnalyses run(llvm::Module& m, llvm::ModuleAnalysisManager& /*am*/) {
    const auto lane_code = [](const Function& f) {
      return f.getName().starts_with("__kjit_warp_") &&
             (f.getName().ends_with(".lanes") || f.getName().starts_with(kLaneOpPrefix));
    };
    llvm::removeFromUsedLists(m, [&](llvm::Constant* c) {
      const auto* f = llvm::dyn_cast<Function>(c->stripPointerCasts());
      return f != nullptr && lane_code(*f);
    });
    bool changed = true;
    bool any = false;
    while (changed) {  // a form that calls an operation goes first, then the operation
      changed = false;
      for (Function& f : llvm::make_early_inc_range(m)) {
        if (lane_code(f) && f.use_empty()) {
          f.eraseFromParent();
          changed = true;
          any = true;
        }
      }
    }
    return any ? llvm::PreservedAnalyses::none() : llvm::PreservedAnalyses::all();
  }
};

}  // namespace

void finish_lanes_in_step(llvm::Module& m) {
  if (Function* marker = m.getFunction(kWarpInStepSymbol)) {
    std::set<Function*> callers;
    for (llvm::User* user : llvm::make_early_inc_range(marker->users())) {
      auto* call = llvm::cast<CallInst>(user);
      call->replaceAllUsesWith(llvm::ConstantInt::getFalse(m.getContext()));
      callers.insert(call->getFunction());
      call->eraseFromParent();
    }
    marker->eraseFromParent();
    for (Function* f : callers) {
      for (BasicBlock& b : *f) {
        llvm::ConstantFoldTerminator(&b, /*DeleteDeadConditions=*/true);
      }
      llvm::removeUnreachableBlocks(*f);
    }
  }
  for (std::string_view name : kWarpLaneExchangeSymbols) {
    Function* scalar = m.getFunction(name);
    if (scalar == nullptr) {
      continue;
    }
    if (scalar->use_empty()) {
      scalar->eraseFromParent();
      continue;
    }
    Function* lanes = define_vector_form(m, *scalar);
    llvm::appendToCompilerUsed(m, {lanes});
    // The vector form's name in the vector function ABI: 32 lanes, masked, every parameter a
    // vector.
    const std::string variant =
        fmt::format("_ZGV_LLVM_M{}{}_{}({})", kLanes, std::string(scalar->arg_size(), 'v'), name,
                    lanes->getName().str());
    for (llvm::User* user : scalar->users()) {
      if (auto* call = llvm::dyn_cast<CallInst>(user)) {
        call->addFnAttr(
            llvm::Attribute::get(m.getContext(), "vector-function-abi-variant", variant));
        call->setMemoryEffects(llvm::MemoryEffects::inaccessibleMemOnly());
        // Copied into the arms of a branch that splits a warp (jump threading), an exchange
        // would run with part of its lanes masked off in each copy.
        call->addFnAttr(llvm::Attribute::NoDuplicate);
      }
    }
  }
}

void add_lane_inlining(llvm::PassBuilder& builder) {
  builder.registerOptimizerLastEPCallback(
      [](llvm::ModulePassManager& passes, llvm::OptimizationLevel /*level*/) {
        llvm::FunctionPassManager lanes;
        lanes.addPass(InlineLaneForms());
        lanes.addPass(llvm::InstCombinePass());
        lanes.addPass(llvm::SimplifyCFGPass());
        passes.addPass(llvm::createModuleToFunctionPassAdaptor(std::move(lanes)));
        passes.addPass(DropLaneForms());
      });
}

bool calls_lanes_alone(const llvm::Module& m) {
  std::set<Function*> callers;
  for (std::string_view name : kWarpLaneExchangeSymbols) {
    if (const Function* scalar = m.getFunction(name)) {
      for (const llvm::User* user : scalar->users()) {
        if (const auto* call = llvm::dyn_cast<CallInst>(user)) {
          callers.insert(const_cast<Function*>(call->getFunction()));
        }
      }
    }
  }
  // LLVM keeps the scalar loop it vectorised for when a check at run time fails (an index that
  // wraps around 32 bits within a warp): marked vectorised, it runs only then, and its shuffles
  // stop the kernel with an error that says so. A scalar shuffle anywhere else is a loop LLVM did
  // not vectorise.
  for (Function* f : callers) {
    const llvm::DominatorTree dt(*f);
    const llvm::LoopInfo loops(dt);
    for (const Instruction& i : llvm::instructions(*f)) {
      const auto* call = llvm::dyn_cast<CallInst>(&i);
      if (call == nullptr || call->getCalledFunction() == nullptr ||
          !is_lane_exchange(call->getCalledFunction()->getName())) {
        continue;
      }
      const llvm::Loop* loop = loops.getLoopFor(i.getParent());
      if (loop == nullptr || !llvm::getBooleanLoopAttribute(loop, "llvm.loop.isvectorized")) {
        return true;
      }
    }
  }
  return false;
}

}  // namespace kjit::cpu
