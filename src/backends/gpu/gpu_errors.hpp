// The one form of a failed vendor call's error, for every GPU backend. Each vendor converts its
// own codes (cuda_errors.hpp, hip_errors.hpp) and hands the description here.
#pragma once

#include <string>
#include <string_view>

namespace kjit::gpu {

/// What kind of exception a failed call becomes.
enum class Failure { backend, launch };

/// Throws "kjit: cuMemAlloc failed (cuda:0, 4096 bytes): CUDA_ERROR_OUT_OF_MEMORY (2): ...":
/// LaunchError or BackendError, as `kind` says.
[[noreturn]] void throw_call_error(std::string_view call, std::string_view context,
                                   const std::string& description, Failure kind);

/// A vendor's check(): throws `fail`'s error (the vendor's conversion of its codes) for a call
/// whose result is not `kSuccess`. cuda::check and hip::check are one each.
template <auto kSuccess, auto fail>
struct CallCheck {
  template <class Api>
  void operator()(const Api& api, decltype(kSuccess) result, const char* call,
                  std::string_view context, Failure kind = Failure::backend) const {
    if (result != kSuccess) {
      fail(api, call, result, context, kind);
    }
  }
};

/// Throws BackendError for work on a stream of `device` that failed: "kjit: work on a stream of
/// cuda:0 failed: ... (the last kernel launched on it was 'k')".
[[noreturn]] void throw_stream_failed(const std::string& device, const std::string& description,
                                      const std::string& last_launch);

/// The same for the whole device: "kjit: work on cuda:0 failed: ... (the last kernel launched
/// there was 'k')".
[[noreturn]] void throw_device_failed(const std::string& device, const std::string& description,
                                      const std::string& last_launch);

}  // namespace kjit::gpu
