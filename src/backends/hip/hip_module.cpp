#include "backends/hip/hip_module.hpp"

#include "backends/hip/hip_device.hpp"
#include "backends/hip/hip_errors.hpp"
#include "backends/hip/hip_stream.hpp"
#include "support/logging.hpp"

#include <kjit/error.hpp>

#include <fmt/format.h>

namespace kjit::hip {

HipModule::~HipModule() {
  const HipApi& api = device_.api();
  try {
    device_.make_current();
    hipError_t r = api.hipDeviceSynchronize();
    if (r != hipSuccess) {
      detail::log().warn("unloading '{}' from {}: earlier work failed: {}", program_, device_.id(),
                         describe_result(api, r));
    }
    r = api.hipModuleUnload(module_);
    if (r != hipSuccess) {
      detail::log().warn("hipModuleUnload of '{}' on {}: {}", program_, device_.id(),
                         describe_result(api, r));
    }
  } catch (const std::exception& e) {
    detail::log().warn("unloading '{}' from {}: {}", program_, device_.id(), e.what());
  }
}

std::vector<backend::Variable> HipModule::variables() {
  const HipApi& api = device_.api();
  device_.make_current();
  std::vector<backend::Variable> found;
  for (const backend::DeviceVariable& v : variables_) {
    hipDeviceptr_t address = nullptr;
    std::size_t size = 0;
    const hipError_t r = api.hipModuleGetGlobal(&address, &size, module_, v.symbol.c_str());
    if (r == hipErrorNotFound) {
      continue;  // a symbol the runtime does not export (a local one)
    }
    check(api, r, "hipModuleGetGlobal",
          fmt::format("variable '{}' of '{}' on {}", v.name, program_, device_.id()));
    found.push_back({v.name, reinterpret_cast<std::uint64_t>(address), size});
  }
  return found;
}

std::unique_ptr<backend::Function> HipModule::function(const std::string& symbol,
                                                       const std::string& name) {
  const CodeObjectKernel* kernel = code_.kernel(symbol);
  if (kernel == nullptr) {
    throw KernelNotFoundError(fmt::format(
        "kjit: '{}' in program '{}' is not a __global__ function (there is no kernel '{}' in its "
        "code object for {}); only kernels can be launched",
        name, program_, symbol, device_.id()));
  }
  const HipApi& api = device_.api();
  device_.make_current();
  hipFunction_t f = nullptr;
  check(api, api.hipModuleGetFunction(&f, module_, symbol.c_str()), "hipModuleGetFunction",
        fmt::format("kernel '{}' of '{}' on {}", name, program_, device_.id()));
  return std::make_unique<HipFunction>(device_, f, name, kernel->params,
                                       kernel->static_shared_bytes, kernel->max_threads_per_block);
}

HipFunction::HipFunction(HipDevice& device, hipFunction_t function, const std::string& name,
                         std::vector<backend::ParamInfo> params, std::size_t static_shared,
                         std::size_t max_threads)
    : backend::Function(name, device.info(), std::move(params), static_shared),
      device_(device),
      function_(function),
      label_(device.intern(name)) {
  limit_block_threads(max_threads);  // the code object's .max_flat_workgroup_size
}

void HipFunction::launch_impl(backend::Stream& stream, const LaunchConfig& config,
                              const void* const* args) {
  auto& s = static_cast<HipStream&>(stream);
  const hipStream_t handle = s.handle();  // also makes the device current
  const Dim3& g = config.grid;
  const Dim3& b = config.block;
  const hipError_t r = device_.api().hipModuleLaunchKernel(
      function_, g.x, g.y, g.z, b.x, b.y, b.z, static_cast<unsigned>(config.shared_bytes), handle,
      const_cast<void**>(args), nullptr);
  if (r != hipSuccess) {
    throw_hip_error(device_.api(), "hipModuleLaunchKernel", r,
                    fmt::format("kernel '{}' on {}", *label_, device_.id()), Failure::launch);
  }
  s.note_launch(label_);
  s.note_captured_launch();
}

}  // namespace kjit::hip
