// CUDA's builtins (threadIdx, blockIdx, blockDim, gridDim) and __shared__ slots as reads of the
// running thread's context (cpu_abi.h's kjit_cpu_thread), which the kernel entries bind and pass
// down, as an extra parameter, to every function that needs it.
#include "backends/cpu/check/cpu_access_checks.hpp"
#include "backends/cpu/check/cpu_debug_variables.hpp"
#include "backends/cpu/lower/cpu_lowering_steps.hpp"
#include "backends/cpu/prelude/cpu_abi.h"

#include <kjit/error.hpp>

#include <llvm/ADT/STLExtras.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/DebugInfoMetadata.h>
#include <llvm/IR/DerivedTypes.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>
#include <llvm/Transforms/Utils/Cloning.h>

#include <fmt/format.h>

#include <cstddef>
#include <optional>

namespace kjit::cpu::lowering {

namespace {

using llvm::Function;

/// Gives every function that needs the thread context (directly, or through a callee) an extra
/// trailing parameter carrying it, starting from the entries that bind it.
class ContextThreading {
 public:
  ContextThreading(llvm::Module& m, const LoweringRequest& request, Function* slot_fn)
      : module_(m),
        request_(request),
        slot_fn_(slot_fn),
        context_fn_(m.getFunction(kContextFn)),
        check_context_fn_(m.getFunction(kCheckContextSymbol)),
        bind_fn_(m.getFunction(kBindFn)),
        ptr_(llvm::PointerType::get(m.getContext(), 0)) {}

  void run() {
    roots_ = callers_of(bind_fn_);
    find_users();
    for (Function& f : module_) {  // module order, so that the output does not vary by run
      if (needs_.count(&f) != 0) {
        order_.push_back(&f);
      }
    }
    for (Function* f : order_) {
      clones_[f] = clone_with_context(f);
    }
    std::optional<DebugThreadVariables> debug;
    if (request_.debug) {
      debug.emplace(module_);
    }
    for (auto& [original, clone] : clones_) {
      rewrite(*clone, clone->getArg(clone->arg_size() - 1));
      if (debug) {
        debug->add(*clone, clone->getArg(clone->arg_size() - 1));
      }
    }
    for (Function* root : roots_) {
      rewrite(*root, bound_context(*root));
    }
    // The others have no context: their checks get none, nor do the checked functions they call.
    std::set<Function*> with_context(roots_);
    for (auto& [original, clone] : clones_) {
      with_context.insert({original, clone});
    }
    for (Function& f : module_) {
      if (!f.isDeclaration() && with_context.count(&f) == 0) {
        rewrite(f, llvm::ConstantPointerNull::get(ptr_));
      }
    }
    for (auto& [original, clone] : clones_) {
      original->replaceAllUsesWith(llvm::PoisonValue::get(original->getType()));
      original->eraseFromParent();
    }
    for (Function* f : {context_fn_, check_context_fn_, bind_fn_, slot_fn_}) {
      if (f != nullptr) {
        f->replaceAllUsesWith(llvm::PoisonValue::get(f->getType()));
        f->eraseFromParent();
      }
    }
  }

 private:
  /// The call that `use` of a function is the callee of, or nullptr (its address is taken).
  static llvm::CallInst* direct_call(llvm::Use& use) {
    auto* call = llvm::dyn_cast<llvm::CallInst>(use.getUser());
    return call != nullptr && call->isCallee(&use) ? call : nullptr;
  }

  /// Whether `f` can be given the context: it is only called directly.
  static bool only_called_directly(Function& f) {
    return llvm::all_of(f.uses(), [](llvm::Use& use) { return direct_call(use) != nullptr; });
  }

  void find_users() {
    std::vector<Function*> work;
    const auto need = [&](Function* f) {
      if (roots_.count(f) == 0 && needs_.insert(f).second) {
        work.push_back(f);
      }
    };
    // What reads threadIdx & co. or shared memory must have the context, and so must its callers.
    for (Function* source : {context_fn_, slot_fn_}) {
      for (Function* f : callers_of(source)) {
        need(f);
      }
    }
    while (!work.empty()) {
      Function* f = work.back();
      work.pop_back();
      for (llvm::Use& use : f->uses()) {
        llvm::CallInst* call = direct_call(use);
        if (call == nullptr) {
          refuse_indirect_use(*f, use);
        }
        need(call->getFunction());
      }
    }
    // Checked mode's checks take it where it can be given (cpu_access_checks.hpp): not in a
    // function used through a pointer, nor, for them, in that function's callers.
    for (Function* f : callers_of(check_context_fn_)) {
      if (only_called_directly(*f)) {
        need(f);
      }
    }
    while (!work.empty()) {
      Function* f = work.back();
      work.pop_back();
      for (llvm::Use& use : f->uses()) {
        Function* caller = direct_call(use)->getFunction();
        if (only_called_directly(*caller)) {
          need(caller);
        }
      }
    }
  }

