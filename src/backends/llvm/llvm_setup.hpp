// What every use of LLVM in kjit shares: registering the code generators once, and the O3
// pipeline.
#pragma once

#include <functional>
#include <string_view>

namespace llvm {
class Function;
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

/// A function pass pipeline in LLVM's textual syntax ("sroa,gvn,...") on one function.
void run_function_passes(llvm::Function& function, std::string_view pipeline);

}  // namespace kjit::llvm_setup
