// A GPU stream for any vendor V (gpu_vendor.hpp): copies, events, synchronisation, and the
// capture of its work into a graph (replayed by GpuGraph, gpu_graph.hpp). Its vendor stream is
// created on first use (after the device's context is), so that opening a device does not wait
// for it. Instantiated in the vendor's <vendor>_stream.cpp.
#pragma once

#include "backends/gpu/gpu_errors.hpp"
#include "backends/gpu/gpu_event.hpp"
#include "backends/gpu/gpu_graph.hpp"
#include "backends/kit/backend.hpp"
#include "backends/kit/launch_labels.hpp"
#include "support/logging.hpp"

#include <fmt/format.h>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

namespace kjit::gpu {

template <class V>
class GpuStream : public backend::Stream {
 public:
  using Device = typename V::Device;
  using Handle = typename V::Stream;
  using Node = typename V::GraphNode;

  explicit GpuStream(Device& device) : device_(device) {}
  ~GpuStream() override;
  GpuStream(const GpuStream&) = delete;
  GpuStream& operator=(const GpuStream&) = delete;

  void copy_to_device(std::uint64_t dst, const void* src, std::size_t bytes) override;
  void copy_to_host(void* dst, std::uint64_t src, std::size_t bytes) override;
  void copy_on_device(std::uint64_t dst, std::uint64_t src, std::size_t bytes) override;
  std::unique_ptr<backend::Event> record() override;
  void wait(backend::Event& event) override;
  void synchronize() override;
  void* native_handle() override { return handle(); }
  void begin_recording() override;
  std::unique_ptr<backend::Graph> end_recording() override;
  void join_recording(backend::Stream& origin, backend::Event& event) override;
  void leave_recording() override;

  /// The vendor's stream, created on first use; the device is current afterwards.
  Handle handle();
  /// Records the kernel just launched (an interned label of the device).
  void note_launch(const std::string* kernel) noexcept;
  /// While recording: notes the kernel node the launch just captured added (the capture's one
  /// dependency now), so that its arguments can be set later.
  void note_captured_launch() {
    if (recording_.load(std::memory_order_acquire)) {
      note_recorded_launch();
    }
  }

 protected:
  [[nodiscard]] Device& device() const noexcept { return device_; }

