#include "backends/cuda/cuda_module.hpp"

#include "backends/cuda/cuda_device.hpp"
#include "backends/cuda/cuda_errors.hpp"
#include "backends/cuda/cuda_stream.hpp"
#include "support/logging.hpp"

#include <kjit/error.hpp>

#include <fmt/format.h>

namespace kjit::cuda {

namespace {

constexpr CUresult kNotFound = 500;                                    // CUDA_ERROR_NOT_FOUND
constexpr std::size_t kDefaultDynamicShared = std::size_t{48} * 1024;  // what needs no opt-in

}  // namespace

CudaModule::~CudaModule() {
  const DriverApi& api = device_.api();
  try {
    device_.make_current();
    CUresult r = api.cuCtxSynchronize();
    if (r != CUDA_SUCCESS) {
      detail::log().warn("unloading '{}' from {}: earlier work failed: {}", program_, device_.id(),
                         describe_result(&api, r));
    }
    r = api.cuModuleUnload(module_);
    if (r != CUDA_SUCCESS) {
      detail::log().warn("cuModuleUnload of '{}' on {}: {}", program_, device_.id(),
                         describe_result(&api, r));
    }
  } catch (const std::exception& e) {
    detail::log().warn("unloading '{}' from {}: {}", program_, device_.id(), e.what());
  }
}

std::vector<backend::Variable> CudaModule::variables() {
  const DriverApi& api = device_.api();
  device_.make_current();
  std::vector<backend::Variable> found;
  for (const backend::DeviceVariable& v : variables_) {
    CUdeviceptr address = 0;
    std::size_t size = 0;
    const CUresult r = api.cuModuleGetGlobal(&address, &size, module_, v.symbol.c_str());
    if (r == kNotFound) {
      continue;  // a symbol the driver does not export (a local one)
    }
    check(api, r, "cuModuleGetGlobal",
          fmt::format("variable '{}' of '{}' on {}", v.name, program_, device_.id()));
    found.push_back({v.name, address, size});
  }
  return found;
}

std::unique_ptr<backend::Function> CudaModule::function(const std::string& symbol,
                                                        const std::string& name) {
  const DriverApi& api = device_.api();
  device_.make_current();
  CUfunction f = nullptr;
  const CUresult r = api.cuModuleGetFunction(&f, module_, symbol.c_str());
  if (r == kNotFound) {
    throw KernelNotFoundError(fmt::format(
        "kjit: '{}' in program '{}' is not a __global__ function (there is no kernel '{}' in its "
        "binary for {}); only kernels can be launched",
        name, program_, symbol, device_.id()));
  }
  check(api, r, "cuModuleGetFunction",
        fmt::format("kernel '{}' of '{}' on {}", name, program_, device_.id()));

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
        "cuFuncGetAttribute", device_.id());
  int max_threads = 0;
  check(api, api.cuFuncGetAttribute(&max_threads, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, f),
        "cuFuncGetAttribute", device_.id());
  return std::make_unique<CudaFunction>(device_, f, name, std::move(params),
                                        static_cast<std::size_t>(static_shared),
                                        static_cast<std::size_t>(max_threads));
}

CudaFunction::CudaFunction(CudaDevice& device, CUfunction function, const std::string& name,
                           std::vector<backend::ParamInfo> params, std::size_t static_shared,
                           std::size_t max_threads)
    : backend::Function(name, device.info(), std::move(params), static_shared),
      device_(device),
      function_(function),
      label_(device.intern(name)),
      dynamic_shared_allowed_(kDefaultDynamicShared) {
  limit_block_threads(max_threads);
}

void CudaFunction::launch_impl(backend::Stream& stream, const LaunchConfig& config,
                               const void* const* args) {
  auto& s = static_cast<CudaStream&>(stream);
  const CUstream handle = s.handle();  // also makes the context current
  const DriverApi& api = device_.api();
  const std::string_view context = *label_;
  if (config.shared_bytes > dynamic_shared_allowed_.load(std::memory_order_relaxed)) {
    // More than 48 KiB of dynamic shared memory needs the kernel's opt-in; the limit check in
    // Function::launch already holds it to what the device allows.
    check(api,
          api.cuFuncSetAttribute(function_, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                                 static_cast<int>(config.shared_bytes)),
          "cuFuncSetAttribute", context, Failure::launch);
    dynamic_shared_allowed_.store(config.shared_bytes, std::memory_order_relaxed);
  }
  const Dim3& g = config.grid;
  const Dim3& b = config.block;
  const CUresult r = api.cuLaunchKernel(function_, g.x, g.y, g.z, b.x, b.y, b.z,
                                        static_cast<unsigned>(config.shared_bytes), handle,
                                        const_cast<void**>(args), nullptr);
  if (r != CUDA_SUCCESS) {
    throw_driver_error(api, "cuLaunchKernel", r,
                       fmt::format("kernel '{}' on {}", *label_, device_.id()), Failure::launch);
  }
  s.note_launch(label_);
  s.note_captured_launch();
}

}  // namespace kjit::cuda
