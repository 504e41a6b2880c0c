// What the examples print about where they ran: the device, and whether their kernels were
// compiled or loaded from kjit's disk cache (and in how long).
#pragma once

#include <kjit/kjit.hpp>

#include <chrono>
#include <cstdio>

namespace examples {

inline void print_device(const kjit::Device& device) {
  const kjit::DeviceInfo& info = device.info();
  std::printf("device:   %s, %s (%s, %u compute units)\n", info.id().c_str(), info.name.c_str(),
              info.arch.c_str(), info.compute_units);
}

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
