// What every use of LLVM in kjit shares: registering the code generators once, and the O3
// pipeline.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace llvm {
class DiagnosticHandler;
class Function;
class LLVMContext;
class Module;
class PassBuilder;
class TargetMachine;
}  // namespace llvm

namespace kjit::llvm_setup {

/// Registers the host's code generator and, where this LLVM has them, NVPTX's and AMDGPU's,
/// once per process. Every LLVM or Clang entry point calls this first: Clang and LLVM look
/// targets up in one registry, and registering is not safe to race with a lookup.
void initialize_targets();

/// True when this LLVM has the NVPTX / AMDGPU code generator.
bool has_nvptx();
bool has_amdgpu();

/// LLVM's standard O3 pipeline for `tm`, with loop and SLP vectorisation; `extend`, when given,
/// adds a backend's own passes at the builder's extension points before the pipeline is built.
void run_o3(llvm::Module& module, llvm::TargetMachine& tm,
            const std::function<void(llvm::PassBuilder&)>& extend = {});

/// Runs `work` (a compile) so that an LLVM fatal error in it (report_fatal_error, which would
/// end the process) abandons the work instead: returns LLVM's reason, or nullopt when the work
/// finished. The abandoned work's memory is not freed. Exceptions from `work` pass through.
std::optional<std::string> run_recovering(const std::function<void()>& work);

/// While it lives, the errors LLVM reports through `context` (inline assembly it cannot parse,
/// say) are collected here instead of LLVM's default: print them and end the process.
class ContextErrors {
 public:
  explicit ContextErrors(llvm::LLVMContext& context);
  ContextErrors(const ContextErrors&) = delete;
  ContextErrors& operator=(const ContextErrors&) = delete;
  ~ContextErrors();
  [[nodiscard]] const std::vector<std::string>& errors() const noexcept { return errors_; }

 private:
  llvm::LLVMContext& context_;
  std::unique_ptr<llvm::DiagnosticHandler> previous_;
  std::vector<std::string> errors_;
};

/// A function pass pipeline in LLVM's textual syntax ("sroa,gvn,...") on one function.
/// LLVM's O0 pipeline: only what code needs to be correct (always_inline functions inlined),
/// so that a debugger finds every variable where the source put it.
void run_o0(llvm::Module& module, llvm::TargetMachine& tm);

void run_function_passes(llvm::Function& function, std::string_view pipeline);

}  // namespace kjit::llvm_setup
