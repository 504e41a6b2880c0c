#include "backends/cuda/cuda_errors.hpp"

#include "backends/cuda/cuda_driver_api.hpp"
#include "backends/cuda/nvrtc_api.hpp"

#include <kjit/error.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <iterator>

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
  // A fault in a kernel (an illegal address, a failed assert ...) leaves the context broken: every
  // later call on the device returns the same error.
  constexpr CUresult kSticky[] = {700, 702, 710, 714, 715, 716, 717, 718, 719};
  if (std::find(std::begin(kSticky), std::end(kSticky), result) != std::end(kSticky)) {
    out +=
        " (the device's CUDA context is now unusable: every later call on it fails; restart "
        "the process to use the device again)";
  }
  return out;
}

void throw_driver_error(const DriverApi& api, const char* call, CUresult result,
                        std::string_view context, Failure kind) {
  gpu::throw_call_error(call, context, describe_result(&api, result), kind);
}

void throw_nvrtc_error(const NvrtcApi& api, const char* call, nvrtcResult result,
                       std::string_view context) {
  throw BackendError(fmt::format("kjit: {} failed ({}): {} ({})", call, context,
                                 api.nvrtcGetErrorString(result), result));
}

}  // namespace kjit::cuda
