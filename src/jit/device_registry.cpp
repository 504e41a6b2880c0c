#include "jit/device_registry.hpp"

#include "jit/device_spec.hpp"
#include "jit/logging.hpp"

#include <kjit/error.hpp>

#include <fmt/format.h>

#include <algorithm>

namespace kjit::detail {

DeviceRegistry& DeviceRegistry::instance() {
  static DeviceRegistry* const registry = new DeviceRegistry();  // never destroyed, see header
  return *registry;
}

DeviceRegistry::DeviceRegistry() : backends_(create_backends()) {
  for (BackendSlot& slot : backends_) {
    if (!slot.backend) {
      absent_.push_back(fmt::format("{}: not built into this libkjit", to_string(slot.kind)));
      continue;
    }
    std::vector<DeviceInfo> found = slot.backend->enumerate();
    if (found.empty()) {
      absent_.push_back(
          fmt::format("{}: {}", to_string(slot.kind), slot.backend->unavailable_reason()));
    }
    for (DeviceInfo& info : found) {
      devices_.push_back(std::make_shared<DeviceImpl>(*slot.backend, std::move(info)));
    }
  }
  log().debug("devices: {}", describe());
}

std::string DeviceRegistry::describe() const {
  std::vector<std::string> parts;
  parts.reserve(devices_.size() + absent_.size());
  for (const auto& d : devices_) {
    parts.push_back(d->describe());
  }
  parts.insert(parts.end(), absent_.begin(), absent_.end());
  return fmt::format("{}", fmt::join(parts, "; "));
}

std::shared_ptr<DeviceImpl> DeviceRegistry::select(std::optional<std::string_view> spec) const {
  if (!spec) {
    for (const BackendKind preferred : {BackendKind::cuda, BackendKind::hip, BackendKind::cpu}) {
      for (const auto& d : devices_) {
        if (d->info().backend == preferred) {
          return d;
        }
      }
    }
    throw DeviceError(fmt::format("kjit: no device available. Devices present: {}", describe()));
  }
  const std::vector<DeviceRequest> requests = parse_device_spec(*spec, describe());
  for (const DeviceRequest& request : requests) {
    const auto match = std::find_if(devices_.begin(), devices_.end(), [&](const auto& d) {
      return d->info().backend == request.backend &&
             (!request.ordinal || d->info().ordinal == *request.ordinal);
    });
    if (match != devices_.end()) {
      return *match;
    }
  }
  throw DeviceError(
      fmt::format("kjit: no device matches '{}'. Devices present: {}", *spec, describe()));
}

}  // namespace kjit::detail
