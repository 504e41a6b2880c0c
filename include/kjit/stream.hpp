// kjit::Stream and kjit::Event: ordering of asynchronous work on a device.
#pragma once

#include <kjit/export.hpp>

#include <memory>

namespace kjit {

namespace detail {
class StreamImpl;
class EventImpl;
}  // namespace detail
class Device;

/// A point in a stream's work; completes when everything enqueued before it has finished.
class KJIT_API Event {
 public:
  Event() noexcept = default;

  /// Waits until the event has completed.
  void synchronize() const;
  /// True once the event has completed; never blocks.
  [[nodiscard]] bool ready() const;
  /// Milliseconds between two completed events of the same device.
  [[nodiscard]] static double elapsed_ms(const Event& start, const Event& end);

  explicit Event(std::shared_ptr<detail::EventImpl> impl) noexcept : impl_(std::move(impl)) {}
  [[nodiscard]] const std::shared_ptr<detail::EventImpl>& impl() const;

 private:
  std::shared_ptr<detail::EventImpl> impl_;
};

/// An in-order queue of work on one device. Cheap to copy (copies name the same stream);
/// destroying the last handle waits for the stream's work.
class KJIT_API Stream {
 public:
  Stream() noexcept = default;

  /// Waits for all work enqueued so far; rethrows the first error asynchronous work hit, naming
  /// the kernel.
  void synchronize() const;
  /// Enqueues an event and returns it. On a stream that records a graph, the event marks a point
  /// of the recording instead, for streams to wait for during it (Graph::record).
  [[nodiscard]] Event record() const;
  /// Makes later work on this stream wait until `event` has completed (event may belong to
  /// another stream of the same device). Waiting for a point of a graph recording makes this
  /// stream join the recording (Graph::record).
  void wait(const Event& event) const;
  [[nodiscard]] Device device() const;
  /// CUstream / hipStream_t for interop with vendor libraries; nullptr for the CPU.
  [[nodiscard]] void* native_handle() const;

  [[nodiscard]] explicit operator bool() const noexcept { return impl_ != nullptr; }
  friend bool operator==(const Stream& a, const Stream& b) noexcept { return a.impl_ == b.impl_; }

  explicit Stream(std::shared_ptr<detail::StreamImpl> impl) noexcept : impl_(std::move(impl)) {}
  [[nodiscard]] const std::shared_ptr<detail::StreamImpl>& impl() const;

 private:
  std::shared_ptr<detail::StreamImpl> impl_;
};

}  // namespace kjit
