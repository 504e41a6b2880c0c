#include "backends/cpu/check/cpu_access_checks.hpp"

#include "backends/cpu/prelude/cpu_abi.h"
#include "backends/cpu/run/cpu_runtime_symbols.hpp"

#include <llvm/Analysis/ValueTracking.h>
#include <llvm/Demangle/Demangle.h>
#include <llvm/IR/DebugInfoMetadata.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Module.h>

#include <fmt/format.h>

#include <cstdlib>
#include <map>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace kjit::cpu {

namespace {

constexpr std::uint32_t kWrite = KJIT_CPU_ACCESS_WRITE;
constexpr std::uint32_t kAtomic = KJIT_CPU_ACCESS_ATOMIC;
constexpr const char* kSharedVariable = "kjit.shared.variable";  // metadata of a layout's slot

struct Access {
  llvm::Instruction* at;
  llvm::Value* address;
  llvm::Value* size;  // i64
  std::uint32_t flags;
};

/// The program's own code: it has debug information (checked compiles have line tables) in a
/// file that is not kjit's (prelude, kernel entries), and is not one of kjit's helpers.
bool is_user_code(const llvm::Function& f) {
  const llvm::DISubprogram* program = f.getSubprogram();
  if (f.isDeclaration() || program == nullptr || f.getName().starts_with("__kjit")) {
    return false;
  }
  return !program->getFilename().starts_with("/__kjit__/");
}

/// Whether `address` is a local or global variable's, which the compiler laid out itself: one
/// variable's, or one of several (`c ? a : b` of two structs, which C++ copies through a select of
/// their addresses).
bool is_variable(const llvm::Value* address) {
  llvm::SmallVector<const llvm::Value*, 4> objects;
  llvm::getUnderlyingObjects(address, objects, nullptr, 0);
  return !objects.empty() && llvm::all_of(objects, [](const llvm::Value* object) {
    return llvm::isa<llvm::AllocaInst>(object) || llvm::isa<llvm::GlobalVariable>(object);
  });
}

/// A function's name in the source, without scope, template arguments or parameters ("__ldg" for
/// "float __ldg<float>(float const*)").
std::string base_name(const llvm::Function& f) {
  std::string symbol = f.getName().str();
  llvm::ItaniumPartialDemangler demangler;
  if (demangler.partialDemangle(symbol.c_str())) {
    return symbol;  // not a mangled name: a C function's
  }
  std::size_t size = 0;
  char* name = demangler.getFunctionBaseName(nullptr, &size);
  std::string out = name != nullptr ? std::string(name) : symbol;
  std::free(name);  // NOLINT(cppcoreguidelines-no-malloc): the demangler's buffer
  return out;
}

std::vector<Access> accesses_of(llvm::Function& f, const llvm::DataLayout& layout) {
  std::vector<Access> out;
  llvm::Type* i64 = llvm::Type::getInt64Ty(f.getContext());
  const auto bytes = [&](llvm::Type* t) {
    return llvm::ConstantInt::get(i64, layout.getTypeStoreSize(t).getFixedValue());
  };
  for (llvm::Instruction& i : llvm::instructions(f)) {
    if (auto* load = llvm::dyn_cast<llvm::LoadInst>(&i)) {
      out.push_back({&i, load->getPointerOperand(), bytes(load->getType()), 0});
    } else if (auto* store = llvm::dyn_cast<llvm::StoreInst>(&i)) {
      out.push_back(
          {&i, store->getPointerOperand(), bytes(store->getValueOperand()->getType()), kWrite});
    } else if (auto* rmw = llvm::dyn_cast<llvm::AtomicRMWInst>(&i)) {
      out.push_back(
          {&i, rmw->getPointerOperand(), bytes(rmw->getValOperand()->getType()), kWrite | kAtomic});
    } else if (auto* cas = llvm::dyn_cast<llvm::AtomicCmpXchgInst>(&i)) {
      out.push_back({&i, cas->getPointerOperand(), bytes(cas->getNewValOperand()->getType()),
                     kWrite | kAtomic});
    } else if (auto* set = llvm::dyn_cast<llvm::MemSetInst>(&i)) {
      out.push_back({&i, set->getDest(), set->getLength(), kWrite});
    } else if (auto* copy = llvm::dyn_cast<llvm::MemTransferInst>(&i)) {
      out.push_back({&i, copy->getDest(), copy->getLength(), kWrite});
      out.push_back({&i, copy->getSource(), copy->getLength(), 0});
    } else if (auto* call = llvm::dyn_cast<llvm::CallBase>(&i)) {
      // CUDA's atomic functions (atomicAdd ...) and cached loads (__ldg ...) are the prelude's,
      // which is not checked: their address is checked at the call, for as many bytes as they
      // return.
      const llvm::Function* callee = call->getCalledFunction();
      if (callee != nullptr && call->arg_size() > 0 &&
          call->getArgOperand(0)->getType()->isPointerTy() && !call->getType()->isVoidTy() &&
          call->getType()->isSized()) {
        const std::string name = base_name(*callee);
        if (llvm::StringRef(name).starts_with("atomic")) {
          out.push_back({&i, call->getArgOperand(0), bytes(call->getType()), kWrite | kAtomic});
        } else if (name == "__ldg" || name == "__ldcg" || name == "__ldca" || name == "__ldcs") {
          out.push_back({&i, call->getArgOperand(0), bytes(call->getType()), 0});
        }
      }
    }
  }
  std::erase_if(out, [](const Access& a) { return is_variable(a.address); });
  return out;
}

/// The variable an address is known to be in (mark_shared_variable), or nullptr.
const llvm::CallInst* shared_variable_of(const llvm::Value* address) {
  const auto* slot = llvm::dyn_cast<llvm::CallInst>(llvm::getUnderlyingObject(address, 0));
  if (slot == nullptr || slot->getMetadata(kSharedVariable) == nullptr ||
      !llvm::isa<llvm::ConstantInt>(slot->getArgOperand(0))) {
    return nullptr;
  }
  return slot;
}

}  // namespace

