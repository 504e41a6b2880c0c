#include "backends/gpu/gpu_errors.hpp"

#include <kjit/error.hpp>

#include <fmt/format.h>

namespace kjit::gpu {

void throw_call_error(std::string_view call, std::string_view context,
                      const std::string& description, Failure kind) {
  std::string message = fmt::format("kjit: {} failed ({}): {}", call, context, description);
  if (kind == Failure::launch) {
    throw LaunchError(message);
  }
  throw BackendError(message);
}

void throw_stream_failed(const std::string& device, const std::string& description,
                         const std::string& last_launch) {
  throw BackendError(
      fmt::format("kjit: work on a stream of {} failed: {} (the last kernel launched on it was {})",
                  device, description, last_launch));
}

void throw_device_failed(const std::string& device, const std::string& description,
                         const std::string& last_launch) {
  throw BackendError(
      fmt::format("kjit: work on {} failed: {} (the last kernel launched there was {})", device,
                  description, last_launch));
}

}  // namespace kjit::gpu
