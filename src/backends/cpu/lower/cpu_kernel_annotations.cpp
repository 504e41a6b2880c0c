// kjit's annotations in the front end's IR: which functions are __global__ (and with what launch
// bounds), which variables __shared__, at namespace scope and in functions.
#include "backends/cpu/lower/cpu_lowering_steps.hpp"

#include <llvm/ADT/STLExtras.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Module.h>

#include <optional>

namespace kjit::cpu {

namespace lowering {

using llvm::Function;
using llvm::GlobalVariable;

namespace {

std::optional<llvm::StringRef> annotation_text(llvm::Value* value) {
  auto* g = llvm::dyn_cast<GlobalVariable>(value->stripPointerCasts());
  if (g == nullptr || !g->hasInitializer()) {
    return std::nullopt;
  }
  auto* data = llvm::dyn_cast<llvm::ConstantDataSequential>(g->getInitializer());
  if (data == nullptr || !data->isCString()) {
    return std::nullopt;
  }
  return data->getAsCString();
}

/// The first argument of an annotation (what follows its text: `annotate("kjit.max_threads", n)`)
/// as an integer, if it has one.
std::optional<std::uint64_t> annotation_argument(llvm::ConstantStruct& entry) {
  constexpr unsigned kArguments = 4;  // {target, text, file, line, arguments}
  if (entry.getNumOperands() <= kArguments) {
    return std::nullopt;
  }
  auto* g = llvm::dyn_cast<GlobalVariable>(entry.getOperand(kArguments)->stripPointerCasts());
  if (g == nullptr || !g->hasInitializer()) {
    return std::nullopt;
  }
  auto* arguments = llvm::dyn_cast<llvm::ConstantStruct>(g->getInitializer());
  if (arguments == nullptr || arguments->getNumOperands() == 0) {
    return std::nullopt;
  }
  auto* value = llvm::dyn_cast<llvm::ConstantInt>(arguments->getOperand(0));
  if (value == nullptr || value->isNegative()) {
    return std::nullopt;
  }
  return value->getZExtValue();
}

}  // namespace

/// kjit's annotations: which functions are __global__ (and with what launch bounds), which
/// variables __shared__.
Annotated read_global_annotations(llvm::Module& m) {
  Annotated out;
  GlobalVariable* table = m.getNamedGlobal("llvm.global.annotations");
  if (table == nullptr) {
    return out;
  }
  if (auto* array = llvm::dyn_cast<llvm::ConstantArray>(table->getInitializer())) {
    for (llvm::Use& op : array->operands()) {
      auto* entry = llvm::dyn_cast<llvm::ConstantStruct>(op.get());
      if (entry == nullptr || entry->getNumOperands() < 2) {
        continue;
      }
      const auto text = annotation_text(entry->getOperand(1));
      llvm::Value* target = entry->getOperand(0)->stripPointerCasts();
      if (text == "kjit.kernel") {
        if (auto* f = llvm::dyn_cast<Function>(target)) {
          out.kernels.insert(f);
        }
      } else if (text == "kjit.shared") {
        if (auto* g = llvm::dyn_cast<GlobalVariable>(target)) {
          out.shared.push_back(g);
        }
      } else if (text == "kjit.max_threads") {
        auto* f = llvm::dyn_cast<Function>(target);
        if (const std::optional<std::uint64_t> threads = annotation_argument(*entry);
            f != nullptr && threads) {
          out.max_threads[f] = *threads;
        }
      }
    }
  }
  return out;
}

/// Reads kjit's annotations and removes llvm.global.annotations, whose references would
/// otherwise look like functions whose address is taken.
Annotated take_global_annotations(llvm::Module& m) {
  Annotated out = read_global_annotations(m);
  if (GlobalVariable* table = m.getNamedGlobal("llvm.global.annotations")) {
    table->eraseFromParent();
  }
  for (Function& f : m) {
    f.removeDeadConstantUsers();  // the table's constants would still count as uses
  }
  return out;
}

/// The allocas of function-local __shared__ variables; removes every llvm.var.annotation.
std::vector<llvm::AllocaInst*> take_shared_allocas(llvm::Module& m) {
  std::vector<llvm::AllocaInst*> allocas;
  std::vector<llvm::Instruction*> dead;
  for (Function& f : m) {
    for (llvm::Instruction& i : llvm::instructions(f)) {
      auto* call = llvm::dyn_cast<llvm::IntrinsicInst>(&i);
      if (call == nullptr || call->getIntrinsicID() != llvm::Intrinsic::var_annotation) {
        continue;
      }
      dead.push_back(call);
      if (annotation_text(call->getArgOperand(1)) == "kjit.shared") {
        if (auto* a =
                llvm::dyn_cast<llvm::AllocaInst>(call->getArgOperand(0)->stripPointerCasts())) {
          if (llvm::find(allocas, a) == allocas.end()) {
            allocas.push_back(a);
          }
        }
      }
    }
  }
  for (llvm::Instruction* i : dead) {
    i->eraseFromParent();
  }
  return allocas;
}

}  // namespace lowering

std::set<llvm::Function*> kernel_functions(llvm::Module& module) {
  return lowering::read_global_annotations(module).kernels;
}

}  // namespace kjit::cpu
