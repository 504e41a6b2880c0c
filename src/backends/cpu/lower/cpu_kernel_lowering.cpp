#include "backends/cpu/lower/cpu_kernel_lowering.hpp"

#include "backends/cpu/check/cpu_access_checks.hpp"
#include "backends/cpu/check/cpu_debug_variables.hpp"
#include "backends/cpu/lower/cpu_barrier_regions.hpp"
#include "backends/cpu/lower/cpu_pass_versions.hpp"
#include "backends/cpu/prelude/cpu_abi.h"
#include "backends/cpu/run/cpu_runtime_symbols.hpp"
#include "backends/kit/device_variables.hpp"
#include "support/logging.hpp"

#include <kjit/error.hpp>

#include <llvm/ADT/STLExtras.h>
#include <llvm/Analysis/ValueTracking.h>
#include <llvm/Demangle/Demangle.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/DebugInfoMetadata.h>
#include <llvm/IR/DerivedTypes.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/ReplaceConstant.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Transforms/Utils/Cloning.h>

#include <fmt/format.h>

#include <algorithm>
#include <cstddef>
#include <initializer_list>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>

namespace kjit::cpu {

namespace {

using llvm::Function;
using llvm::GlobalVariable;

constexpr const char* kContextFn = "__kjit_ctx";
constexpr const char* kBindFn = "__kjit_bind_ctx";
constexpr const char* kSlotFn = "__kjit_shared_slot";  // exists only during lowering
constexpr std::uint64_t kDynamicSharedAlign = 64;
constexpr std::uint64_t kSharedVariableAlign = 16;

std::string readable(llvm::StringRef ir_name) {
  return llvm::demangle(ir_name.str());
}

[[noreturn]] void unsupported(const LoweringRequest& request, const std::string& message) {
  Diagnostic d;
  d.severity = Diagnostic::Severity::error;
  d.message = message;
  throw CompileError(request.program, request.device, {d}, message);
}

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

struct Annotated {
  std::set<Function*> kernels;
  std::vector<GlobalVariable*> shared;
  std::map<Function*, std::uint64_t> max_threads;  // __launch_bounds__' first argument
};

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

/// The functions each kernel may run: those it calls, directly or through others, and, where one
/// of them calls through a pointer, every function whose address is taken.
std::vector<std::set<Function*>> kernel_reach(llvm::Module& m,
                                              const std::vector<Function*>& kernels) {
  std::vector<Function*> address_taken;
  for (Function& f : m) {
    if (f.hasAddressTaken()) {
      address_taken.push_back(&f);
    }
  }
  std::vector<std::set<Function*>> reach;
  for (Function* kernel : kernels) {
    std::set<Function*> seen{kernel};
    std::vector<Function*> work{kernel};
    const auto visit = [&](Function* f) {
      if (f != nullptr && seen.insert(f).second) {
        work.push_back(f);
      }
    };
    while (!work.empty()) {
      Function* f = work.back();
      work.pop_back();
      for (llvm::Instruction& i : llvm::instructions(*f)) {
        if (auto* call = llvm::dyn_cast<llvm::CallBase>(&i);
            call != nullptr && call->isIndirectCall()) {
          for (Function* taken : address_taken) {
            visit(taken);
          }
        }
        for (llvm::Value* operand : i.operands()) {
          visit(llvm::dyn_cast<Function>(operand->stripPointerCasts()));
        }
      }
    }
    reach.push_back(std::move(seen));
  }
  return reach;
}

/// The functions whose instructions use `v`, through constant expressions too.
void using_functions(llvm::Value* v, std::set<Function*>& out) {
  for (llvm::User* u : v->users()) {
    if (auto* i = llvm::dyn_cast<llvm::Instruction>(u)) {
      out.insert(i->getFunction());
    } else if (llvm::isa<llvm::Constant>(u)) {
      using_functions(u, out);
    }
  }
}

/// Assigns offsets in the block's shared area and replaces each variable by a call
/// __kjit_shared_slot(offset), which the context threading below turns into an address. Each
/// kernel's area holds only the variables it may use: two variables share bytes unless one
/// kernel may use both (a file of kernels with 40 KB each needs 40 KB per block, not the sum).
class SharedLayout {
 public:
  SharedLayout(llvm::Module& m, const LoweringRequest& request,
               std::vector<std::set<Function*>> reach)
      : module_(m),
        request_(request),
        dl_(m.getDataLayout()),
        i64_(llvm::Type::getInt64Ty(m.getContext())),
        reach_(std::move(reach)),
        ends_(reach_.size(), 0) {
    auto* ptr = llvm::PointerType::get(m.getContext(), 0);
    slot_fn_ = Function::Create(llvm::FunctionType::get(ptr, {i64_}, false),
                                llvm::GlobalValue::ExternalLinkage, kSlotFn, m);
  }