 private:
  void note_recorded_launch();
  Device& device_;
  std::mutex create_mutex_;
  std::atomic<Handle> stream_{nullptr};
  backend::LastLaunch last_launch_;
  std::atomic<bool> recording_{false};   // capturing, as the recording stream or one that joined
  GpuStream* recording_into_ = nullptr;  // while recording_: the recording stream
  // The recording stream's, while it records: the kernel nodes captured on it and on the streams
  // that joined, in launch order (the core serialises launches of a recording).
  std::vector<Node> captured_launches_;
};

template <class V>
GpuStream<V>::~GpuStream() {
  const Handle stream = stream_.load();
  if (stream == nullptr) {
    return;
  }
  const typename V::Api& api = device_.api();
  try {
    device_.make_current();
    auto r = V::stream_synchronize(api)(stream);
    if (r != V::kSuccess) {
      detail::log().warn("a stream of {} was destroyed with an unreported error: {}", device_.id(),
                         V::describe(api, r));
    }
    r = V::stream_destroy(api)(stream);
    if (r != V::kSuccess) {
      detail::log().warn("{} on {}: {}", V::stream_destroy.name, device_.id(), V::describe(api, r));
    }
  } catch (const std::exception& e) {
    detail::log().warn("destroying a stream of {}: {}", device_.id(), e.what());
  }
}

template <class V>
typename V::Stream GpuStream<V>::handle() {
  device_.make_current();
  Handle stream = stream_.load(std::memory_order_acquire);
  if (stream != nullptr) {
    return stream;
  }
  const std::lock_guard lock(create_mutex_);
  stream = stream_.load(std::memory_order_acquire);
  if (stream == nullptr) {
    V::check(device_.api(), V::stream_create(device_.api())(&stream, V::kStreamNonBlocking),
             V::stream_create.name, device_.id());
    stream_.store(stream, std::memory_order_release);
  }
  return stream;
}

template <class V>
void GpuStream<V>::copy_to_device(std::uint64_t dst, const void* src, std::size_t bytes) {
  const Handle s = handle();
  // HIP's signature lacks the const; neither vendor writes to `src`.
  V::check(
      device_.api(),
      V::copy_to_device(device_.api())(V::device_pointer(dst), const_cast<void*>(src), bytes, s),
      V::copy_to_device.name, fmt::format("{}, {} bytes", device_.id(), bytes));
}

template <class V>
void GpuStream<V>::copy_to_host(void* dst, std::uint64_t src, std::size_t bytes) {
  const Handle s = handle();
  V::check(device_.api(), V::copy_to_host(device_.api())(dst, V::device_pointer(src), bytes, s),
           V::copy_to_host.name, fmt::format("{}, {} bytes", device_.id(), bytes));
}

template <class V>
void GpuStream<V>::copy_on_device(std::uint64_t dst, std::uint64_t src, std::size_t bytes) {
  const Handle s = handle();
  V::check(
      device_.api(),
      V::copy_on_device(device_.api())(V::device_pointer(dst), V::device_pointer(src), bytes, s),
      V::copy_on_device.name, fmt::format("{}, {} bytes", device_.id(), bytes));
}

template <class V>
std::unique_ptr<backend::Event> GpuStream<V>::record() {
  const Handle s = handle();
  const typename V::Api& api = device_.api();
  typename V::Event event = nullptr;
  V::check(api, V::event_create(api)(&event, V::kEventDefault), V::event_create.name, device_.id());
  auto owned = std::make_unique<GpuEvent<V>>(device_, event);
  V::check(api, V::event_record(api)(event, s), V::event_record.name, device_.id());
  return owned;
}

template <class V>
void GpuStream<V>::wait(backend::Event& event) {
  const Handle s = handle();
  V::check(device_.api(),
           V::stream_wait_event(device_.api())(s, static_cast<GpuEvent<V>&>(event).handle(), 0),
           V::stream_wait_event.name, device_.id());
}

template <class V>
void GpuStream<V>::synchronize() {
  const auto r = V::stream_synchronize(device_.api())(handle());
  if (r != V::kSuccess) {
    throw_stream_failed(device_.id(), V::describe(device_.api(), r), last_launch_.describe());
  }
}

template <class V>
void GpuStream<V>::note_launch(const std::string* kernel) noexcept {
  last_launch_.note(kernel);
  device_.note_launch(kernel);
}

template <class V>
void GpuStream<V>::begin_recording() {
  const Handle stream = handle();
  const typename V::Api& api = device_.api();
  V::check(api, V::stream_begin_capture.required(api, device_.id())(stream, V::kCaptureModeRelaxed),
           V::stream_begin_capture.name, device_.id());
  captured_launches_.clear();
  recording_into_ = this;
  recording_.store(true, std::memory_order_release);
}

// Waiting for an event recorded in a capture draws this stream into the capture.
template <class V>
void GpuStream<V>::join_recording(backend::Stream& origin, backend::Event& event) {
  wait(event);
  recording_into_ = &static_cast<GpuStream&>(origin);
  recording_.store(true, std::memory_order_release);
}

template <class V>
void GpuStream<V>::leave_recording() {
  recording_.store(false, std::memory_order_release);
  recording_into_ = nullptr;
}

template <class V>
void GpuStream<V>::note_recorded_launch() {
  const typename V::Api& api = device_.api();
  if (V::stream_get_capture_info(api) == nullptr) {
    recording_into_->captured_launches_.push_back(nullptr);  // set_arguments says why it cannot
    return;
  }
  typename V::CaptureStatus status{};
  const Node* leaves = nullptr;
  std::size_t count = 0;
  V::check(api,
           V::stream_get_capture_info(api)(handle(), &status, nullptr, nullptr, &leaves, &count),
           V::stream_get_capture_info.name, device_.id());
  // A stream captures in order: the node just added is the one the next work will follow.
  recording_into_->captured_launches_.push_back(
      status == V::kCaptureActive && count == 1 ? leaves[0] : nullptr);
}

template <class V>
std::unique_ptr<backend::Graph> GpuStream<V>::end_recording() {
  const Handle stream = handle();
  const typename V::Api& api = device_.api();
  recording_.store(false, std::memory_order_release);
  recording_into_ = nullptr;
  std::vector<Node> launches = std::move(captured_launches_);
  captured_launches_.clear();
  typename V::Graph graph = nullptr;
  V::check(api, V::stream_end_capture.required(api, device_.id())(stream, &graph),
           V::stream_end_capture.name, device_.id());
  std::size_t nodes = 0;
  typename V::GraphExec exec = nullptr;
  try {
    V::check(api, V::graph_get_nodes.required(api, device_.id())(graph, nullptr, &nodes),
             V::graph_get_nodes.name, device_.id());
    V::check(api,
             V::instantiate_graph(V::graph_instantiate.required(api, device_.id()), &exec, graph),
             V::graph_instantiate.name, device_.id());
  } catch (...) {
    if (V::graph_destroy(api) != nullptr) {
      (void)V::graph_destroy(api)(graph);
    }
    throw;
  }
  return std::make_unique<GpuGraph<V>>(device_, graph, exec, nodes, std::move(launches));
}

}  // namespace kjit::gpu
