// On the CPU a device address is a host pointer: the one place that turns one into the other.
#pragma once

#include <cstdint>

namespace kjit::cpu {

inline void* host_pointer(std::uint64_t address) {
  return reinterpret_cast<void*>(address);  // NOLINT(performance-no-int-to-ptr)
}

inline std::uint64_t device_address(const void* pointer) {
  return reinterpret_cast<std::uint64_t>(pointer);
}

}  // namespace kjit::cpu
