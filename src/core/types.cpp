// LaunchConfig helpers and the spelling of backend kinds and device ids.
#include <kjit/error.hpp>
#include <kjit/types.hpp>

#include <fmt/format.h>

#include <limits>

namespace kjit {

LaunchConfig LaunchConfig::for_elements(std::size_t n, std::uint32_t block) {
  if (block == 0) {
    throw UsageError("kjit: LaunchConfig::for_elements: block size 0");
  }
  if (n == 0) {
    throw UsageError("kjit: LaunchConfig::for_elements(0): no elements to cover");
  }
  const std::size_t blocks = (n - 1) / block + 1;
  if (blocks > std::numeric_limits<std::uint32_t>::max()) {
    throw UsageError(
        fmt::format("kjit: LaunchConfig::for_elements({}, {}) needs {} blocks, more "
                    "than a grid dimension holds",
                    n, block, blocks));
  }
  return LaunchConfig{.grid = {static_cast<std::uint32_t>(blocks), 1, 1},
                      .block = {block, 1, 1},
                      .shared_bytes = 0};
}

const char* to_string(BackendKind kind) noexcept {
  switch (kind) {
    case BackendKind::cpu:
      return "cpu";
    case BackendKind::cuda:
      return "cuda";
    case BackendKind::hip:
      return "hip";
  }
  return "unknown";
}

std::string DeviceInfo::id() const {
  return fmt::format("{}:{}", to_string(backend), ordinal);
}

}  // namespace kjit
