// The core's view of one device, its streams and events. A DeviceImpl exists for every device
// the registry enumerated; its backend device (context, compiler, memory) opens on first use.
#pragma once

#include "backends/kit/backend.hpp"

#include <kjit/types.hpp>

#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace kjit {
class Stream;
}

namespace kjit::detail {

class StreamImpl;
class Recording;

/// An allocation of a device, as recorded graphs know it: where it starts, and its number (no
/// two allocations of a device share one, even at the same address).
struct Allocation {
  std::uint64_t base = 0;
  std::uint64_t number = 0;
  friend bool operator==(const Allocation&, const Allocation&) = default;
};

class DeviceImpl : public std::enable_shared_from_this<DeviceImpl> {
 public:
  DeviceImpl(backend::Backend& backend, DeviceInfo info);

  [[nodiscard]] const DeviceInfo& info() const noexcept { return info_; }
  /// The opened backend device; opens it on first use (throws DeviceError if that fails).
  [[nodiscard]] backend::Device& backend();
  [[nodiscard]] const std::shared_ptr<StreamImpl>& default_stream();
  [[nodiscard]] std::shared_ptr<StreamImpl> create_stream();
  /// The backend stream `stream` names, or the default stream's when it is null; nullptr when
  /// `stream` belongs to another device (the caller says what that refuses).
  [[nodiscard]] backend::Stream* stream(const Stream* stream);
  void synchronize();
  /// "cpu:0 (AMD EPYC 7B13, znver3)": how messages name the device.
  [[nodiscard]] std::string describe() const;
  /// Why the opened device can run nothing more (a CPU kernel faulted), or empty; a device not
  /// opened yet is usable (and is not opened by asking).
  [[nodiscard]] std::string unusable_reason() const;
  /// A handle on the same hardware that starts afresh, for a device that became unusable.
  [[nodiscard]] std::shared_ptr<DeviceImpl> renewed() const {
    return std::make_shared<DeviceImpl>(backend_kind_, info_);
  }

  /// The StreamImpl `stream` names (the default stream for null), or nullptr when it belongs to
  /// another device.
  [[nodiscard]] StreamImpl* stream_impl(const Stream* stream);

  /// Live buffers (RawBuffer notes them), so that a recorded graph can tell that one it uses was
  /// freed. 0 is never an allocation.
  void note_allocated(std::uint64_t address, std::size_t bytes);
  void note_freed(std::uint64_t address) noexcept;
  /// The live allocation holding `address`, if any.
  [[nodiscard]] std::optional<Allocation> allocation_of(std::uint64_t address);
  [[nodiscard]] bool is_live(const Allocation& allocation);

  /// Streams of this device that record (Graph::record): synchronize() refuses while any does,
  /// since waiting would end a CUDA capture.
  std::atomic<int> recording_streams{0};

 private:
  void open();
  backend::Backend& backend_kind_;
  DeviceInfo info_;
  std::once_flag opened_;
  std::atomic<bool> is_open_{false};
  std::unique_ptr<backend::Device> device_;
  std::shared_ptr<StreamImpl> default_stream_;
  struct Live {
    std::size_t bytes;
    std::uint64_t number;
  };
  std::mutex allocations_mutex_;
  std::map<std::uint64_t, Live> allocations_;  // by base address
  std::uint64_t next_allocation_ = 1;
};

class StreamImpl {
 public:
  StreamImpl(DeviceImpl& device, std::unique_ptr<backend::Stream> stream)
      : device_(device), stream_(std::move(stream)) {}
  [[nodiscard]] DeviceImpl& device() const noexcept { return device_; }
  [[nodiscard]] backend::Stream& backend() const noexcept { return *stream_; }
  /// The recording in progress on this stream (Graph::record), or null.
  [[nodiscard]] Recording* recording() const noexcept {
    return recording_.load(std::memory_order_acquire);
  }
  void set_recording(Recording* r) noexcept { recording_.store(r, std::memory_order_release); }
  /// UsageError naming `what` when this stream is recording.
  void refuse_while_recording(const char* what) const;

 private:
  DeviceImpl& device_;  // devices live until the process ends
  std::unique_ptr<backend::Stream> stream_;
  std::atomic<Recording*> recording_{nullptr};
};

/// Where an event recorded on a stream of a graph recording stands in it: it marks that point for
/// the recording's streams to wait for, and never completes by itself.
struct RecordedPoint {
  std::weak_ptr<Recording> recording;
  std::vector<std::size_t> follows;  // Recording::point()
};

class EventImpl {
 public:
  EventImpl(DeviceImpl& device, std::unique_ptr<backend::Event> event,
            std::optional<RecordedPoint> point = std::nullopt)
      : device_(device), event_(std::move(event)), point_(std::move(point)) {}
  [[nodiscard]] DeviceImpl& device() const noexcept { return device_; }
  [[nodiscard]] backend::Event& backend() const noexcept { return *event_; }
  /// Set for an event recorded while its stream recorded a graph.
  [[nodiscard]] const std::optional<RecordedPoint>& recorded_point() const noexcept {
    return point_;
  }
  /// UsageError naming `what` ("waiting for an event") for an event recorded in a graph.
  void refuse_if_recorded(const char* what) const;

 private:
  DeviceImpl& device_;
  std::unique_ptr<backend::Event> event_;
  std::optional<RecordedPoint> point_;
};

}  // namespace kjit::detail
