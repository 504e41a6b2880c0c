// What the examples print about where they ran: the device, and whether their kernels were
// compiled or loaded from kjit's disk cache (and in how long).
#pragma once

#include <kjit/kjit.hpp>

#include <chrono>
#include <cstdio>
#include <string>

namespace examples {

/// The device `spec` names (KJIT_DEVICE's syntax), or KJIT_DEVICE's when it is empty; prints it.
inline kjit::Device select_device(const std::string& spec) {
  const kjit::Device device = spec.empty() ? kjit::Device::select() : kjit::Device::select(spec);
  const kjit::DeviceInfo& info = device.info();
  std::printf("device:   %s, %s (%s, %u compute units)\n", info.id().c_str(), info.name.c_str(),
              info.arch.c_str(), info.compute_units);
  return device;
}

/// The help of every example's --device option.
inline constexpr const char* kDeviceHelp = "cpu, cuda, hip, cuda:1 ... (default: KJIT_DEVICE)";

inline void print_builds() {
  const kjit::CacheStats s = kjit::cache_stats();
  std::printf("kernels:  %llu compiled (%.0f ms), %llu loaded from the cache (%.1f ms)\n",
              static_cast<unsigned long long>(s.compiles), s.compile_ms,
              static_cast<unsigned long long>(s.hits), s.load_ms);
}

inline double ms_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
      .count();
}

}  // namespace examples
