#include "backends/hip/hip_module.hpp"

#include "backends/hip/hip_device.hpp"
#include "backends/hip/hip_errors.hpp"
#include "backends/hip/hip_stream.hpp"

#include <kjit/error.hpp>

#include <fmt/format.h>

template class kjit::gpu::GpuModule<kjit::hip::HipVendor>;
template class kjit::gpu::GpuFunction<kjit::hip::HipVendor>;

namespace kjit::hip {

std::unique_ptr<backend::Function> HipModule::function(const std::string& symbol,
                                                       const std::string& name) {
  const CodeObjectKernel* kernel = code_.kernel(symbol);
  if (kernel == nullptr) {
    throw KernelNotFoundError(fmt::format(
        "kjit: '{}' in program '{}' is not a __global__ function (there is no kernel '{}' in its "
        "code object for {}); only kernels can be launched",
        name, program(), symbol, device().id()));
  }
  const HipApi& api = device().api();
  device().make_current();
  hipFunction_t f = nullptr;
  check(api, api.hipModuleGetFunction(&f, handle(), symbol.c_str()), "hipModuleGetFunction",
        fmt::format("kernel '{}' of '{}' on {}", name, program(), device().id()));
  // The code object's .max_flat_workgroup_size limits the block.
  return std::make_unique<HipFunction>(device(), f, name, kernel->params,
                                       kernel->static_shared_bytes, kernel->max_threads_per_block);
}

}  // namespace kjit::hip
