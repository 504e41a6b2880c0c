#include "backends/llvm/llvm_setup.hpp"

#include <kjit/error.hpp>

#include <llvm/ADT/Statistic.h>
#include <llvm/Analysis/CGSCCPassManager.h>
#include <llvm/Analysis/LoopAnalysisManager.h>
#include <llvm/IR/DiagnosticHandler.h>
#include <llvm/IR/DiagnosticInfo.h>
#include <llvm/IR/DiagnosticPrinter.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/PassManager.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Support/ErrorHandling.h>
#include <llvm/Support/TargetSelect.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Target/TargetMachine.h>

#include <csetjmp>
#include <cstdio>
#include <mutex>

// LeakSanitizer, when it is on: the memory an abandoned compile leaves is leaked on purpose.
#if defined(__SANITIZE_ADDRESS__)
#define KJIT_LEAK_CHECKS 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(leak_sanitizer)
#define KJIT_LEAK_CHECKS 1
#endif
#endif
#if defined(KJIT_LEAK_CHECKS)
#include <sanitizer/lsan_interface.h>
#endif

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

namespace {

// The innermost run_recovering of this thread, and what stopped it.
thread_local std::jmp_buf* t_recovery = nullptr;
thread_local std::string t_fatal_reason;

/// LLVM's report_fatal_error: back to run_recovering when a compile runs on this thread; else
/// LLVM ends the process after this returns, and the log says why first.
void on_fatal_error(void* /*user*/, const char* reason, bool /*crash_diagnostics*/) {
  if (t_recovery != nullptr) {
    t_fatal_reason = reason;
#if defined(KJIT_LEAK_CHECKS)
    // The jump skips the destructor of the string LLVM made the reason in (reliability.md: an
    // abandoned compile's memory is not freed); LeakSanitizer is told so, not fooled.
    __lsan_ignore_object(reason);
#endif
    std::longjmp(*t_recovery, 1);  // NOLINT(cert-err52-cpp): LLVM has no exceptions to throw
  }
  std::fputs("kjit: LLVM stopped with a fatal error outside any compile: ", stderr);
  std::fputs(reason, stderr);
  std::fputc('\n', stderr);
}

}  // namespace

std::optional<std::string> run_recovering(const std::function<void()>& work) {
  initialize_targets();  // installs the handler
  std::jmp_buf here;
  std::jmp_buf* const outer = t_recovery;
  if (setjmp(here) != 0) {  // NOLINT(cert-err52-cpp)
    t_recovery = outer;
    return t_fatal_reason;
  }
  t_recovery = &here;
  try {
    work();
  } catch (...) {
    t_recovery = outer;
    throw;
  }
  t_recovery = outer;
  return std::nullopt;
}

namespace {

class CollectingHandler : public llvm::DiagnosticHandler {
 public:
  explicit CollectingHandler(std::vector<std::string>& errors) : errors_(errors) {}
  bool handleDiagnostics(const llvm::DiagnosticInfo& info) override {
    if (info.getSeverity() == llvm::DS_Error) {
      std::string text;
      llvm::raw_string_ostream os(text);
      llvm::DiagnosticPrinterRawOStream printer(os);
      info.print(printer);
      errors_.push_back(os.str());
    }
    return true;  // handled: warnings and remarks are dropped, errors kept
  }

 private:
  std::vector<std::string>& errors_;
};

}  // namespace

ContextErrors::ContextErrors(llvm::LLVMContext& context)
    : context_(context), previous_(context.getDiagnosticHandler()) {
  context_.setDiagnosticHandler(std::make_unique<CollectingHandler>(errors_));
}

ContextErrors::~ContextErrors() {
  context_.setDiagnosticHandler(std::move(previous_));
}

void initialize_targets() {
  static std::once_flag once;
  std::call_once(once, [] {
    // LLVM makes the lock and the list its statistics register with on first use, from whichever
    // thread gets there first, through atomics in libLLVM that ThreadSanitizer does not see: two
    // compiling threads reported a race there. Made here, once, they are made before any compile.
    (void)llvm::GetStatistics();
    llvm::install_fatal_error_handler(on_fatal_error);
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

void run_o0(llvm::Module& module, llvm::TargetMachine& tm) {
  llvm::PassBuilder builder(&tm);
  Analyses analyses(builder);
  llvm::ModulePassManager passes = builder.buildO0DefaultPipeline(llvm::OptimizationLevel::O0);
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
