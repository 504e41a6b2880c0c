// Compilers of LLVM bitcode for the GPU backends: LLVM's NVPTX code generator (bitcode -> PTX,
// which the CUDA driver loads) and its AMDGPU code generator with lld linked in (bitcode -> code
// object, which HIP loads). A plain header: the CUDA and HIP backends include it without LLVM's
// headers. Built without LLVM, every factory here throws BackendError.
#pragma once

#include "backends/kit/backend.hpp"

#include <memory>
#include <optional>
#include <string>

namespace kjit::bitcode {

/// "19.1.7"; "" when kjit was built without LLVM.
std::string llvm_version();

/// nvptx64 bitcode -> PTX for a device of compute capability `arch` (90 for sm_90), or for the
/// newest architecture this LLVM knows below it. `target` is the cache key's target
/// ("cuda:sm_90"); `label` names the device in messages.
std::unique_ptr<backend::Compiler> nvptx_compiler(int arch, std::string target, std::string label);

/// amdgcn bitcode -> code object (ELF, linked by lld) for `processor` ("gfx942") with the
/// device's settings of sramecc and xnack (unset: either). `target` is the cache key's target
/// ("hip:gfx942:xnack-"); `label` names the device in messages.
struct AmdgpuSettings {
  std::string processor;
  std::optional<bool> sramecc;
  std::optional<bool> xnack;
};
std::unique_ptr<backend::Compiler> amdgpu_compiler(AmdgpuSettings settings, std::string target,
                                                   std::string label);

}  // namespace kjit::bitcode
