// detail::RawBuffer: the untyped allocation behind DeviceBuffer<T>.
#include "core/device_impl.hpp"
#include "core/graph_recording.hpp"
#include "support/logging.hpp"

#include <kjit/error.hpp>
#include <kjit/memory.hpp>

#include <fmt/format.h>

#include <exception>

namespace kjit::detail {

namespace {

/// Waits for the device's enqueued work, which may still use memory about to be freed. A failure
/// of that work stays with the stream that hit it: here it is only reported, and the memory freed.
void wait_before_freeing(DeviceImpl& device, const char* what) noexcept {
  try {
    device.synchronize();
  } catch (const std::exception& e) {
    log().warn("freeing {} of {}: pending work failed: {}", what, device.describe(), e.what());
  }
}

}  // namespace

std::size_t checked_bytes(std::size_t count, std::size_t elem_size, const char* what) {
  std::size_t bytes = 0;
  if (__builtin_mul_overflow(count, elem_size, &bytes)) {
    throw UsageError(fmt::format("kjit: {} of {} elements of {} bytes: the size overflows", what,
                                 count, elem_size));
  }
  return bytes;
}

void require_valid_buffer(const RawBuffer& buffer, const char* what) {
  if (!buffer.valid()) {
    throw UsageError(
        fmt::format("kjit: {} on an empty DeviceBuffer (default-constructed or moved-from)", what));
  }
}

RawBuffer::RawBuffer(const Device& device, std::size_t bytes)
    : device_(device.impl()), address_(device_->backend().allocate(bytes)), bytes_(bytes) {
  device_->note_allocated(address_, bytes_);
}

RawBuffer::RawBuffer(const Device& device, std::size_t bytes, Managed /*kind*/)
    : device_(device.impl()), address_(device_->backend().allocate_managed(bytes)), bytes_(bytes) {
  device_->note_allocated(address_, bytes_);
}

RawBuffer::RawBuffer(RawBuffer&& other) noexcept
    : device_(std::move(other.device_)),
      address_(std::exchange(other.address_, 0)),
      bytes_(std::exchange(other.bytes_, 0)) {}

RawBuffer& RawBuffer::operator=(RawBuffer&& other) noexcept {
  if (this != &other) {
    release();
    device_ = std::move(other.device_);
    address_ = std::exchange(other.address_, 0);
    bytes_ = std::exchange(other.bytes_, 0);
  }
  return *this;
}

RawBuffer::~RawBuffer() {
  release();
}

void RawBuffer::release() noexcept {
  if (!device_ || address_ == 0) {
    device_.reset();
    return;
  }
  wait_before_freeing(*device_, "device memory");
  device_->note_freed(address_);
  device_->backend().free(address_);
  device_.reset();
  address_ = 0;
  bytes_ = 0;
}

namespace {

void check_range(const RawBuffer& buffer, std::size_t offset, std::size_t bytes, const char* what) {
  if (offset > buffer.bytes() || bytes > buffer.bytes() - offset) {
    throw UsageError(
        fmt::format("kjit: {} of {} bytes at offset {} is outside a buffer of {} bytes", what,
                    bytes, offset, buffer.bytes()));
  }
}

StreamImpl& stream_impl_of(DeviceImpl& device, const Stream* stream) {
  StreamImpl* s = device.stream_impl(stream);
  if (s == nullptr) {
    throw UsageError(fmt::format("kjit: a buffer of {} cannot be copied on a stream of {}",
                                 device.describe(), stream->impl()->device().describe()));
  }
  return *s;
}

backend::Stream& stream_of(DeviceImpl& device, const Stream* stream) {
  return stream_impl_of(device, stream).backend();
}

/// One copy between the host and a buffer (or, with `source`, between two buffers), checked:
/// ordered on `stream`, or without one, synchronous after the device's earlier work (`now` then
/// does the copy). A recording stream records a copy between buffers and refuses the others.
template <class Ordered, class Now>
void transfer(const RawBuffer& buffer, std::size_t offset, std::size_t bytes, const Stream* stream,
              const char* what, Ordered ordered, Now now, const RawBuffer* source = nullptr) {
  require_valid_buffer(buffer, what);
  check_range(buffer, offset, bytes, what);
  if (bytes == 0) {
    return;
  }
  DeviceImpl& device = *buffer.device_impl();
  StreamImpl& impl = stream_impl_of(device, stream);
  backend::Stream& s = impl.backend();
  if (Recording* recording = impl.recording()) {
    if (source == nullptr) {
      impl.refuse_while_recording(what);
    }
    if (stream == nullptr) {
      impl.refuse_while_recording("a synchronous copy");
    }
    ordered(s, buffer.address() + offset);
    recording->note_copy(impl, buffer, *source);
    return;
  }
  if (stream != nullptr) {
    ordered(s, buffer.address() + offset);
    return;
  }
  device.synchronize();
  now(s, buffer.address() + offset);
}

}  // namespace

void RawBuffer::write(std::size_t offset, const void* src, std::size_t bytes,
                      const Stream* stream) {
  transfer(
      *this, offset, bytes, stream, "upload",
      [&](backend::Stream& s, std::uint64_t at) { s.copy_to_device(at, src, bytes); },
      [&](backend::Stream& s, std::uint64_t at) { s.copy_to_device_now(at, src, bytes); });
}

void RawBuffer::read(std::size_t offset, void* dst, std::size_t bytes, const Stream* stream) const {
  transfer(
      *this, offset, bytes, stream, "download",
      [&](backend::Stream& s, std::uint64_t at) { s.copy_to_host(dst, at, bytes); },
      [&](backend::Stream& s, std::uint64_t at) { s.copy_to_host_now(dst, at, bytes); });
}

void RawBuffer::copy_from(std::size_t offset, const RawBuffer& src, std::size_t src_offset,
                          std::size_t bytes, const Stream* stream) {
  const char* what = "device-to-device copy";
  require_valid_buffer(*this, what);
  require_valid_buffer(src, what);
  check_range(src, src_offset, bytes, what);
  if (src.device_impl() != device_.get()) {
    throw UsageError(
        fmt::format("kjit: a buffer of {} cannot be copied on the device into one of "
                    "{}; download and upload it",
                    src.device_impl()->describe(), device_->describe()));
  }
  const std::uint64_t from = src.address() + src_offset;
  transfer(
      *this, offset, bytes, stream, what,
      [&](backend::Stream& s, std::uint64_t at) { s.copy_on_device(at, from, bytes); },
      [&](backend::Stream& s, std::uint64_t at) {
        s.copy_on_device(at, from, bytes);
        s.synchronize();
      },
      &src);
}

RawHostBuffer::RawHostBuffer(const Device& device, std::size_t bytes)
    : device_(device.impl()), data_(device_->backend().allocate_host(bytes)), bytes_(bytes) {}

RawHostBuffer::RawHostBuffer(RawHostBuffer&& other) noexcept
    : device_(std::move(other.device_)),
      data_(std::exchange(other.data_, nullptr)),
      bytes_(std::exchange(other.bytes_, 0)) {}

RawHostBuffer& RawHostBuffer::operator=(RawHostBuffer&& other) noexcept {
  if (this != &other) {
    release();
    device_ = std::move(other.device_);
    data_ = std::exchange(other.data_, nullptr);
    bytes_ = std::exchange(other.bytes_, 0);
  }
  return *this;
}

RawHostBuffer::~RawHostBuffer() {
  release();
}

void RawHostBuffer::release() noexcept {
  if (device_ && data_ != nullptr) {
    wait_before_freeing(*device_, "host memory");
    device_->backend().free_host(data_);
  }
  device_.reset();
  data_ = nullptr;
  bytes_ = 0;
}

Device RawBuffer::device() const {
  require_valid_buffer(*this, "device()");
  return Device(device_);
}

void* RawBuffer::native_handle() const {
  require_valid_buffer(*this, "native_handle()");
  return reinterpret_cast<void*>(address_);  // NOLINT(performance-no-int-to-ptr)
}

void prefetch_managed(const RawBuffer& buffer, ManagedPlace to, const Stream* stream) {
  require_valid_buffer(buffer, "prefetch()");
  DeviceImpl& device = *buffer.device_impl();
  backend::Stream& s = stream_of(device, stream);
  if (buffer.bytes() == 0) {
    return;
  }
  device.backend().prefetch_managed(buffer.address(), buffer.bytes(), to, s);
}

void advise_managed(const RawBuffer& buffer, ManagedAdvice advice) {
  require_valid_buffer(buffer, "advise()");
  if (buffer.bytes() == 0) {
    return;
  }
  buffer.device_impl()->backend().advise_managed(buffer.address(), buffer.bytes(), advice);
}

}  // namespace kjit::detail
