#include "core/device_spec.hpp"

#include "support/text.hpp"

#include <kjit/error.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <charconv>

namespace kjit::detail {

namespace {

std::string lower(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

[[noreturn]] void fail(std::string_view spec, std::string_view why, std::string_view devices) {
  throw DeviceError(
      fmt::format("kjit: device spec '{}': {}; the syntax is backend[:ordinal] "
                  "with backend cpu, cuda or hip, or a comma-separated preference "
                  "list such as 'cuda,cpu'. Devices present: {}",
                  spec, why, devices));
}

DeviceRequest parse_entry(std::string_view spec, std::string_view entry, std::string_view devices) {
  const auto colon = entry.find(':');
  const std::string_view name = trim(entry.substr(0, colon));
  DeviceRequest request;
  const std::string backend = lower(name);
  if (backend == "cpu") {
    request.backend = BackendKind::cpu;
  } else if (backend == "cuda") {
    request.backend = BackendKind::cuda;
  } else if (backend == "hip") {
    request.backend = BackendKind::hip;
  } else if (name.empty()) {
    fail(spec, fmt::format("entry '{}' has no backend name", entry), devices);
  } else {
    fail(spec, fmt::format("unknown backend '{}'", name), devices);
  }
  if (colon == std::string_view::npos) {
    return request;
  }
  const std::string_view number = trim(entry.substr(colon + 1));
  int ordinal = -1;
  const auto [end, ec] = std::from_chars(number.data(), number.data() + number.size(), ordinal);
  if (number.empty() || ec != std::errc{} || end != number.data() + number.size() || ordinal < 0) {
    fail(spec, fmt::format("'{}' is not a device ordinal (0, 1, ...)", number), devices);
  }
  request.ordinal = ordinal;
  return request;
}

}  // namespace

std::string DeviceRequest::to_string() const {
  if (ordinal) {
    return fmt::format("{}:{}", kjit::to_string(backend), *ordinal);
  }
  return kjit::to_string(backend);
}

std::vector<DeviceRequest> parse_device_spec(std::string_view spec, std::string_view devices) {
  std::vector<DeviceRequest> requests;
  if (trim(spec).empty()) {
    fail(spec, "it is empty", devices);
  }
  for (const std::string_view entry : comma_list(spec)) {
    if (entry.empty()) {
      fail(spec, "it has an empty entry", devices);
    }
    requests.push_back(parse_entry(spec, entry, devices));
  }
  return requests;
}

}  // namespace kjit::detail
