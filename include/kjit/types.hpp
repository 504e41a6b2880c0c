// Plain value types of the API: launch geometry and device descriptions.
#pragma once

#include <kjit/export.hpp>

#include <cstddef>
#include <cstdint>
#include <string>

namespace kjit {

/// A 3-D extent, as CUDA's dim3: Dim3{n} is {n, 1, 1}.
struct Dim3 {
  std::uint32_t x = 1;
  std::uint32_t y = 1;
  std::uint32_t z = 1;

  [[nodiscard]] constexpr std::uint64_t volume() const noexcept { return std::uint64_t{x} * y * z; }
  friend constexpr bool operator==(const Dim3&, const Dim3&) = default;
};

/// Grid, block and dynamic shared memory of one launch. An aggregate, so
/// LaunchConfig{.grid = {7, 7, 1}, .block = {16, 16, 1}, .shared_bytes = 0} works.
struct LaunchConfig {
  Dim3 grid{};
  Dim3 block{};
  std::size_t shared_bytes = 0;  // dynamic (extern __shared__) memory per block

  /// A 1-D launch with enough blocks of `block` threads to cover n elements.
  /// Throws UsageError when n is 0 or needs more blocks than a grid dimension holds.
  [[nodiscard]] KJIT_API static LaunchConfig for_elements(std::size_t n, std::uint32_t block = 256);
};

enum class BackendKind { cpu, cuda, hip };

/// Where ManagedBuffer::prefetch moves managed memory.
enum class ManagedPlace { device, host };
/// How managed memory will be used (ManagedBuffer::advise), as CUDA's and HIP's hints say it.
enum class ManagedAdvice {
  read_mostly,         // read by both sides, rarely written: each may keep a copy
  not_read_mostly,     // undoes read_mostly
  prefer_device,       // keep it on the device where possible
  prefer_host,         // keep it in host memory where possible
  no_preference,       // undoes prefer_device and prefer_host
  accessed_by_device,  // map it for the device wherever it lives, to avoid faults
};

/// "cpu", "cuda" or "hip": the spelling KJIT_DEVICE uses.
[[nodiscard]] KJIT_API const char* to_string(BackendKind kind) noexcept;

/// What a device is and what it allows.
struct DeviceInfo {
  BackendKind backend = BackendKind::cpu;
  int ordinal = 0;
  std::string name;                 // "NVIDIA H100 80GB HBM3", "AMD EPYC 7B13 (2 threads)"
  std::string arch;                 // "sm_90", "gfx90a", host CPU name such as "znver3"
  std::size_t total_memory = 0;     // bytes
  std::uint32_t compute_units = 0;  // SMs, CUs, or CPU worker threads
  std::uint32_t max_threads_per_block = 0;
  Dim3 max_block;                    // per-dimension block limits
  Dim3 max_grid;                     // per-dimension grid limits
  std::size_t max_shared_bytes = 0;  // static + dynamic shared memory per block

  /// "cuda:0", the text that selects this device in KJIT_DEVICE.
  [[nodiscard]] KJIT_API std::string id() const;
};

}  // namespace kjit
