#include "backends/cpu/compile/cpu_bitcode.hpp"

#include "backends/cpu/lower/cpu_kernel_lowering.hpp"
#include "backends/cpu/prelude/cpu_abi.h"
#include "backends/llvm/bitcode_reader.hpp"

#include <kjit/error.hpp>

#include <llvm/IR/Constants.h>
#include <llvm/IR/DerivedTypes.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Module.h>
#include <llvm/TargetParser/Triple.h>

#include <fmt/format.h>

#include <cstddef>
#include <functional>
#include <set>

namespace kjit::cpu {

namespace {

using llvm::Function;

constexpr const char* kHostRecipe =
    "make it with clang++-19 and kjit's CPU kernel header, as kernels/bitcode/make-bitcode.sh "
    "does";

/// One kernel parameter: how the entry reads it from the launch's argument block.
struct Param {
  llvm::Type* type;      // the LLVM parameter's type
  llvm::Type* by_value;  // for a byval pointer: the struct it copies, else nullptr
  std::uint64_t size;
  std::uint64_t align;
};

std::vector<Param> params_of(const Function& kernel, const llvm::DataLayout& layout) {
  std::vector<Param> out;
  for (const llvm::Argument& a : kernel.args()) {
    Param p{a.getType(), a.getParamByValType(), 0, 0};
    llvm::Type* stored = p.by_value != nullptr ? p.by_value : p.type;
    p.size = layout.getTypeAllocSize(stored);
    const llvm::MaybeAlign given = a.getParamAlign();
    p.align = given ? given->value() : layout.getABITypeAlign(stored).value();
    out.push_back(p);
  }
  return out;
}

/// Builds kernel entry N, as the C++ front end's __KJIT_KERNEL_ENTRY does (cpu_prelude.h).
class EntryBuilder {
 public:
  EntryBuilder(llvm::Module& m, Function& kernel, std::size_t n)
      : m_(m),
        kernel_(kernel),
        n_(n),
        ctx_(m.getContext()),
        ptr_(llvm::PointerType::get(ctx_, 0)),
        i32_(llvm::Type::getInt32Ty(ctx_)),
        i64_(llvm::Type::getInt64Ty(ctx_)),
        params_(params_of(kernel, m.getDataLayout())) {}

  void build() {
    block_entry();
    thread_entry();
    param_table();
    new llvm::GlobalVariable(m_, ptr_, /*isConstant=*/true, llvm::GlobalValue::ExternalLinkage,
                             &kernel_, fmt::format("__kjit_fn_{}", n_));
  }

 private:
  Function* entry(const std::string& name, const std::vector<llvm::Type*>& params) {
    auto* type = llvm::FunctionType::get(llvm::Type::getVoidTy(ctx_), params, false);
    return Function::Create(type, llvm::GlobalValue::ExternalLinkage, name, m_);
  }

  /// The block copied to a local and the thread context pointing at it, bound as the running
  /// thread's: what run_block / run_thread do first. Returns the context.
  llvm::Value* bind(llvm::IRBuilder<>& b, llvm::Value* block_in) {
    auto* block = b.CreateAlloca(llvm::ArrayType::get(b.getInt8Ty(), sizeof(kjit_cpu_block)));
    block->setAlignment(llvm::Align(alignof(kjit_cpu_block)));
    b.CreateMemCpy(block, llvm::Align(alignof(kjit_cpu_block)), block_in,
                   llvm::Align(alignof(kjit_cpu_block)), sizeof(kjit_cpu_block));
    auto* thread = b.CreateAlloca(llvm::ArrayType::get(b.getInt8Ty(), sizeof(kjit_cpu_thread)));
    thread->setAlignment(llvm::Align(alignof(kjit_cpu_thread)));
    b.CreateMemSet(thread, b.getInt8(0), sizeof(kjit_cpu_thread),
                   llvm::Align(alignof(kjit_cpu_thread)));
    b.CreateStore(block, at(b, thread, offsetof(kjit_cpu_thread, block)));
    const llvm::FunctionCallee bind_fn = m_.getOrInsertFunction(
        "__kjit_bind_ctx", llvm::FunctionType::get(b.getVoidTy(), {ptr_}, false));
    b.CreateCall(bind_fn, {thread});
    block_ = block;
    return thread;
  }

