// libFuzzer target: the KJIT_DEVICE / Device::select() language. Any text either parses or gives
// a DeviceError; what parses prints back to text that parses to the same requests.
#include "core/device_spec.hpp"

#include <kjit/error.hpp>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view spec(reinterpret_cast<const char*>(data), size);
  std::vector<kjit::detail::DeviceRequest> requests;
  try {
    requests = kjit::detail::parse_device_spec(spec, "cpu:0");
  } catch (const kjit::DeviceError&) {
    return 0;
  }
  if (requests.empty()) {
    std::abort();  // a spec that parses asks for something
  }
  std::string printed;
  for (const auto& r : requests) {
    printed += (printed.empty() ? "" : ",") + r.to_string();
  }
  if (kjit::detail::parse_device_spec(printed, "cpu:0") != requests) {
    std::abort();
  }
  return 0;
}
