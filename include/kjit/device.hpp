// kjit::Device: one compute device (a CUDA GPU, an AMD GPU, or the CPU) and its memory.
#pragma once

#include <kjit/device_copyable.hpp>
#include <kjit/export.hpp>
#include <kjit/types.hpp>

#include <cstddef>
#include <memory>
#include <ranges>
#include <string_view>
#include <vector>

namespace kjit {

namespace detail {
class DeviceImpl;
}
template <DeviceCopyable T>
class DeviceBuffer;
template <DeviceCopyable T>
class HostBuffer;
template <DeviceCopyable T>
class ManagedBuffer;
class Stream;

/// A handle to a device; cheap to copy, and equal handles name the same device. Devices live
/// until the process ends. All members are safe to call from several threads.
class KJIT_API Device {
 public:
  Device() noexcept = default;  // an empty handle; use select() or all()

  /// Every usable device: CUDA GPUs, then AMD GPUs, then the CPU.
  [[nodiscard]] static std::vector<Device> all();
  /// The device KJIT_DEVICE names; when it is unset, the first GPU, else the CPU.
  [[nodiscard]] static Device select();
  /// The device `spec` names, in KJIT_DEVICE's syntax: "cpu", "cuda", "cuda:1", "hip:0", or a
  /// preference list "cuda,hip,cpu". Throws DeviceError, listing what exists, when none matches.
  [[nodiscard]] static Device select(std::string_view spec);

  [[nodiscard]] const DeviceInfo& info() const;

  /// count uninitialised elements of device memory.
  template <DeviceCopyable T>
  [[nodiscard]] DeviceBuffer<T> alloc(std::size_t count) const;
  /// A new buffer holding a copy of host data (any contiguous range: vector, array, span).
  template <std::ranges::contiguous_range R>
  requires DeviceCopyable<std::ranges::range_value_t<R>>
  [[nodiscard]] DeviceBuffer<std::ranges::range_value_t<R>> upload(const R& host) const;
  /// A vector<bool> (packed bits) as a buffer of one-byte bools, as a kernel's bool* reads them.
  [[nodiscard]] DeviceBuffer<bool> upload(const std::vector<bool>& host) const;

  /// count uninitialised elements of host memory that this device copies to and from at full
  /// speed: page-locked on a GPU (no staging, truly asynchronous stream copies).
  template <DeviceCopyable T>
  [[nodiscard]] HostBuffer<T> alloc_host(std::size_t count) const;
  /// count uninitialised elements of managed memory: one address that the host (through
  /// ManagedBuffer::host()) and this device's kernels both use. cuMemAllocManaged on CUDA,
  /// hipMallocManaged on HIP, the device's own memory on the CPU. Throws BackendError where the
  /// device has none.
  template <DeviceCopyable T>
  [[nodiscard]] ManagedBuffer<T> alloc_managed(std::size_t count) const;

  /// The stream launches use when none is given.
  [[nodiscard]] Stream default_stream() const;
  /// A new stream: work on different streams may run concurrently.
  [[nodiscard]] Stream create_stream() const;
  /// Waits for all work submitted to this device, on every stream; rethrows the first error
  /// that asynchronous work hit.
  void synchronize() const;
  /// The vendor handle: CUdevice (as intptr) for CUDA, hipDevice_t for HIP, nullptr for the CPU.
  [[nodiscard]] void* native_handle() const;

  [[nodiscard]] explicit operator bool() const noexcept { return impl_ != nullptr; }
  friend bool operator==(const Device& a, const Device& b) noexcept { return a.impl_ == b.impl_; }

  // For kjit's own templates.
  explicit Device(std::shared_ptr<detail::DeviceImpl> impl) noexcept : impl_(std::move(impl)) {}
  [[nodiscard]] const std::shared_ptr<detail::DeviceImpl>& impl() const;

 private:
  std::shared_ptr<detail::DeviceImpl> impl_;
};

}  // namespace kjit

#include <kjit/memory.hpp>  // Device::alloc and Device::upload are defined there
