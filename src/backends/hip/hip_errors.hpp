// Every hipError_t becomes a readable kjit::Error here, and only here: the call, the error's
// name and text, and what was being done (device, kernel, sizes).
#pragma once

#include "backends/gpu/gpu_errors.hpp"
#include "backends/hip/hip_types.hpp"

#include <string>
#include <string_view>

namespace kjit::hip {

struct HipApi;

/// "hipErrorOutOfMemory (2): out of memory".
std::string describe_result(const HipApi& api, hipError_t result);

/// What kind of exception a failed call becomes.
using gpu::Failure;

/// Throws for a failed call: "kjit: hipMalloc failed (hip:0, 4096 bytes): hipErrorOutOfMemory ...".
[[noreturn]] void throw_hip_error(const HipApi& api, const char* call, hipError_t result,
                                  std::string_view context, Failure kind = Failure::backend);

/// Throws throw_hip_error's error for a call that did not return hipSuccess.
inline constexpr gpu::CallCheck<hipSuccess, &throw_hip_error> check{};

}  // namespace kjit::hip
