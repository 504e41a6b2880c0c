// Typed device memory: DeviceBuffer<T> owns an allocation, DevicePtr<T> borrows one.
#pragma once

#include <kjit/device.hpp>
#include <kjit/device_copyable.hpp>
#include <kjit/error.hpp>
#include <kjit/export.hpp>
#include <kjit/stream.hpp>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace kjit {

namespace detail {

/// count * elem_size, or UsageError naming `what` when the product overflows.
[[nodiscard]] KJIT_API std::size_t checked_bytes(std::size_t count, std::size_t elem_size,
                                                 const char* what);

/// An untyped owning allocation; DeviceBuffer<T> is a typed view of one.
class KJIT_API RawBuffer {
 public:
  RawBuffer() noexcept = default;
  RawBuffer(const Device& device, std::size_t bytes);
  /// Managed memory (Device::alloc_managed), which the host addresses too.
  struct Managed {};
  RawBuffer(const Device& device, std::size_t bytes, Managed /*kind*/);
  RawBuffer(RawBuffer&& other) noexcept;
  RawBuffer& operator=(RawBuffer&& other) noexcept;
  RawBuffer(const RawBuffer&) = delete;
  RawBuffer& operator=(const RawBuffer&) = delete;
  /// Waits for the device's work before freeing, so a kernel never sees freed memory.
  ~RawBuffer();

  /// Copies host bytes in at `offset`. Without a stream the copy is synchronous and first waits
  /// for the device; with one it is ordered on that stream and `src` must stay valid until then.
  void write(std::size_t offset, const void* src, std::size_t bytes, const Stream* stream);
  /// Copies bytes out to the host, with the same rules as write().
  void read(std::size_t offset, void* dst, std::size_t bytes, const Stream* stream) const;
  /// Copies `bytes` from `src` (at src_offset) to this buffer (at offset); both on one device.
  /// Same rules as write() for the stream.
  void copy_from(std::size_t offset, const RawBuffer& src, std::size_t src_offset,
                 std::size_t bytes, const Stream* stream);

  [[nodiscard]] std::uint64_t address() const noexcept { return address_; }
  [[nodiscard]] std::size_t bytes() const noexcept { return bytes_; }
  /// False for a default-constructed or moved-from buffer.
  [[nodiscard]] bool valid() const noexcept { return device_ != nullptr; }
  [[nodiscard]] DeviceImpl* device_impl() const noexcept { return device_.get(); }
  [[nodiscard]] Device device() const;
  [[nodiscard]] void* native_handle() const;

 private:
  void release() noexcept;
  std::shared_ptr<DeviceImpl> device_;
  std::uint64_t address_ = 0;
  std::size_t bytes_ = 0;
};

/// Untyped host memory that a device copies at full speed; HostBuffer<T> is a typed view of one.
class KJIT_API RawHostBuffer {
 public:
  RawHostBuffer() noexcept = default;
  RawHostBuffer(const Device& device, std::size_t bytes);
  RawHostBuffer(RawHostBuffer&& other) noexcept;
  RawHostBuffer& operator=(RawHostBuffer&& other) noexcept;
  RawHostBuffer(const RawHostBuffer&) = delete;
  RawHostBuffer& operator=(const RawHostBuffer&) = delete;
  /// Waits for the device's work first: a stream copy may still read or write this memory.
  ~RawHostBuffer();

  [[nodiscard]] void* data() const noexcept { return data_; }
  [[nodiscard]] std::size_t bytes() const noexcept { return bytes_; }

 private:
  void release() noexcept;
  std::shared_ptr<DeviceImpl> device_;
  void* data_ = nullptr;
  std::size_t bytes_ = 0;
};

/// Throws UsageError for a moved-from or default-constructed buffer used as `what`.
KJIT_API void require_valid_buffer(const RawBuffer& buffer, const char* what);

/// ManagedBuffer's hints: the memory of `buffer` moved toward `to` on `stream` (the device's
/// default stream when null), or advised.
KJIT_API void prefetch_managed(const RawBuffer& buffer, ManagedPlace to, const Stream* stream);
KJIT_API void advise_managed(const RawBuffer& buffer, ManagedAdvice advice);

}  // namespace detail

