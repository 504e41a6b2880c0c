#include "backends/hip/hip_errors.hpp"

#include "backends/hip/hip_runtime_api.hpp"

#include <kjit/error.hpp>

#include <fmt/format.h>

namespace kjit::hip {

std::string describe_result(const HipApi& api, hipError_t result) {
  const char* name = api.hipGetErrorName(result);
  const char* text = api.hipGetErrorString(result);
  std::string out =
      name != nullptr ? fmt::format("{} ({})", name, result) : fmt::format("HIP error {}", result);
  if (text != nullptr) {
    out += ": ";
    out += text;
  }
  return out;
}

void throw_hip_error(const HipApi& api, const char* call, hipError_t result,
                     std::string_view context, Failure kind) {
  gpu::throw_call_error(call, context, describe_result(api, result), kind);
}

}  // namespace kjit::hip
