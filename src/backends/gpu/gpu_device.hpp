// What a GPU device of any vendor V (gpu_vendor.hpp) does the same way: memory, pinned host and
// managed memory, streams, waiting for its work, its bitcode compiler (made on first use), and
// the names of the kernels it launched, for messages. The vendor's device (CudaDevice,
// HipDevice) derives from GpuDevice<V> and adds the rest: making itself current, its source
// compiler, loading binaries. Instantiated in the vendor's <vendor>_device.cpp.
#pragma once

#include "backends/gpu/gpu_errors.hpp"
#include "backends/kit/backend.hpp"
#include "backends/kit/launch_labels.hpp"
#include "backends/kit/lazy_compiler.hpp"
#include "support/logging.hpp"

#include <kjit/error.hpp>
#include <kjit/types.hpp>

#include <fmt/format.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>

namespace kjit::gpu {

template <class V>
class GpuDevice : public backend::Device {
 public:
  using Api = typename V::Api;

  /// `device` as the vendor's calls name it; `bitcode_compiler` makes the device's LLVM code
  /// generator, on first use.
  GpuDevice(const Api& api, typename V::DeviceHandle device, DeviceInfo info,
            backend::LazyCompiler::Factory bitcode_compiler)
      : api_(api),
        device_(device),
        info_(std::move(info)),
        id_(info_.id()),
        bitcode_compiler_(std::move(bitcode_compiler)) {}

  [[nodiscard]] const DeviceInfo& info() const override { return info_; }
  backend::Compiler& bitcode_compiler() override { return bitcode_compiler_; }
  std::unique_ptr<backend::Stream> create_stream() override;
  void* native_handle() override;  // the vendor's device (its ordinal), carried in a pointer
  void synchronize() override;
  void prefetch_managed(std::uint64_t address, std::size_t bytes, ManagedPlace to,
                        backend::Stream& stream) override;
  void advise_managed(std::uint64_t address, std::size_t bytes, ManagedAdvice advice) override;

  [[nodiscard]] const Api& api() const noexcept { return api_; }
  /// The device as the vendor's calls name it.
  [[nodiscard]] typename V::DeviceHandle handle() const noexcept { return device_; }
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
  std::uint64_t allocate_managed_impl(std::size_t bytes) override;

 private:
  typename V::Device& vendor_device() { return static_cast<typename V::Device&>(*this); }
  /// The vendor device's make_current() (not virtual: the launch path calls it too).
  void make_current() { vendor_device().make_current(); }

  const Api& api_;
  typename V::DeviceHandle device_;
  DeviceInfo info_;
  std::string id_;
  backend::LazyCompiler bitcode_compiler_;
  backend::KernelLabels labels_;
  backend::LastLaunch last_launch_;
};

template <class V>
std::unique_ptr<backend::Stream> GpuDevice<V>::create_stream() {
  return std::make_unique<typename V::DeviceStream>(vendor_device());
}

template <class V>
void* GpuDevice<V>::native_handle() {
  const auto ordinal = static_cast<std::intptr_t>(device_);
  return reinterpret_cast<void*>(ordinal);  // NOLINT(performance-no-int-to-ptr)
}

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

/// What `advice` asks of the vendor's advise call: which advice, and about which place.
template <class V>
std::pair<typename V::Advice, ManagedPlace> managed_advice(ManagedAdvice advice) {
  switch (advice) {
    case ManagedAdvice::read_mostly:
      return {V::kSetReadMostly, ManagedPlace::device};
    case ManagedAdvice::not_read_mostly:
      return {V::kUnsetReadMostly, ManagedPlace::device};
    case ManagedAdvice::prefer_device:
      return {V::kSetPreferredLocation, ManagedPlace::device};
    case ManagedAdvice::prefer_host:
      return {V::kSetPreferredLocation, ManagedPlace::host};
    case ManagedAdvice::no_preference:
      return {V::kUnsetPreferredLocation, ManagedPlace::device};
    case ManagedAdvice::accessed_by_device:
      return {V::kSetAccessedBy, ManagedPlace::device};
  }
  throw UsageError("kjit: an unknown ManagedAdvice");
}

template <class V>
std::uint64_t GpuDevice<V>::allocate_managed_impl(std::size_t bytes) {
  make_current();
  typename V::DevicePointer address{};
  V::check(api_, V::managed_allocate.required(api_, id_)(&address, bytes, V::kAttachGlobal),
           V::managed_allocate.name, fmt::format("{}, {} bytes", id_, bytes));
  return V::address(address);
}

template <class V>
void GpuDevice<V>::prefetch_managed(std::uint64_t address, std::size_t bytes, ManagedPlace to,
                                    backend::Stream& stream) {
  make_current();
  V::check(api_,
           V::prefetch(V::managed_prefetch.required(api_, id_), V::device_pointer(address), bytes,
                       V::location(device_, to),
                       static_cast<typename V::Stream>(stream.native_handle())),
           V::managed_prefetch.name, fmt::format("{}, {} bytes", id_, bytes));
}

template <class V>
void GpuDevice<V>::advise_managed(std::uint64_t address, std::size_t bytes, ManagedAdvice advice) {
  make_current();
  const auto [what, place] = managed_advice<V>(advice);
  V::check(api_,
           V::managed_advise.required(api_, id_)(V::device_pointer(address), bytes, what,
                                                 V::location(device_, place)),
           V::managed_advise.name, fmt::format("{}, {} bytes", id_, bytes));
}

}  // namespace kjit::gpu
