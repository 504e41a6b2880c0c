#include "backends/cpu/check/cpu_debug_variables.hpp"

#include "backends/cpu/prelude/cpu_abi.h"

#include <llvm/BinaryFormat/Dwarf.h>
#include <llvm/IR/DIBuilder.h>
#include <llvm/IR/DebugInfoMetadata.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Module.h>

#include <array>
#include <cstddef>

namespace kjit::cpu {

namespace {

constexpr std::uint64_t kBits = 32;  // unsigned int, as CUDA's uint3 and dim3 hold

}  // namespace

DebugThreadVariables::DebugThreadVariables(llvm::Module& module) : module_(module) {}

DebugThreadVariables::~DebugThreadVariables() {
  if (builder_) {
    builder_->finalize();
  }
}

llvm::DICompositeType* DebugThreadVariables::vector_type(const char* name) {
  llvm::DIBasicType* element =
      builder_->createBasicType("unsigned int", kBits, llvm::dwarf::DW_ATE_unsigned);
  std::array<llvm::Metadata*, 3> members{};
  const std::array<const char*, 3> names{"x", "y", "z"};
  for (std::size_t i = 0; i < members.size(); ++i) {
    members[i] = builder_->createMemberType(nullptr, names[i], nullptr, 0, kBits, kBits, i * kBits,
                                            llvm::DINode::FlagZero, element);
  }
  auto* type = builder_->createStructType(nullptr, name, nullptr, 0, 3 * kBits, kBits,
                                          llvm::DINode::FlagZero, nullptr,
                                          builder_->getOrCreateArray(members));
  return type;
}

void DebugThreadVariables::add(llvm::Function& function, llvm::Value* context) {
  llvm::DISubprogram* program = function.getSubprogram();
  if (program == nullptr || function.isDeclaration()) {
    return;
  }
  if (!builder_) {
    builder_ =
        std::make_unique<llvm::DIBuilder>(module_, /*AllowUnresolved=*/false, program->getUnit());
    uint3_ = vector_type("uint3");
    dim3_ = vector_type("dim3");
  }
  llvm::LLVMContext& ctx = module_.getContext();
  llvm::BasicBlock& entry = function.getEntryBlock();
  llvm::IRBuilder<> b(&entry, entry.getFirstInsertionPt());
  // Line 0: the copies belong to no line of the source, so stepping never stops on them.
  b.SetCurrentDebugLocation(llvm::DILocation::get(ctx, 0, 0, program));
  llvm::Type* i8 = b.getInt8Ty();
  llvm::Type* ptr = b.getPtrTy();
  llvm::Value* block =
      b.CreateLoad(ptr, b.CreateConstInBoundsGEP1_64(i8, context, offsetof(kjit_cpu_thread, block)),
                   "kjit.block");
  struct Builtin {
    const char* name;
    llvm::Value* base;
    std::size_t offset;
    llvm::DICompositeType* type;
  };
  const std::array<Builtin, 4> builtins{{
      {"threadIdx", context, offsetof(kjit_cpu_thread, thread_idx), uint3_},
      {"blockIdx", block, offsetof(kjit_cpu_block, block_idx), uint3_},
      {"blockDim", block, offsetof(kjit_cpu_block, block_dim), dim3_},
      {"gridDim", block, offsetof(kjit_cpu_block, grid_dim), dim3_},
  }};
  auto* vector = llvm::ArrayType::get(b.getInt32Ty(), 3);
  for (const Builtin& builtin : builtins) {
    llvm::IRBuilder<> top(&entry, entry.begin());  // allocas first, where the front end's are
    llvm::AllocaInst* local = top.CreateAlloca(vector, nullptr, builtin.name);
    b.CreateMemCpy(local, llvm::MaybeAlign(4),
                   b.CreateConstInBoundsGEP1_64(i8, builtin.base, builtin.offset),
                   llvm::MaybeAlign(4), 3 * sizeof(unsigned));
    llvm::DILocalVariable* variable = builder_->createAutoVariable(
        program, builtin.name, program->getFile(), program->getLine(), builtin.type,
        /*AlwaysPreserve=*/false, llvm::DINode::FlagArtificial);
    builder_->insertDeclare(local, variable, builder_->createExpression(),
                            llvm::DILocation::get(ctx, program->getLine(), 0, program),
                            &*b.GetInsertPoint());
  }
}

}  // namespace kjit::cpu