  llvm::Value* at(llvm::IRBuilder<>& b, llvm::Value* base, std::size_t offset) {
    return b.CreateConstInBoundsGEP1_64(b.getInt8Ty(), base, offset);
  }

  /// The arguments out of the block `args` (args[i] points at parameter i).
  std::vector<llvm::Value*> load_args(llvm::IRBuilder<>& b, llvm::Value* args) {
    std::vector<llvm::Value*> values;
    for (std::size_t i = 0; i < params_.size(); ++i) {
      llvm::Value* slot = b.CreateLoad(ptr_, b.CreateConstInBoundsGEP1_64(ptr_, args, i));
      const Param& p = params_[i];
      // A byval parameter takes the address of the bytes it copies; the rest are loaded. The
      // argument block holds the C++ object, which may be less aligned than its LLVM type.
      values.push_back(
          p.by_value != nullptr
              ? slot
              : b.CreateAlignedLoad(
                    p.type, slot,
                    llvm::Align(p.type->isVectorTy() || p.type->isAggregateType() ? 1 : p.align)));
    }
    return values;
  }

  void call_kernel(llvm::IRBuilder<>& b, const std::vector<llvm::Value*>& args) {
    llvm::CallInst* call = b.CreateCall(kernel_.getFunctionType(), &kernel_, args);
    call->setCallingConv(kernel_.getCallingConv());
    call->setAttributes(kernel_.getAttributes());
  }

  void store_thread_index(llvm::IRBuilder<>& b, llvm::Value* thread, llvm::Value* x, llvm::Value* y,
                          llvm::Value* z) {
    const std::size_t base = offsetof(kjit_cpu_thread, thread_idx);
    b.CreateStore(x, at(b, thread, base));
    b.CreateStore(y, at(b, thread, base + 4));
    b.CreateStore(z, at(b, thread, base + 8));
  }

  /// for (i = 0; i < count; ++i) body(i), at the builder's position; leaves it after the loop.
  void loop(llvm::IRBuilder<>& b, llvm::Value* count, const char* name,
            const std::function<void(llvm::Value*)>& body) {
    Function* f = b.GetInsertBlock()->getParent();
    llvm::BasicBlock* before = b.GetInsertBlock();
    auto* header = llvm::BasicBlock::Create(ctx_, fmt::format("{}.header", name), f);
    auto* inside = llvm::BasicBlock::Create(ctx_, fmt::format("{}.body", name), f);
    auto* after = llvm::BasicBlock::Create(ctx_, fmt::format("{}.end", name), f);
    b.CreateBr(header);
    b.SetInsertPoint(header);
    llvm::PHINode* i = b.CreatePHI(i32_, 2, name);
    i->addIncoming(b.getInt32(0), before);
    b.CreateCondBr(b.CreateICmpULT(i, count), inside, after);
    b.SetInsertPoint(inside);
    body(i);
    llvm::Value* next = b.CreateAdd(i, b.getInt32(1), "", /*HasNUW=*/true);
    i->addIncoming(next, b.GetInsertBlock());
    b.CreateBr(header);
    b.SetInsertPoint(after);
  }

  // All threads of one block in a loop, x innermost (kernels without barriers).
  void block_entry() {
    Function* f = entry(fmt::format("__kjit_block_{}", n_), {ptr_, ptr_});
    llvm::IRBuilder<> b(llvm::BasicBlock::Create(ctx_, "entry", f));
    llvm::Value* thread = bind(b, f->getArg(1));
    const std::vector<llvm::Value*> args = load_args(b, f->getArg(0));
    const std::size_t dim = offsetof(kjit_cpu_block, block_dim);
    llvm::Value* nx = b.CreateLoad(i32_, at(b, block_, dim));
    llvm::Value* ny = b.CreateLoad(i32_, at(b, block_, dim + 4));
    llvm::Value* nz = b.CreateLoad(i32_, at(b, block_, dim + 8));
    loop(b, nz, "z", [&](llvm::Value* z) {
      loop(b, ny, "y", [&](llvm::Value* y) {
        loop(b, nx, "x", [&](llvm::Value* x) {
          store_thread_index(b, thread, x, y, z);
          call_kernel(b, args);
        });
      });
    });
    b.CreateRetVoid();
  }