void mark_shared_variable(llvm::CallInst& slot, std::string_view name, std::uint64_t size) {
  llvm::LLVMContext& ctx = slot.getContext();
  slot.setMetadata(kSharedVariable,
                   llvm::MDNode::get(ctx, {llvm::MDString::get(ctx, name),
                                           llvm::ConstantAsMetadata::get(llvm::ConstantInt::get(
                                               llvm::Type::getInt64Ty(ctx), size))}));
}

namespace {

/// The run-time checks of an access and of a shared-memory access, declared in `module`.
std::pair<llvm::FunctionCallee, llvm::FunctionCallee> declare_checks(llvm::Module& module) {
  llvm::LLVMContext& ctx = module.getContext();
  auto* ptr = llvm::PointerType::get(ctx, 0);
  auto* i32 = llvm::Type::getInt32Ty(ctx);
  auto* i64 = llvm::Type::getInt64Ty(ctx);
  llvm::FunctionCallee check = module.getOrInsertFunction(
      kCheckAccessSymbol, llvm::Type::getVoidTy(ctx), ptr, i64, i32, ptr, ptr);
  // What the optimiser may assume: the check never touches the checked address, reads only the
  // thread's context and its site's text, and keeps its own state out of the program's sight.
  llvm::FunctionCallee check_shared = module.getOrInsertFunction(
      kCheckSharedAccessSymbol, llvm::Type::getVoidTy(ctx), ptr, i64, i32, ptr, ptr, ptr);
  for (llvm::Value* callee : {check.getCallee(), check_shared.getCallee()}) {
    auto* f = llvm::dyn_cast<llvm::Function>(callee);
    if (f == nullptr) {
      continue;
    }
    f->setMemoryEffects(llvm::MemoryEffects::argMemOnly(llvm::ModRefInfo::Ref) |
                        llvm::MemoryEffects::inaccessibleMemOnly());
    f->setDoesNotThrow();
    f->addParamAttr(0, llvm::Attribute::NoCapture);
    f->addParamAttr(0, llvm::Attribute::ReadNone);
    for (unsigned arg = 3; arg < f->arg_size(); ++arg) {
      f->addParamAttr(arg, llvm::Attribute::NoCapture);
      f->addParamAttr(arg, llvm::Attribute::ReadOnly);
    }
  }
  return {check, check_shared};
}

}  // namespace