/// A borrowed, typed device address: what a kernel's T* parameter receives. T may be const.
/// It does not keep the memory alive; its DeviceBuffer must outlive every use.
template <class T>
class DevicePtr {
  static_assert(DeviceCopyable<std::remove_const_t<T>>,
                "kjit: DevicePtr<T> needs a trivially copyable object type T");

 public:
  using element_type = T;

  constexpr DevicePtr() noexcept = default;
  constexpr DevicePtr(std::nullptr_t) noexcept {}  // NOLINT(google-explicit-constructor)

  /// Adopts memory that another library allocated on `device` (count elements from address).
  [[nodiscard]] static DevicePtr from_address(const Device& device, std::uint64_t address,
                                              std::size_t count) {
    DevicePtr p;
    p.device_ = device.impl().get();
    p.address_ = address;
    p.count_ = count;
    return p;
  }

  [[nodiscard]] std::uint64_t address() const noexcept { return address_; }
  /// Elements from this address to the end of the memory it points into.
  [[nodiscard]] std::size_t size() const noexcept { return count_; }
  [[nodiscard]] detail::DeviceImpl* device_impl() const noexcept { return device_; }
  [[nodiscard]] explicit operator bool() const noexcept { return address_ != 0; }

  /// A pointer n elements further on; UsageError past the end.
  [[nodiscard]] DevicePtr operator+(std::size_t n) const {
    if (n > count_) {
      throw UsageError("kjit: DevicePtr offset past the end of its memory");
    }
    DevicePtr p = *this;
    p.address_ += n * sizeof(T);
    p.count_ -= n;
    return p;
  }

  // NOLINTNEXTLINE(google-explicit-constructor): T* converts to const T* as in C++.
  operator DevicePtr<const T>() const noexcept requires(!std::is_const_v<T>) {
    return DevicePtr<const T>::from_parts(device_, address_, count_);
  }

  // For kjit's own templates.
  [[nodiscard]] static DevicePtr from_parts(detail::DeviceImpl* device, std::uint64_t address,
                                            std::size_t count) noexcept {
    DevicePtr p;
    p.device_ = device;
    p.address_ = address;
    p.count_ = count;
    return p;
  }

 private:
  detail::DeviceImpl* device_ = nullptr;  // devices live until the process ends
  std::uint64_t address_ = 0;
  std::size_t count_ = 0;
};

/// count elements of T in one device's memory, owned: freed when the buffer is destroyed (after
/// the device's work that may use it). Movable, not copyable.
template <DeviceCopyable T>
class DeviceBuffer {
 public:
  using value_type = T;

  DeviceBuffer() noexcept = default;
  DeviceBuffer(const Device& device, std::size_t count)
      : raw_(device, detail::checked_bytes(count, sizeof(T), "DeviceBuffer")), count_(count) {}

  DeviceBuffer(DeviceBuffer&& other) noexcept
      : raw_(std::move(other.raw_)), count_(std::exchange(other.count_, 0)) {}
  DeviceBuffer& operator=(DeviceBuffer&& other) noexcept {
    raw_ = std::move(other.raw_);
    count_ = std::exchange(other.count_, 0);
    return *this;
  }

  [[nodiscard]] std::size_t size() const noexcept { return count_; }
  [[nodiscard]] std::size_t bytes() const noexcept { return count_ * sizeof(T); }
  [[nodiscard]] bool empty() const noexcept { return count_ == 0; }
  [[nodiscard]] Device device() const { return raw_.device(); }
  [[nodiscard]] void* native_handle() const { return raw_.native_handle(); }

  [[nodiscard]] DevicePtr<T> ptr() {
    detail::require_valid_buffer(raw_, "ptr()");
    return DevicePtr<T>::from_parts(raw_.device_impl(), raw_.address(), count_);
  }
  [[nodiscard]] DevicePtr<const T> ptr() const {
    detail::require_valid_buffer(raw_, "ptr()");
    return DevicePtr<const T>::from_parts(raw_.device_impl(), raw_.address(), count_);
  }

