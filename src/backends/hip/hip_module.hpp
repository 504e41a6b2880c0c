// A loaded code object and its kernels: the shared GPU module and launch
// (backends/gpu/gpu_module.hpp) on the HIP runtime. Parameter layouts and limits come from the
// code object's metadata.
#pragma once

#include "backends/gpu/gpu_module.hpp"
#include "backends/hip/code_object.hpp"
#include "backends/hip/hip_vendor.hpp"

#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace kjit::hip {

using HipFunction = gpu::GpuFunction<HipVendor>;

class HipModule final : public gpu::GpuModule<HipVendor> {
 public:
  /// `variables`: those the code object's symbol table defines.
  HipModule(HipDevice& device, hipModule_t module, std::string program, CodeObject code,
            std::vector<backend::DeviceVariable> variables)
      : GpuModule(device, module, std::move(program), std::move(variables)),
        code_(std::move(code)) {}
  std::unique_ptr<backend::Function> function(const std::string& symbol,
                                              const std::string& name) override;

 private:
  CodeObject code_;
};

}  // namespace kjit::hip

// Instantiated once, in hip_module.cpp.
extern template class kjit::gpu::GpuModule<kjit::hip::HipVendor>;
extern template class kjit::gpu::GpuFunction<kjit::hip::HipVendor>;
