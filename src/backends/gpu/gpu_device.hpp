// What a GPU device of any vendor V (gpu_vendor.hpp) does the same way: memory, pinned host
// memory, waiting for its work, and the names of the kernels it launched, for messages. The
// vendor's device (CudaDevice, HipDevice) derives from GpuDevice<V> and adds the rest: making
// itself current, compilers, loading binaries, managed memory, streams. Instantiated in the
// vendor's <vendor>_device.cpp.
#pragma once

#include "backends/gpu/gpu_errors.hpp"
#include "backends/kit/backend.hpp"
#include "backends/kit/launch_labels.hpp"
#include "support/logging.hpp"

#include <kjit/types.hpp>

#include <fmt/format.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>

namespace kjit::gpu {

template <class V>
class GpuDevice : public backend::Device {
 public:
  using Api = typename V::Api;

  GpuDevice(const Api& api, DeviceInfo info) : api_(api), info_(std::move(info)), id_(info_.id()) {}

  [[nodiscard]] const DeviceInfo& info() const override { return info_; }
  void synchronize() override;

  [[nodiscard]] const Api& api() const noexcept { return api_; }
  [[nodiscard]] const std::string& id() const noexcept { return id_; }
  /// A stable copy of `label` (a kernel's name) that lives as long as the device, so that the
  /// launch path can record the last kernel launched with one atomic store.
  const std::string* intern(const std::string& label) { return labels_.intern(label); }
  /// The last kernel launched on this device, for messages about asynchronous failures.
  void note_launch(const std::string* kernel) noexcept { last_launch_.note(kernel); }
  [[nodiscard]] std::string last_launch() const { return last_launch_.describe(); }

 protected:
  std::uint64_t allocate_impl(std::size_t bytes) override;
  void free_impl(std::uint64_t address) noexcept override;
  void* allocate_host_impl(std::size_t bytes) override;
  void free_host_impl(void* pointer) noexcept override;

 private:
  /// The vendor device's make_current() (not virtual: the launch path calls it too).
  void make_current() { static_cast<typename V::Device&>(*this).make_current(); }

  const Api& api_;
  DeviceInfo info_;
  std::string id_;
  backend::KernelLabels labels_;
  backend::LastLaunch last_launch_;
};

template <class V>
void GpuDevice<V>::synchronize() {
  make_current();
  const auto r = V::device_synchronize(api_)();
  if (r != V::kSuccess) {
    throw_device_failed(id_, V::describe(api_, r), last_launch());
  }
}

template <class V>
std::uint64_t GpuDevice<V>::allocate_impl(std::size_t bytes) {
  make_current();
  typename V::DevicePointer address{};
  V::check(api_, V::memory_allocate(api_)(&address, bytes), V::memory_allocate.name,
           fmt::format("{}, {} bytes", id_, bytes));
  return V::address(address);
}

template <class V>
void GpuDevice<V>::free_impl(std::uint64_t address) noexcept {
  try {
    make_current();
    const auto r = V::memory_free(api_)(V::device_pointer(address));
    if (r != V::kSuccess) {
      detail::log().warn("{} on {}: {}", V::memory_free.name, id_, V::describe(api_, r));
    }
  } catch (const std::exception& e) {
    detail::log().warn("freeing memory on {}: {}", id_, e.what());
  }
}

template <class V>
void* GpuDevice<V>::allocate_host_impl(std::size_t bytes) {
  make_current();
  void* pointer = nullptr;
  V::check(api_, V::host_allocate(api_)(&pointer, bytes, V::kHostAllocPortable),
           V::host_allocate.name, fmt::format("{}, {} bytes of pinned host memory", id_, bytes));
  return pointer;
}

template <class V>
void GpuDevice<V>::free_host_impl(void* pointer) noexcept {
  const auto r = V::host_free(api_)(pointer);
  if (r != V::kSuccess) {
    detail::log().warn("{} on {}: {}", V::host_free.name, id_, V::describe(api_, r));
  }
}

}  // namespace kjit::gpu