  /// The whole buffer as a host vector; waits for the device's work first. (A vector<bool> packs
  /// its bits: it is filled from the buffer's one-byte bools.)
  [[nodiscard]] std::vector<T> download() const {
    if constexpr (std::is_same_v<T, bool>) {
      static_assert(sizeof(bool) == 1, "kjit: a bool is one byte on every device kjit knows");
      std::vector<unsigned char> held(count_);
      raw_.read(0, held.data(), bytes(), nullptr);
      return std::vector<bool>(held.begin(), held.end());
    } else {
      std::vector<T> out(count_);
      raw_.read(0, out.data(), bytes(), nullptr);
      return out;
    }
  }
  /// Copies the buffer into `out`, which must hold size() elements; waits for the device first.
  void download(std::span<T> out) const {
    raw_.read(0, out.data(), span_bytes(out.size()), nullptr);
  }
  /// Copies the buffer into `out` in stream order; `out` must stay valid until the stream is done.
  void download(std::span<T> out, const Stream& stream) const {
    raw_.read(0, out.data(), span_bytes(out.size()), &stream);
  }
  /// Copies host data into the start of the buffer (at most size() elements); synchronous.
  void upload(std::span<const T> in) { raw_.write(0, in.data(), upload_bytes(in.size()), nullptr); }
  /// A vector<bool> (packed bits) into the start of a buffer of bools; synchronous.
  void upload(const std::vector<bool>& in) requires std::is_same_v<T, bool> {
    const std::vector<unsigned char> held(in.begin(), in.end());
    raw_.write(0, held.data(), upload_bytes(held.size()), nullptr);
  }
  /// As upload(in), ordered on `stream`; `in` must stay valid until the stream is done.
  void upload(std::span<const T> in, const Stream& stream) {
    raw_.write(0, in.data(), upload_bytes(in.size()), &stream);
  }
  /// Copies src, a buffer of the same device with at most size() elements, into the start of
  /// this one, on the device; synchronous (after the device's earlier work).
  void copy_from(const DeviceBuffer& src) {
    raw_.copy_from(0, src.raw_, 0, upload_bytes(src.size()), nullptr);
  }
  /// As copy_from(src), ordered on `stream`.
  void copy_from(const DeviceBuffer& src, const Stream& stream) {
    raw_.copy_from(0, src.raw_, 0, upload_bytes(src.size()), &stream);
  }

  [[nodiscard]] const detail::RawBuffer& raw() const noexcept { return raw_; }

 protected:
  DeviceBuffer(detail::RawBuffer raw, std::size_t count) noexcept
      : raw_(std::move(raw)), count_(count) {}

 private:
  [[nodiscard]] std::size_t span_bytes(std::size_t n) const {
    if (n < count_) {
      throw UsageError("kjit: download into a span of " + std::to_string(n) +
                       " elements from a buffer of " + std::to_string(count_));
    }
    return bytes();
  }
  [[nodiscard]] std::size_t upload_bytes(std::size_t n) const {
    if (n > count_) {
      throw UsageError("kjit: upload of " + std::to_string(n) + " elements into a buffer of " +
                       std::to_string(count_));
    }
    return n * sizeof(T);
  }

  detail::RawBuffer raw_;
  std::size_t count_ = 0;
};

/// count elements of host memory that a device copies to and from at full speed (page-locked on
/// a GPU). A contiguous range: pass it wherever a span is taken. Movable, not copyable; freed
/// when destroyed, after the device's work.
template <DeviceCopyable T>
class HostBuffer {
 public:
  using value_type = T;

  HostBuffer() noexcept = default;
  HostBuffer(const Device& device, std::size_t count)
      : raw_(device, detail::checked_bytes(count, sizeof(T), "HostBuffer")), count_(count) {}
  HostBuffer(HostBuffer&& other) noexcept
      : raw_(std::move(other.raw_)), count_(std::exchange(other.count_, 0)) {}
  HostBuffer& operator=(HostBuffer&& other) noexcept {
    raw_ = std::move(other.raw_);
    count_ = std::exchange(other.count_, 0);
    return *this;
  }