void add_access_checks(llvm::Module& module) {
  llvm::LLVMContext& ctx = module.getContext();
  auto* ptr = llvm::PointerType::get(ctx, 0);
  auto* i32 = llvm::Type::getInt32Ty(ctx);
  auto* i64 = llvm::Type::getInt64Ty(ctx);
  const auto [check, check_shared] = declare_checks(module);
  const llvm::FunctionCallee context = module.getOrInsertFunction(kCheckContextSymbol, ptr);
  std::map<std::string, llvm::Constant*> sites;
  const auto site = [&](const llvm::Instruction& i) -> llvm::Constant* {
    std::string text;
    if (const llvm::DILocation* loc = i.getDebugLoc().get()) {
      text = fmt::format("{}:{}:{}", loc->getFilename().str(), loc->getLine(), loc->getColumn());
    }
    auto [it, added] = sites.try_emplace(text, nullptr);
    if (added) {
      llvm::IRBuilder<> b(ctx);
      it->second = b.CreateGlobalString(text, "kjit.site", 0, &module);
    }
    return it->second;
  };
  // A kjit_cpu_shared_variable per variable (cpu_abi.h), by its slot's offset, size and name.
  auto* variable_type = llvm::StructType::get(ctx, {i64, i64, ptr});
  std::map<std::tuple<std::uint64_t, std::uint64_t, std::string>, llvm::Constant*> variables;
  const auto variable = [&](const llvm::CallInst& slot) -> llvm::Constant* {
    const llvm::MDNode* md = slot.getMetadata(kSharedVariable);
    const std::string name = llvm::cast<llvm::MDString>(md->getOperand(0))->getString().str();
    const std::uint64_t size =
        llvm::mdconst::extract<llvm::ConstantInt>(md->getOperand(1))->getZExtValue();
    const std::uint64_t begin =
        llvm::cast<llvm::ConstantInt>(slot.getArgOperand(0))->getZExtValue();
    auto [it, added] = variables.try_emplace({begin, size, name}, nullptr);
    if (added) {
      llvm::IRBuilder<> b(ctx);
      llvm::Constant* text = b.CreateGlobalString(name, "kjit.shared.name", 0, &module);
      it->second = new llvm::GlobalVariable(
          module, variable_type, /*isConstant=*/true, llvm::GlobalValue::PrivateLinkage,
          llvm::ConstantStruct::get(variable_type,
                                    {llvm::ConstantInt::get(i64, begin),
                                     llvm::ConstantInt::get(i64, begin + size), text}),
          "kjit.shared.variable");
    }
    return it->second;
  };
  for (llvm::Function& f : module) {
    if (!is_user_code(f)) {
      continue;
    }
    for (const Access& a : accesses_of(f, module.getDataLayout())) {
      llvm::IRBuilder<> b(a.at);
      llvm::Value* size = b.CreateZExtOrTrunc(a.size, i64);
      std::vector<llvm::Value*> args{a.address, size, llvm::ConstantInt::get(i32, a.flags),
                                     site(*a.at), b.CreateCall(context)};
      if (const llvm::CallInst* slot = shared_variable_of(a.address)) {
        args.push_back(variable(*slot));
        b.CreateCall(check_shared, args);
      } else {
        b.CreateCall(check, args);
      }
    }
  }
}

}  // namespace kjit::cpu
