#include "core/device_registry.hpp"

#include "core/device_spec.hpp"
#include "support/logging.hpp"

#include <kjit/error.hpp>

#include <fmt/format.h>

#include <algorithm>

namespace kjit::detail {

DeviceRegistry& DeviceRegistry::instance() {
  static DeviceRegistry* const registry = new DeviceRegistry();  // never destroyed, see header
  return *registry;
}

DeviceRegistry::DeviceRegistry() {
  for (BackendSlot& backend : create_backends()) {
    slots_.push_back({std::move(backend), false, {}, {}});
  }
}

const std::vector<std::shared_ptr<DeviceImpl>>& DeviceRegistry::devices_of(BackendKind kind) {
  const auto slot = std::find_if(slots_.begin(), slots_.end(),
                                 [&](const Slot& s) { return s.backend.kind == kind; });
  if (slot == slots_.end()) {
    throw BackendError("kjit: internal error: no slot for a backend kind");
  }
  if (!slot->enumerated) {
    // A malformed setting (KJIT_CPU_THREADS) throws here, and again at the next use.
    if (!slot->backend.backend) {
      slot->absent = fmt::format("{}: not built into this libkjit", to_string(kind));
    } else {
      std::vector<DeviceInfo> found = slot->backend.backend->enumerate();
      if (found.empty()) {
        slot->absent =
            fmt::format("{}: {}", to_string(kind), slot->backend.backend->unavailable_reason());
      }
      for (DeviceInfo& info : found) {
        slot->devices.push_back(
            std::make_shared<DeviceImpl>(*slot->backend.backend, std::move(info)));
      }
    }
    slot->enumerated = true;
    std::vector<std::string> names;
    for (const auto& d : slot->devices) {
      names.push_back(d->describe());
    }
    log().debug("{} devices: {}", to_string(kind),
                names.empty() ? slot->absent : fmt::format("{}", fmt::join(names, "; ")));
  }
  return slot->devices;
}

const std::vector<std::shared_ptr<DeviceImpl>>& DeviceRegistry::devices() {
  const std::lock_guard lock(mutex_);
  if (!all_enumerated_) {
    for (Slot& slot : slots_) {
      const auto& found = devices_of(slot.backend.kind);
      all_.insert(all_.end(), found.begin(), found.end());
    }
    all_enumerated_ = true;
  }
  return all_;
}

std::string DeviceRegistry::describe_locked() {
  std::vector<std::string> parts;
  std::vector<std::string> absent;
  for (Slot& slot : slots_) {
    for (const auto& d : devices_of(slot.backend.kind)) {
      parts.push_back(d->describe());
    }
    if (!slot.absent.empty()) {
      absent.push_back(slot.absent);
    }
  }
  parts.insert(parts.end(), absent.begin(), absent.end());
  return fmt::format("{}", fmt::join(parts, "; "));
}

std::string DeviceRegistry::describe() {
  const std::lock_guard lock(mutex_);
  return describe_locked();
}

std::shared_ptr<DeviceImpl> DeviceRegistry::usable(std::shared_ptr<DeviceImpl> device) {
  const std::string why = device->unusable_reason();
  if (why.empty()) {
    return device;
  }
  std::shared_ptr<DeviceImpl> fresh = device->renewed();
  for (Slot& slot : slots_) {
    std::replace(slot.devices.begin(), slot.devices.end(), device, fresh);
  }
  std::replace(all_.begin(), all_.end(), device, fresh);
  retired_.push_back(device);
  log().warn(
      "{} is unusable ({}); selecting it again gives a new device, which compiles and "
      "allocates anew",
      device->describe(), why);
  return fresh;
}

std::shared_ptr<DeviceImpl> DeviceRegistry::select(std::optional<std::string_view> spec) {
  const std::lock_guard lock(mutex_);
  if (!spec) {
    for (const BackendKind preferred : {BackendKind::cuda, BackendKind::hip, BackendKind::cpu}) {
      const auto& found = devices_of(preferred);
      if (!found.empty()) {
        return usable(found.front());
      }
    }
    throw DeviceError(
        fmt::format("kjit: no device available. Devices present: {}", describe_locked()));
  }
  std::vector<DeviceRequest> requests;
  try {
    requests = parse_device_spec(*spec, "");
  } catch (const DeviceError& e) {
    // A malformed spec: the message ends with "Devices present: ", now worth enumerating.
    throw DeviceError(std::string(e.what()) + describe_locked());
  }
  for (const DeviceRequest& request : requests) {
    const auto& found = devices_of(request.backend);
    const auto match = std::find_if(found.begin(), found.end(), [&](const auto& d) {
      return !request.ordinal || d->info().ordinal == *request.ordinal;
    });
    if (match != found.end()) {
      return usable(*match);
    }
  }
  throw DeviceError(
      fmt::format("kjit: no device matches '{}'. Devices present: {}", *spec, describe_locked()));
}

}  // namespace kjit::detail