  // One thread, on its own fiber (kernels that call __syncthreads()).
  void thread_entry() {
    Function* f = entry(fmt::format("__kjit_thread_{}", n_), {ptr_, ptr_, i32_, i32_, i32_});
    llvm::IRBuilder<> b(llvm::BasicBlock::Create(ctx_, "entry", f));
    llvm::Value* thread = bind(b, f->getArg(1));
    store_thread_index(b, thread, f->getArg(2), f->getArg(3), f->getArg(4));
    call_kernel(b, load_args(b, f->getArg(0)));
    b.CreateRetVoid();
  }

  // count, then the sizes, then the alignments, then 0: as cpu_prelude.h's param_table.
  void param_table() {
    std::vector<llvm::Constant*> words;
    words.reserve(2 * params_.size() + 1);
    for (const Param& p : params_) {
      words.push_back(llvm::ConstantInt::get(i64_, p.size));
    }
    for (const Param& p : params_) {
      words.push_back(llvm::ConstantInt::get(i64_, p.align));
    }
    words.push_back(llvm::ConstantInt::get(i64_, 0));
    auto* array_type = llvm::ArrayType::get(i64_, words.size());
    auto* table_type = llvm::StructType::get(ctx_, {i64_, array_type});
    auto* table =
        llvm::ConstantStruct::get(table_type, {llvm::ConstantInt::get(i64_, params_.size()),
                                               llvm::ConstantArray::get(array_type, words)});
    new llvm::GlobalVariable(m_, table_type, /*isConstant=*/true,
                             llvm::GlobalValue::ExternalLinkage, table,
                             fmt::format("__kjit_params_{}", n_));
  }

  llvm::Module& m_;
  Function& kernel_;
  std::size_t n_;
  llvm::LLVMContext& ctx_;
  llvm::PointerType* ptr_;
  llvm::IntegerType* i32_;
  llvm::IntegerType* i64_;
  std::vector<Param> params_;
  llvm::Value* block_ = nullptr;
};

/// Compiles every function for the host's CPU: the front end's -target-cpu, and no -O0 leftovers
/// that would keep the optimiser off.
void retarget(llvm::Module& m, const HostTarget& target) {
  m.setTargetTriple(target.triple);
  for (Function& f : m) {
    if (f.isDeclaration()) {
      continue;
    }
    if (f.hasFnAttribute(llvm::Attribute::OptimizeNone)) {
      f.removeFnAttr(llvm::Attribute::OptimizeNone);
      f.removeFnAttr(llvm::Attribute::NoInline);
    }
    f.removeFnAttr("tune-cpu");
    f.addFnAttr("target-cpu", target.cpu);
    f.addFnAttr("target-features", target.feature_string());
  }
}

}  // namespace

FrontendOutput bitcode_to_ir(const backend::CompileRequest& request, const HostTarget& target,
                             llvm::LLVMContext& context, const std::string& device) {
  FrontendOutput out;
  out.module = bitcode::read_bitcode(context, request, device);
  llvm::Module& m = *out.module;
  const std::string arch(llvm::Triple(target.triple).getArchName());
  bitcode::check_triple(m, {{arch}, "", kHostRecipe}, request, device);
  const std::set<Function*> marked = kernel_functions(m);
  const std::set<const Function*> kernels(marked.begin(), marked.end());
  for (const Function* f : kernels) {
    if (f->isVarArg()) {
      bitcode::throw_bitcode_error(request, device,
                                   fmt::format("kernel '{}' takes a variable argument list",
                                               bitcode::demangled_name(f->getName())));
    }
  }
  const std::vector<Function*> found = bitcode::resolve_kernels(
      m, request, device, [&](const Function& f) { return kernels.count(&f) != 0; },
      "kjit.kernel annotation (the __global__ of kjit's CPU kernel header)");
  retarget(m, target);
  for (std::size_t n = 0; n < found.size(); ++n) {
    EntryBuilder(m, *found[n], n).build();
  }
  // The program's extern __shared__ arrays: the only variables it may declare and not define.
  for (const llvm::GlobalVariable& g : m.globals()) {
    if (g.isDeclaration() && !g.getName().starts_with("llvm.")) {
      out.dynamic_shared.push_back(g.getName().str());
    }
  }
  return out;
}

}  // namespace kjit::cpu
