// The device selection language of KJIT_DEVICE and Device::select(spec):
//   spec  := entry ("," entry)*        a preference list, first match wins
//   entry := backend (":" ordinal)?    backend: cpu | cuda | hip (any case); ordinal: 0, 1, ...
// Blanks around entries are ignored. Pure parsing here; matching against devices is the
// registry's job.
#pragma once

#include <kjit/types.hpp>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace kjit::detail {

struct DeviceRequest {
  BackendKind backend = BackendKind::cpu;
  std::optional<int> ordinal;  // nullopt: any device of the backend

  [[nodiscard]] std::string to_string() const;
  friend bool operator==(const DeviceRequest&, const DeviceRequest&) = default;
};

/// Parses a spec; throws DeviceError naming the offending entry. `devices` (the list of devices
/// that exist, already formatted) is appended to the message.
std::vector<DeviceRequest> parse_device_spec(std::string_view spec, std::string_view devices);

}  // namespace kjit::detail