  [[nodiscard]] T* data() noexcept { return static_cast<T*>(raw_.data()); }
  [[nodiscard]] const T* data() const noexcept { return static_cast<const T*>(raw_.data()); }
  [[nodiscard]] std::size_t size() const noexcept { return count_; }
  [[nodiscard]] bool empty() const noexcept { return count_ == 0; }
  [[nodiscard]] T* begin() noexcept { return data(); }
  [[nodiscard]] T* end() noexcept { return data() + count_; }
  [[nodiscard]] const T* begin() const noexcept { return data(); }
  [[nodiscard]] const T* end() const noexcept { return data() + count_; }
  [[nodiscard]] T& operator[](std::size_t i) noexcept { return data()[i]; }
  [[nodiscard]] const T& operator[](std::size_t i) const noexcept { return data()[i]; }

 private:
  detail::RawHostBuffer raw_;
  std::size_t count_ = 0;
};

/// count elements of managed memory (Device::alloc_managed): a DeviceBuffer, passed to kernels
/// and copied as one, whose elements the host reads and writes in place through host(). The host
/// may touch them only while no kernel that uses them runs (after a synchronize()); where the
/// memory lives is the driver's business, which prefetch() and advise() inform.
template <DeviceCopyable T>
class ManagedBuffer : public DeviceBuffer<T> {
 public:
  ManagedBuffer() noexcept = default;
  ManagedBuffer(const Device& device, std::size_t count)
      : DeviceBuffer<T>(
            detail::RawBuffer(device, detail::checked_bytes(count, sizeof(T), "ManagedBuffer"),
                              detail::RawBuffer::Managed{}),
            count) {}

  /// The elements, where the host reads and writes them.
  [[nodiscard]] std::span<T> host() noexcept { return {data(), this->size()}; }
  [[nodiscard]] std::span<const T> host() const noexcept { return {data(), this->size()}; }

  /// Moves the memory to the device (before kernels use it) or to the host (before the host
  /// does), in order on `stream` or on the default stream. Only a hint: nothing where the memory
  /// never moves (the CPU).
  void prefetch(ManagedPlace to) const { detail::prefetch_managed(this->raw(), to, nullptr); }
  void prefetch(ManagedPlace to, const Stream& stream) const {
    detail::prefetch_managed(this->raw(), to, &stream);
  }
  /// Tells the driver how the memory will be used; nothing where there is no such hint.
  void advise(ManagedAdvice advice) const { detail::advise_managed(this->raw(), advice); }

 private:
  [[nodiscard]] T* data() const noexcept {
    // NOLINTNEXTLINE(performance-no-int-to-ptr): managed memory's address is a host pointer too
    return reinterpret_cast<T*>(this->raw().address());
  }
};

template <DeviceCopyable T>
ManagedBuffer<T> Device::alloc_managed(std::size_t count) const {
  return ManagedBuffer<T>(*this, count);
}

template <DeviceCopyable T>
HostBuffer<T> Device::alloc_host(std::size_t count) const {
  return HostBuffer<T>(*this, count);
}

template <DeviceCopyable T>
DeviceBuffer<T> Device::alloc(std::size_t count) const {
  return DeviceBuffer<T>(*this, count);
}

template <std::ranges::contiguous_range R>
requires DeviceCopyable<std::ranges::range_value_t<R>> DeviceBuffer<std::ranges::range_value_t<R>>
Device::upload(const R& host)
const {
  using T = std::ranges::range_value_t<R>;
  const auto n = static_cast<std::size_t>(std::ranges::size(host));
  DeviceBuffer<T> buffer(*this, n);
  buffer.upload(std::span<const T>(std::ranges::data(host), n));
  return buffer;
}

inline DeviceBuffer<bool> Device::upload(const std::vector<bool>& host) const {
  DeviceBuffer<bool> buffer(*this, host.size());
  buffer.upload(host);
  return buffer;
}

}  // namespace kjit