  [[nodiscard]] Function* slot_fn() const noexcept { return slot_fn_; }

  void place_global(GlobalVariable* g) {
    std::set<Function*> users;
    using_functions(g, users);
    const std::uint64_t size = dl_.getTypeAllocSize(g->getValueType());
    const std::uint64_t offset = allocate(size, g->getPointerAlignment(dl_).value(), users);
    replace_global(g, offset, Variable{source_name(g->getName()), size});
  }

  void place_alloca(llvm::AllocaInst* a) {
    const auto size = a->getAllocationSize(dl_);
    if (!size || size->isScalable()) {
      unsupported(request_, fmt::format("a __shared__ variable in '{}' has no fixed size",
                                        readable(a->getFunction()->getName())));
    }
    const std::uint64_t offset =
        allocate(size->getFixedValue(), a->getAlign().value(), {a->getFunction()});
    for (llvm::User* u : llvm::make_early_inc_range(a->users())) {
      if (auto* marker = llvm::dyn_cast<llvm::IntrinsicInst>(u);
          marker != nullptr && marker->isLifetimeStartOrEnd()) {
        marker->eraseFromParent();
      }
    }
    llvm::IRBuilder<> b(a);
    llvm::CallInst* slot = b.CreateCall(slot_fn_, {llvm::ConstantInt::get(i64_, offset)});
    mark_shared_variable(*slot, a->hasName() ? a->getName() : "a __shared__ variable",
                         size->getFixedValue());
    a->replaceAllUsesWith(slot);
    a->eraseFromParent();
  }

  /// Places the extern __shared__ variables at the start of the dynamic area, after every
  /// kernel's static variables (one offset, as code shared by kernels has it built in). Returns
  /// each kernel's static bytes: where the dynamic area starts for a kernel that may use it.
  std::vector<std::uint64_t> place_dynamic(const std::vector<std::string>& names) {
    std::uint64_t start = 0;
    for (const std::uint64_t end : ends_) {
      start = std::max(start, end);
    }
    start = llvm::alignTo(start, kDynamicSharedAlign);
    std::vector<std::uint64_t> statics = ends_;
    for (const std::string& name : names) {
      if (GlobalVariable* g = module_.getNamedGlobal(name); g != nullptr && g->isDeclaration()) {
        std::set<Function*> users;
        using_functions(g, users);
        for (std::size_t n = 0; n < reach_.size(); ++n) {
          if (uses(n, users)) {
            statics[n] = start;
          }
        }
        replace_global(g, start);
      }
    }
    return statics;
  }

 private:
  struct Placed {
    std::uint64_t begin;
    std::uint64_t end;
    std::vector<bool> kernels;  // which kernels may use it
  };

  [[nodiscard]] bool uses(std::size_t kernel, const std::set<Function*>& users) const {
    return std::any_of(users.begin(), users.end(),
                       [&](Function* f) { return reach_[kernel].count(f) != 0; });
  }

  /// The lowest offset where `size` bytes overlap no variable that a kernel using these may use.
  std::uint64_t allocate(std::uint64_t size, std::uint64_t align,
                         const std::set<Function*>& users) {
    const std::uint64_t alignment = std::max(align, kSharedVariableAlign);
    std::vector<bool> kernels(reach_.size());
    for (std::size_t n = 0; n < reach_.size(); ++n) {
      kernels[n] = uses(n, users);
    }
    const auto conflicts = [&](const Placed& p) {
      for (std::size_t n = 0; n < kernels.size(); ++n) {
        if (kernels[n] && p.kernels[n]) {
          return true;
        }
      }
      return false;
    };
    std::uint64_t offset = 0;
    for (bool moved = true; moved;) {
      moved = false;
      for (const Placed& p : placed_) {
        if (conflicts(p) && offset < p.end && p.begin < offset + size) {
          offset = llvm::alignTo(p.end, alignment);
          moved = true;
        }
      }
    }
    placed_.push_back({offset, offset + size, kernels});
    for (std::size_t n = 0; n < kernels.size(); ++n) {
      if (kernels[n]) {
        ends_[n] = std::max(ends_[n], offset + size);
      }
    }
    return offset;
  }