  /// `f` reads the thread context and `use` takes its address: a compile error at the user's
  /// line, where the compile has line tables (checked and debug compiles, and the second compile
  /// that cpu_compiler.cpp makes to place such an error): the use's, else f's definition.
  [[noreturn]] void refuse_indirect_use(Function& f, llvm::Use& use) const {
    Diagnostic d;
    d.severity = Diagnostic::Severity::error;
    d.message = fmt::format(
        "'{}' reads threadIdx, blockIdx, blockDim, gridDim or __shared__ memory and is used "
        "through a pointer or a virtual call; the CPU backend can only call such functions "
        "directly",
        readable(f.getName()));
    const auto users_file = [](llvm::StringRef file) {
      return !file.empty() && !file.starts_with("/__kjit__/");
    };
    auto* at = llvm::dyn_cast<llvm::Instruction>(use.getUser());
    const llvm::DILocation* loc = at != nullptr ? at->getDebugLoc().get() : nullptr;
    if (loc != nullptr && users_file(loc->getFilename())) {
      d.file = loc->getFilename().str();
      d.line = loc->getLine();
      d.column = loc->getColumn();
    } else if (const llvm::DISubprogram* program = f.getSubprogram();
               program != nullptr && users_file(program->getFilename())) {
      d.file = program->getFilename().str();
      d.line = program->getLine();
    }
    throw CompileError(request_.program, request_.device, {d}, d.to_string());
  }

  Function* clone_with_context(Function* f) {
    std::vector<llvm::Type*> params(f->getFunctionType()->param_begin(),
                                    f->getFunctionType()->param_end());
    params.push_back(ptr_);
    auto* type = llvm::FunctionType::get(f->getReturnType(), params, f->isVarArg());
    Function* clone = Function::Create(type, llvm::GlobalValue::InternalLinkage,
                                       f->getAddressSpace(), f->getName() + ".kjit", &module_);
    llvm::ValueToValueMapTy map;
    auto* arg = clone->arg_begin();
    for (llvm::Argument& a : f->args()) {
      arg->setName(a.getName());
      map[&a] = &*arg;
      ++arg;
    }
    arg->setName("kjit.thread");
    llvm::SmallVector<llvm::ReturnInst*, 4> returns;
    llvm::CloneFunctionInto(clone, f, map, llvm::CloneFunctionChangeType::LocalChangesOnly,
                            returns);
    clone->setLinkage(llvm::GlobalValue::InternalLinkage);
    clone->setVisibility(llvm::GlobalValue::DefaultVisibility);
    clone->setComdat(nullptr);
    return clone;
  }

  llvm::Value* bound_context(Function& root) const {
    for (llvm::Instruction& i : llvm::instructions(root)) {
      if (auto* call = llvm::dyn_cast<llvm::CallInst>(&i);
          call != nullptr && call->getCalledFunction() == bind_fn_) {
        return call->getArgOperand(0);
      }
    }
    throw BackendError("kjit: internal error: a kernel entry binds no thread context");
  }

  /// Within `f`, whose thread context is `context`: resolves context reads and shared slots,
  /// and passes the context on to callees that take it.
  void rewrite(Function& f, llvm::Value* context) {
    std::vector<llvm::CallInst*> calls;
    for (llvm::Instruction& i : llvm::instructions(f)) {
      if (auto* call = llvm::dyn_cast<llvm::CallInst>(&i)) {
        calls.push_back(call);
      }
    }
    for (llvm::CallInst* call : calls) {
      Function* callee = call->getCalledFunction();
      if (callee == nullptr) {
        continue;
      }
      if (callee == context_fn_ || callee == check_context_fn_) {
        call->replaceAllUsesWith(context);
        call->eraseFromParent();
      } else if (callee == bind_fn_) {
        call->eraseFromParent();
      } else if (callee == slot_fn_) {
        llvm::IRBuilder<> b(call);
        llvm::Type* i8 = b.getInt8Ty();
        llvm::Value* block = b.CreateLoad(
            ptr_, b.CreateConstInBoundsGEP1_64(i8, context, offsetof(kjit_cpu_thread, block)));
        llvm::Value* shared = b.CreateLoad(
            ptr_, b.CreateConstInBoundsGEP1_64(i8, block, offsetof(kjit_cpu_block, shared)));
        llvm::Value* address = b.CreateInBoundsGEP(i8, shared, call->getArgOperand(0));
        call->replaceAllUsesWith(address);
        call->eraseFromParent();
      } else if (auto it = clones_.find(callee); it != clones_.end()) {
        std::vector<llvm::Value*> args(call->arg_begin(), call->arg_end());
        args.push_back(context);
        llvm::SmallVector<llvm::OperandBundleDef, 1> bundles;
        call->getOperandBundlesAsDefs(bundles);
        auto* replacement = llvm::CallInst::Create(it->second->getFunctionType(), it->second, args,
                                                   bundles, "", call->getIterator());
        replacement->setCallingConv(call->getCallingConv());
        replacement->setAttributes(call->getAttributes());
        replacement->setTailCallKind(call->getTailCallKind());
        replacement->setDebugLoc(call->getDebugLoc());
        replacement->takeName(call);
        call->replaceAllUsesWith(replacement);
        call->eraseFromParent();
      }
    }
  }

  llvm::Module& module_;
  const LoweringRequest& request_;
  Function* slot_fn_;
  Function* context_fn_;
  Function* check_context_fn_;  // checked mode's (cpu_access_checks.hpp)
  Function* bind_fn_;
  llvm::PointerType* ptr_;
  std::set<Function*> roots_;
  std::set<Function*> needs_;
  std::vector<Function*> order_;
  std::map<Function*, Function*> clones_;
};

}  // namespace

void pass_thread_context(llvm::Module& m, const LoweringRequest& request, Function* slot_fn) {
  ContextThreading(m, request, slot_fn).run();
}

}  // namespace kjit::cpu::lowering
