#include "backends/cuda/cuda_module.hpp"

#include "backends/cuda/cuda_device.hpp"
#include "backends/cuda/cuda_errors.hpp"
#include "backends/cuda/cuda_stream.hpp"

#include <kjit/error.hpp>

#include <fmt/format.h>

template class kjit::gpu::GpuModule<kjit::cuda::CudaVendor>;
template class kjit::gpu::GpuFunction<kjit::cuda::CudaVendor>;

namespace kjit::cuda {

std::unique_ptr<backend::Function> CudaModule::function(const std::string& symbol,
                                                        const std::string& name) {
  const DriverApi& api = device().api();
  device().make_current();
  CUfunction f = nullptr;
  const CUresult r = api.cuModuleGetFunction(&f, handle(), symbol.c_str());
  if (r == CUDA_ERROR_NOT_FOUND) {
    throw KernelNotFoundError(fmt::format(
        "kjit: '{}' in program '{}' is not a __global__ function (there is no kernel '{}' in its "
        "binary for {}); only kernels can be launched",
        name, program(), symbol, device().id()));
  }
  check(api, r, "cuModuleGetFunction",
        fmt::format("kernel '{}' of '{}' on {}", name, program(), device().id()));

  std::vector<backend::ParamInfo> params;
  if (api.cuFuncGetParamInfo != nullptr) {
    for (std::size_t i = 0;; ++i) {
      std::size_t offset = 0;
      std::size_t size = 0;
      if (api.cuFuncGetParamInfo(f, i, &offset, &size) != CUDA_SUCCESS) {
        break;  // past the last parameter
      }
      params.push_back({offset, size});
    }
  }
  int static_shared = 0;
  check(api, api.cuFuncGetAttribute(&static_shared, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, f),
        "cuFuncGetAttribute", device().id());
  int max_threads = 0;
  check(api, api.cuFuncGetAttribute(&max_threads, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, f),
        "cuFuncGetAttribute", device().id());
  return std::make_unique<CudaFunction>(device(), f, name, std::move(params),
                                        static_cast<std::size_t>(static_shared),
                                        static_cast<std::size_t>(max_threads));
}

}  // namespace kjit::cuda
