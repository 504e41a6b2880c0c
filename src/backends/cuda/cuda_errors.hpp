// Every CUresult and nvrtcResult becomes a readable kjit::Error here, and only here: the call,
// the error's name and text, and what was being done (device, kernel, sizes).
#pragma once

#include "backends/cuda/cuda_types.hpp"
#include "backends/gpu/gpu_errors.hpp"

#include <string>
#include <string_view>

namespace kjit::cuda {

struct DriverApi;
struct NvrtcApi;

/// "CUDA_ERROR_OUT_OF_MEMORY" for a known code, nullptr otherwise.
const char* result_name(CUresult result) noexcept;

/// "CUDA_ERROR_OUT_OF_MEMORY (2): out of memory", asking the driver when it is loaded.
std::string describe_result(const DriverApi* api, CUresult result);

/// What kind of exception a failed call becomes.
using gpu::Failure;

/// Throws for a failed call: "kjit: cuMemAlloc failed (cuda:0, 4096 bytes): CUDA_ERROR_...".
[[noreturn]] void throw_driver_error(const DriverApi& api, const char* call, CUresult result,
                                     std::string_view context, Failure kind = Failure::backend);

/// Throws throw_driver_error's error for a call that did not return CUDA_SUCCESS.
inline constexpr gpu::CallCheck<CUDA_SUCCESS, &throw_driver_error> check{};

/// Throws BackendError for a failed NVRTC call other than a compile error.
[[noreturn]] void throw_nvrtc_error(const NvrtcApi& api, const char* call, nvrtcResult result,
                                    std::string_view context);

}  // namespace kjit::cuda
