// Every device of the process, enumerated once, and selection by spec (KJIT_DEVICE).
#pragma once

#include "jit/backend_registry.hpp"
#include "jit/device_impl.hpp"

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace kjit::detail {

class DeviceRegistry {
 public:
  /// The process-wide registry; created on first use and never destroyed, so devices outlive
  /// every object that refers to them.
  static DeviceRegistry& instance();

  [[nodiscard]] const std::vector<std::shared_ptr<DeviceImpl>>& devices() const noexcept {
    return devices_;
  }
  /// The device a spec selects; nullopt selects the first GPU, else the CPU. DeviceError when
  /// nothing matches, listing what exists.
  [[nodiscard]] std::shared_ptr<DeviceImpl> select(std::optional<std::string_view> spec) const;
  /// "cpu:0 (...); cuda: unavailable (why); hip: not built" for error messages.
  [[nodiscard]] std::string describe() const;

 private:
  DeviceRegistry();
  std::vector<BackendSlot> backends_;
  std::vector<std::shared_ptr<DeviceImpl>> devices_;
  std::vector<std::string> absent_;  // why each backend without devices has none
};

}  // namespace kjit::detail
