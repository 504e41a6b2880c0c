// Host memory as the CPU backend uses it: a device address is a host pointer, and its
// allocations (buffers, shared memory, argument blocks) are aligned to a cache line.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdlib>

namespace kjit::cpu {

inline constexpr std::size_t kCacheLine = 64;

inline void* host_pointer(std::uint64_t address) {
  return reinterpret_cast<void*>(address);  // NOLINT(performance-no-int-to-ptr)
}

inline std::uint64_t device_address(const void* pointer) {
  return reinterpret_cast<std::uint64_t>(pointer);
}

/// n rounded up to a multiple of `align`, a power of two.
constexpr std::size_t align_up(std::size_t n, std::size_t align) {
  return (n + align - 1) & ~(align - 1);
}

/// `bytes` (at least 1, rounded up to whole cache lines) on a cache-line boundary, to be freed
/// with std::free; nullptr when there is no such memory or the size overflows.
inline void* allocate_aligned(std::size_t bytes) {
  if (bytes > SIZE_MAX - kCacheLine) {
    return nullptr;
  }
  return std::aligned_alloc(kCacheLine, align_up(bytes == 0 ? 1 : bytes, kCacheLine));
}

}  // namespace kjit::cpu
