#include "backends/llvm/llvm_setup.hpp"

#include <kjit/error.hpp>

#include <llvm/Analysis/CGSCCPassManager.h>
#include <llvm/Analysis/LoopAnalysisManager.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/PassManager.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Support/TargetSelect.h>
#include <llvm/Target/TargetMachine.h>

#include <mutex>

// The GPU code generators' registration functions (libLLVM exports them; KJIT_LLVM_NVPTX and
// KJIT_LLVM_AMDGPU say whether this LLVM was built with them).
#define KJIT_DECLARE_TARGET(T)                     \
  extern "C" void LLVMInitialize##T##TargetInfo(); \
  extern "C" void LLVMInitialize##T##Target();     \
  extern "C" void LLVMInitialize##T##TargetMC();   \
  extern "C" void LLVMInitialize##T##AsmPrinter();
#if KJIT_LLVM_NVPTX
KJIT_DECLARE_TARGET(NVPTX)
#endif
#if KJIT_LLVM_AMDGPU
KJIT_DECLARE_TARGET(AMDGPU)
#endif
#define KJIT_INITIALIZE_TARGET(T)  \
  LLVMInitialize##T##TargetInfo(); \
  LLVMInitialize##T##Target();     \
  LLVMInitialize##T##TargetMC();   \
  LLVMInitialize##T##AsmPrinter();

namespace kjit::llvm_setup {

void initialize_targets() {
  static std::once_flag once;
  std::call_once(once, [] {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
    llvm::InitializeNativeTargetAsmParser();
#if KJIT_LLVM_NVPTX
    KJIT_INITIALIZE_TARGET(NVPTX)
#endif
#if KJIT_LLVM_AMDGPU
    KJIT_INITIALIZE_TARGET(AMDGPU)
#endif
  });
}

bool has_nvptx() {
  return KJIT_LLVM_NVPTX != 0;
}

bool has_amdgpu() {
  return KJIT_LLVM_AMDGPU != 0;
}

namespace {

/// LLVM's default analyses at every level, registered with `builder`, as its pipelines need.
struct Analyses {
  llvm::LoopAnalysisManager lam;
  llvm::FunctionAnalysisManager fam;
  llvm::CGSCCAnalysisManager cgam;
  llvm::ModuleAnalysisManager mam;

  explicit Analyses(llvm::PassBuilder& builder) {
    builder.registerModuleAnalyses(mam);
    builder.registerCGSCCAnalyses(cgam);
    builder.registerFunctionAnalyses(fam);
    builder.registerLoopAnalyses(lam);
    builder.crossRegisterProxies(lam, fam, cgam, mam);
  }
};

}  // namespace

void run_o3(llvm::Module& module, llvm::TargetMachine& tm,
            const std::function<void(llvm::PassBuilder&)>& extend) {
  llvm::PipelineTuningOptions tuning;
  tuning.LoopVectorization = true;
  tuning.SLPVectorization = true;
  tuning.LoopUnrolling = true;
  llvm::PassBuilder builder(&tm, tuning);
  if (extend) {
    extend(builder);
  }
  Analyses analyses(builder);
  llvm::ModulePassManager passes =
      builder.buildPerModuleDefaultPipeline(llvm::OptimizationLevel::O3);
  passes.run(module, analyses.mam);
}

void run_function_passes(llvm::Function& function, std::string_view pipeline) {
  llvm::PassBuilder builder;
  Analyses analyses(builder);
  llvm::FunctionPassManager passes;
  if (auto error = builder.parsePassPipeline(passes, pipeline)) {
    throw BackendError("kjit: internal error: " + llvm::toString(std::move(error)));
  }
  passes.run(function, analyses.fam);
}

}  // namespace kjit::llvm_setup
