#include "backends/cuda/cuda_errors.hpp"

#include "backends/cuda/cuda_driver_api.hpp"
#include "backends/cuda/nvrtc_api.hpp"

#include <kjit/error.hpp>

#include <fmt/format.h>

namespace kjit::cuda {

std::string describe_result(const DriverApi* api, CUresult result) {
  const char* name = nullptr;
  const char* text = nullptr;
  if (api != nullptr) {
    api->cuGetErrorName(result, &name);
    api->cuGetErrorString(result, &text);
  }
  if (name == nullptr) {
    name = result_name(result);
  }
  std::string out =
      name != nullptr ? fmt::format("{} ({})", name, result) : fmt::format("CUDA error {}", result);
  if (text != nullptr) {
    out += ": ";
    out += text;
  }
  return out;
}

void throw_driver_error(const DriverApi& api, const char* call, CUresult result,
                        std::string_view context, Failure kind) {
  std::string message =
      fmt::format("kjit: {} failed ({}): {}", call, context, describe_result(&api, result));
  if (kind == Failure::launch) {
    throw LaunchError(message);
  }
  throw BackendError(message);
}

void throw_nvrtc_error(const NvrtcApi& api, const char* call, nvrtcResult result,
                       std::string_view context) {
  throw BackendError(fmt::format("kjit: {} failed ({}): {} ({})", call, context,
                                 api.nvrtcGetErrorString(result), result));
}

}  // namespace kjit::cuda