  /// A static variable's name in the source and its size, for checked kernels' messages.
  struct Variable {
    std::string name;
    std::uint64_t size = 0;
  };

  /// The variable's own name in the source, from its symbol (a static local's names its function
  /// too: "kernel(float*)::tile" gives "tile").
  static std::string source_name(llvm::StringRef symbol) {
    const std::string readable = llvm::demangle(symbol.str());
    const std::size_t colons = readable.rfind("::");
    return colons == std::string::npos ? readable : readable.substr(colons + 2);
  }

  /// Replaces every use of `g` with its place in shared memory (`variable`: what checked kernels
  /// check accesses through it against; none for the dynamic area, whose size is the launch's).
  void replace_global(GlobalVariable* g, std::uint64_t offset,
                      const std::optional<Variable>& variable = std::nullopt) {
    llvm::convertUsersOfConstantsToInstructions({g});
    for (llvm::Use& use : llvm::make_early_inc_range(g->uses())) {
      auto* user = llvm::dyn_cast<llvm::Instruction>(use.getUser());
      if (user == nullptr) {
        unsupported(request_, fmt::format("the address of __shared__ variable '{}' is used to "
                                          "initialise a global variable",
                                          readable(g->getName())));
      }
      llvm::Instruction* where = user;
      if (auto* phi = llvm::dyn_cast<llvm::PHINode>(user)) {
        where = phi->getIncomingBlock(use)->getTerminator();
      }
      llvm::IRBuilder<> b(where);
      llvm::CallInst* slot = b.CreateCall(slot_fn_, {llvm::ConstantInt::get(i64_, offset)});
      if (variable) {
        mark_shared_variable(*slot, variable->name, variable->size);
      }
      use.set(slot);
    }
    g->eraseFromParent();
  }

