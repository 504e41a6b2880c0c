// __shared__ memory: each variable (namespace-scope, function-local, extern) becomes an offset in
// the block's shared area, read through __kjit_shared_slot(offset) until the context threading
// (cpu_thread_context.cpp) turns it into an address.
#include "backends/cpu/check/cpu_access_checks.hpp"
#include "backends/cpu/lower/cpu_lowering_steps.hpp"

#include <llvm/ADT/STLExtras.h>
#include <llvm/Demangle/Demangle.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/DerivedTypes.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/ReplaceConstant.h>

#include <fmt/format.h>

#include <algorithm>
#include <cstddef>
#include <optional>
#include <utility>

namespace kjit::cpu::lowering {

namespace {

using llvm::Function;
using llvm::GlobalVariable;

constexpr std::uint64_t kDynamicSharedAlign = 64;
constexpr std::uint64_t kSharedVariableAlign = 16;

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
/// __kjit_shared_slot(offset), which the context threading (cpu_thread_context.cpp) turns into an
/// address. Each kernel's area holds only the variables it may use: two variables share bytes
/// unless one kernel may use both (a file of kernels with 40 KB each needs 40 KB per block, not the
/// sum).
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

}  // namespace

SharedMemory lay_out_shared_memory(llvm::Module& m, const LoweringRequest& request,
                                   const std::vector<std::set<Function*>>& reach,
                                   const std::vector<GlobalVariable*>& shared) {
  SharedLayout layout(m, request, reach);
  for (GlobalVariable* g : shared) {
    layout.place_global(g);
  }
  for (llvm::AllocaInst* a : take_shared_allocas(m)) {
    layout.place_alloca(a);
  }
  SharedMemory out;
  out.static_bytes = layout.place_dynamic(request.dynamic_shared);
  out.slot_fn = layout.slot_fn();
  return out;
}

}  // namespace kjit::cpu::lowering
