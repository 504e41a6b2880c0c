// What a GPU backend's enumerate() found, for open() to use: each device as the vendor describes
// it (a struct with a DeviceInfo `info`: CUDA's keeps its CUdevice and arch, HIP's its AMDGPU
// target), or why there are none; and the part of a device's DeviceInfo that every vendor fills
// the same way.
#pragma once

#include <kjit/error.hpp>
#include <kjit/types.hpp>

#include <fmt/format.h>

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

namespace kjit::gpu {

/// The DeviceInfo of device `ordinal` of vendor V (gpu_vendor.hpp): its name and memory, and the
/// limits `attribute(a)` reads, for a of V::kComputeUnits, kMaxThreadsPerBlock, kMaxBlock and
/// kMaxGrid, in that order. The vendor adds the arch and the shared memory per block.
template <class V, class Attribute>
DeviceInfo device_info(int ordinal, std::string name, std::size_t memory, Attribute attribute) {
  DeviceInfo info;
  info.backend = V::kBackend;
  info.ordinal = ordinal;
  info.name = std::move(name);
  info.total_memory = memory;
  info.compute_units = attribute(V::kComputeUnits);
  info.max_threads_per_block = attribute(V::kMaxThreadsPerBlock);
  info.max_block = {attribute(V::kMaxBlock[0]), attribute(V::kMaxBlock[1]),
                    attribute(V::kMaxBlock[2])};
  info.max_grid = {attribute(V::kMaxGrid[0]), attribute(V::kMaxGrid[1]), attribute(V::kMaxGrid[2])};
  return info;
}

template <class Found>
class Enumeration {
 public:
  /// Forgets the devices of the last enumeration (at the start of a new one).
  void clear() { found_.clear(); }
  /// Why there are no devices; the vendor's checks write it.
  std::string& reason() noexcept { return reason_; }
  [[nodiscard]] const std::string& reason() const noexcept { return reason_; }

  /// Devices 0 to count - 1, as `describe(ordinal)` finds them. A failure (Error) to describe
  /// one leaves none, its message the reason; `none` is the reason when there are none.
  template <class Describe>
  std::vector<DeviceInfo> describe_devices(int count, Describe describe, const char* none) {
    std::vector<DeviceInfo> infos;
    try {
      for (int i = 0; i < count; ++i) {
        found_.push_back(describe(i));
        infos.push_back(found_.back().info);
      }
    } catch (const Error& e) {
      reason_ = e.what();
      found_.clear();
      return {};
    }
    if (infos.empty()) {
      reason_ = none;
    }
    return infos;
  }

  /// Device `ordinal` of the last enumeration; DeviceError ("kjit: there is no cuda:3 (...)")
  /// when there is none, or the library could not be used (`usable` false).
  const Found& at(int ordinal, bool usable, const char* backend) const {
    if (!usable || ordinal < 0 || static_cast<std::size_t>(ordinal) >= found_.size()) {
      throw DeviceError(fmt::format("kjit: there is no {}:{} ({})", backend, ordinal,
                                    reason_.empty() ? "no such ordinal" : reason_));
    }
    return found_[static_cast<std::size_t>(ordinal)];
  }

 private:
  std::vector<Found> found_;
  std::string reason_;
};

}  // namespace kjit::gpu