  llvm::Module& module_;
  const LoweringRequest& request_;
  const llvm::DataLayout& dl_;
  llvm::Type* i64_;
  Function* slot_fn_ = nullptr;
  std::vector<std::set<Function*>> reach_;
  std::vector<std::uint64_t> ends_;  // per kernel: the end of its static variables
  std::vector<Placed> placed_;
};

/// The function that entry N was generated for (from __kjit_fn_N, which is then removed).
std::vector<Function*> take_entry_targets(llvm::Module& m, const LoweringRequest& request) {
  std::vector<Function*> targets;
  for (std::size_t n = 0; n < request.kernel_names.size(); ++n) {
    const std::string name = fmt::format("__kjit_fn_{}", n);
    GlobalVariable* g = m.getNamedGlobal(name);
    Function* f = g != nullptr && g->hasInitializer()
                      ? llvm::dyn_cast<Function>(g->getInitializer()->stripPointerCasts())
                      : nullptr;
    if (f == nullptr) {
      throw BackendError(
          fmt::format("kjit: internal error: entry {} of '{}' has no target", n, request.program));
    }
    g->eraseFromParent();
    targets.push_back(f);
  }
  return targets;
}

std::set<Function*> callers_of(Function* f) {
  std::set<Function*> out;
  if (f == nullptr) {
    return out;
  }
  for (llvm::User* u : f->users()) {
    if (auto* call = llvm::dyn_cast<llvm::CallBase>(u)) {
      out.insert(call->getFunction());
    }
  }
  return out;
}

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

/// Functions that may reach one of `symbols` (__syncthreads(), a warp meeting), through any chain
/// of calls.
std::set<Function*> users_of(llvm::Module& m, std::initializer_list<std::string_view> symbols) {
  std::set<Function*> reach;
  std::vector<Function*> work;
  for (const std::string_view symbol : symbols) {
    for (Function* f : callers_of(m.getFunction(symbol))) {
      if (reach.insert(f).second) {
        work.push_back(f);
      }
    }
  }
  while (!work.empty()) {
    Function* f = work.back();
    work.pop_back();
    for (Function* caller : callers_of(f)) {
      if (reach.insert(caller).second) {
        work.push_back(caller);
      }
    }
  }
  return reach;
}

void internalize_all_but(llvm::Module& m, const std::set<std::string>& keep) {
  for (Function& f : m) {
    if (!f.isDeclaration() && keep.count(f.getName().str()) == 0) {
      f.setLinkage(llvm::GlobalValue::InternalLinkage);
      f.setVisibility(llvm::GlobalValue::DefaultVisibility);
      f.setComdat(nullptr);
    }
  }
  for (GlobalVariable& g : m.globals()) {
    if (!g.isDeclaration() && !g.getName().starts_with("llvm.") &&
        keep.count(g.getName().str()) == 0) {
      g.setLinkage(llvm::GlobalValue::InternalLinkage);
      g.setVisibility(llvm::GlobalValue::DefaultVisibility);
      g.setComdat(nullptr);
    }
  }
}

/// Keeps the namespace-scope variables a source names (__device__, __constant__) visible under
/// their symbols, so that the host can find them (Program::symbol): static ones become external.
/// Constants stay internal: the host cannot write them, and the optimizer folds their loads.
void keep_device_variables(llvm::Module& m, std::set<std::string>& keep) {
  for (GlobalVariable& g : m.globals()) {
    if (g.isDeclaration() || g.isConstant() || g.isThreadLocal() ||
        backend::device_variable_name(g.getName()).empty()) {
      continue;
    }
    if (g.hasLocalLinkage()) {
      g.setLinkage(llvm::GlobalValue::ExternalLinkage);
    }
    keep.insert(g.getName().str());
  }
}

/// Legacy warp-synchronous code (the `volatile` shared-memory tails of pre-Volta reductions and
/// scans) counts on the lanes of a warp running in lockstep from one statement to the next. Each
/// volatile store to memory that may be shared gets its warp's lanes meeting before it (every
/// lane has read what the statement reads) and after it (every lane's store is there before any
/// reads on): the lockstep those statements assume, and never a silent wrong answer. Meetings in
/// code that needs none (a volatile store between two __syncthreads()) cost a pass, not a result.
void keep_volatile_stores_in_lockstep(llvm::Module& m) {
  std::vector<llvm::StoreInst*> stores;
  for (Function& f : m) {
    for (llvm::Instruction& i : llvm::instructions(f)) {
      auto* store = llvm::dyn_cast<llvm::StoreInst>(&i);
      if (store == nullptr || !store->isVolatile()) {
        continue;
      }
      // Run after the shared layout: what is left of locals and variables is not shared.
      const llvm::Value* object = llvm::getUnderlyingObject(store->getPointerOperand());
      if (llvm::isa<llvm::AllocaInst, GlobalVariable>(object)) {
        continue;  // a thread's own local, or a __device__ variable: no warp reads it in step
      }
      stores.push_back(store);
    }
  }
  if (stores.empty()) {
    return;
  }
  llvm::LLVMContext& ctx = m.getContext();
  auto* ptr = llvm::PointerType::get(ctx, 0);
  const llvm::FunctionCallee context = m.getOrInsertFunction(kContextFn, ptr);
  const llvm::FunctionCallee wait =
      m.getOrInsertFunction(kWarpWaitSymbol, llvm::Type::getVoidTy(ctx), ptr);
  for (llvm::StoreInst* store : stores) {
    for (llvm::Instruction* at : {static_cast<llvm::Instruction*>(store), store->getNextNode()}) {
      llvm::IRBuilder<> b(at);
      b.CreateCall(wait, {b.CreateCall(context)});
    }
  }
}

}  // namespace

std::set<llvm::Function*> kernel_functions(llvm::Module& module) {
  return read_global_annotations(module).kernels;
}

namespace {

/// Inlines the calls that the source marks [[clang::always_inline]] (a specialised variant's call
/// of the kernel it fixes, core/specialization.cpp), so that the lowering's analyses see the
/// kernel's own code in the entry.
void inline_marked_calls(llvm::Module& m, const LoweringRequest& request) {
  std::vector<llvm::CallBase*> marked;
  for (Function& f : m) {
    for (llvm::Instruction& inst : llvm::instructions(f)) {
      auto* call = llvm::dyn_cast<llvm::CallBase>(&inst);
      if (call != nullptr && call->getAttributes().hasFnAttr(llvm::Attribute::AlwaysInline) &&
          call->getCalledFunction() != nullptr && !call->getCalledFunction()->isDeclaration()) {
        marked.push_back(call);
      }
    }
  }
  for (llvm::CallBase* call : marked) {
    const std::string callee = readable(call->getCalledFunction()->getName());
    llvm::InlineFunctionInfo info;
    const llvm::InlineResult result = llvm::InlineFunction(*call, info);
    if (!result.isSuccess()) {
      throw BackendError(fmt::format("kjit: cannot inline '{}' in '{}': {}", callee,
                                     request.program, result.getFailureReason()));
    }
  }
}

/// A fixed block's blockDim (the prelude's __kjit_fixed_dim(read, fixed)): the fixed value where
/// the kernel synchronises (its threads run on fibers or in loops between barriers, where a
/// constant block unrolls and simplifies them), the read elsewhere (its threads may run as
/// ranges, which recognise the read and not a constant). `reach`: what each kernel calls.
void resolve_fixed_dims(llvm::Module& m, const std::vector<std::set<Function*>>& reach) {
  Function* fixed_dim = m.getFunction(kFixedDimSymbol);
  if (fixed_dim == nullptr) {
    return;
  }
  const auto reached = [&](Function* f) {
    return std::any_of(reach.begin(), reach.end(),
                       [&](const std::set<Function*>& r) { return r.count(f) != 0; });
  };
  bool synchronises = false;
  for (const std::string_view symbol : {kBarrierWaitSymbol, kWarpWaitSymbol}) {
    if (Function* wait = m.getFunction(symbol)) {
      for (llvm::User* user : wait->users()) {
        auto* call = llvm::dyn_cast<llvm::CallInst>(user);
        synchronises = synchronises || (call != nullptr && reached(call->getFunction()));
      }
    }
  }
  for (llvm::User* user : llvm::make_early_inc_range(fixed_dim->users())) {
    auto* call = llvm::cast<llvm::CallInst>(user);
    call->replaceAllUsesWith(call->getArgOperand(synchronises ? 1 : 0));
    call->eraseFromParent();
  }
  fixed_dim->eraseFromParent();
}

}  // namespace

void lower_kernels(llvm::Module& m, const LoweringRequest& request) {
  inline_marked_calls(m, request);
  const Annotated annotated = take_global_annotations(m);
  const std::vector<Function*> targets = take_entry_targets(m, request);
  for (std::size_t n = 0; n < targets.size(); ++n) {
    if (annotated.kernels.count(targets[n]) == 0) {
      throw KernelNotFoundError(fmt::format(
          "kjit: '{}' in program '{}' is not a __global__ function (it is '{}'); only kernels "
          "can be launched",
          request.kernel_names[n], request.program, readable(targets[n]->getName())));
    }
  }

  const auto max_threads = [&](Function* kernel) -> std::uint64_t {
    const auto it = annotated.max_threads.find(kernel);
    return it != annotated.max_threads.end() ? it->second : 0;
  };

  const std::vector<std::set<Function*>> reach = kernel_reach(m, targets);
  resolve_fixed_dims(m, reach);
  SharedLayout layout(m, request, reach);
  for (GlobalVariable* g : annotated.shared) {
    layout.place_global(g);
  }
  for (llvm::AllocaInst* a : take_shared_allocas(m)) {
    layout.place_alloca(a);
  }
  const std::vector<std::uint64_t> static_shared_bytes =
      layout.place_dynamic(request.dynamic_shared);

  keep_volatile_stores_in_lockstep(m);
  if (request.check_memory) {
    add_access_checks(m);
  }
  ContextThreading(m, request, layout.slot_fn()).run();

  const std::set<Function*> barrier = users_of(m, {kBarrierWaitSymbol, kWarpWaitSymbol});
  const std::set<Function*> warp_users = users_of(m, {kWarpWaitSymbol});
  Function* warp_wait = m.getFunction(kWarpWaitSymbol);
  llvm::LLVMContext& ctx = m.getContext();
  auto* i32 = llvm::Type::getInt32Ty(ctx);
  auto* i64 = llvm::Type::getInt64Ty(ctx);
  auto* info_type = llvm::StructType::get(ctx, {i32, i32, i64, i64, i64});
  std::set<std::string> keep;
  for (std::size_t n = 0; n < targets.size(); ++n) {
    Function* block_entry = m.getFunction(fmt::format("__kjit_block_{}", n));
    Function* thread_entry = m.getFunction(fmt::format("__kjit_thread_{}", n));
    if (block_entry == nullptr || thread_entry == nullptr) {
      throw BackendError(
          fmt::format("kjit: internal error: entry {} of '{}' is missing", n, request.program));
    }
    bool on_fibers = barrier.count(block_entry) != 0;
    const bool uses_warp = warp_users.count(block_entry) != 0;
    // The barrier the splitter cuts at, declared if this module has none (a kernel split at its
    // loop stops alone); dropped again below when nothing calls it.
    Function* wait = request.split_barriers
                         ? llvm::cast<Function>(
                               m.getOrInsertFunction(kBarrierWaitSymbol, llvm::Type::getVoidTy(ctx),
                                                     llvm::PointerType::get(ctx, 0))
                                   .getCallee())
                         : nullptr;
    const std::string& kernel = request.kernel_names[n];
    RegionSplit split;
    if (on_fibers) {
      block_entry->eraseFromParent();
      if (request.split_barriers) {
        split = split_at_barriers(*thread_entry, *wait, warp_wait, barrier,
                                  fmt::format("__kjit_block_{}", n));
        on_fibers = !split.split;
        if (on_fibers) {
          detail::log().info("kjit: kernel '{}' of '{}' runs its threads on fibers: {}", kernel,
                             request.program, split.why_not);
        } else {
          detail::log().debug(
              "kjit: kernel '{}' of '{}' runs its threads in loops between its "
              "barriers ({} bytes of frame per thread)",
              kernel, request.program, split.frame_bytes);
        }
      } else {
        detail::log().debug("kjit: kernel '{}' of '{}' runs its threads on fibers ({})", kernel,
                            request.program,
                            request.debug ? "compiled for a debugger" : "KJIT_CPU_BARRIERS=fibers");
      }
    } else if (request.split_barriers) {
      // Without barriers, the kernel is split only at the stops of loops that should run in
      // step (a grid-stride loop); otherwise its threads run as the block entry's one loop.
      const std::string name = block_entry->getName().str();
      block_entry->setName(name + ".unsplit");
      const std::string range_name = fmt::format("__kjit_range_{}", n);
      split = split_at_barriers(*thread_entry, *wait, warp_wait, barrier, name, SplitAt::loops,
                                range_name);
      if (split.split) {
        block_entry->eraseFromParent();
      } else {
        thread_entry->eraseFromParent();
        block_entry->setName(name);
      }
      if (split.ranges) {
        keep.insert(range_name);
        detail::log().debug(
            "kjit: kernel '{}' of '{}' runs over ranges of threads on 1-D and 2-D launches", kernel,
            request.program);
      } else {
        detail::log().debug("kjit: kernel '{}' of '{}' runs block by block: {}", kernel,
                            request.program,
                            split.why_no_ranges.empty() ? split.why_not : split.why_no_ranges);
      }
    } else {
      thread_entry->eraseFromParent();
    }
    if (wait != nullptr && wait->use_empty()) {
      wait->eraseFromParent();
    }
    keep.insert(on_fibers ? fmt::format("__kjit_thread_{}", n) : fmt::format("__kjit_block_{}", n));
    keep.insert(fmt::format("__kjit_params_{}", n));
    const std::string info_name = fmt::format("__kjit_info_{}", n);
    keep.insert(info_name);
    auto* info = llvm::ConstantStruct::get(
        info_type, {llvm::ConstantInt::get(i32, KJIT_CPU_ABI_VERSION),
                    llvm::ConstantInt::get(i32, (on_fibers      ? KJIT_CPU_KERNEL_USES_BARRIER
                                                 : split.yields ? KJIT_CPU_KERNEL_YIELDS
                                                                : 0U) |
                                                    (uses_warp ? KJIT_CPU_KERNEL_USES_WARP : 0U) |
                                                    (split.ranges ? KJIT_CPU_KERNEL_RANGES : 0U)),
                    llvm::ConstantInt::get(i64, static_shared_bytes[n]),
                    llvm::ConstantInt::get(i64, split.frame_bytes),
                    llvm::ConstantInt::get(i64, max_threads(targets[n]))});
    new GlobalVariable(m, info_type, /*isConstant=*/true, llvm::GlobalValue::ExternalLinkage, info,
                       info_name);
  }
  lower_warp_rounds(m);
  keep_device_variables(m, keep);
  internalize_all_but(m, keep);

  std::string problems;
  llvm::raw_string_ostream os(problems);
  if (llvm::verifyModule(m, &os)) {
    throw BackendError(
        fmt::format("kjit: internal error: the CPU lowering of '{}' produced "
                    "invalid IR: {}",
                    request.program, os.str()));
  }
}

}  // namespace kjit::cpu
