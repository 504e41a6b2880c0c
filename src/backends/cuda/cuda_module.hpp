// A loaded CUBIN or PTX module and its kernels: the shared GPU module and launch
// (backends/gpu/gpu_module.hpp) on the CUDA driver, which gives each kernel's parameter layout
// and limits.
#pragma once

#include "backends/cuda/cuda_vendor.hpp"
#include "backends/gpu/gpu_module.hpp"

#include <memory>
#include <string>

namespace kjit::cuda {

using CudaFunction = gpu::GpuFunction<CudaVendor>;

class CudaModule final : public gpu::GpuModule<CudaVendor> {
 public:
  using GpuModule::GpuModule;
  std::unique_ptr<backend::Function> function(const std::string& symbol,
                                              const std::string& name) override;
};

}  // namespace kjit::cuda

// Instantiated once, in cuda_module.cpp.
extern template class kjit::gpu::GpuModule<kjit::cuda::CudaVendor>;
extern template class kjit::gpu::GpuFunction<kjit::cuda::CudaVendor>;
