// HIP streams and events. A stream's hipStream_t is created on first use.
#pragma once

#include "backends/hip/hip_types.hpp"
#include "backends/kit/backend.hpp"
#include "backends/kit/launch_labels.hpp"

#include <atomic>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace kjit::hip {

class HipDevice;

class HipEvent : public backend::Event {
 public:
  HipEvent(HipDevice& device, hipEvent_t event) : device_(device), event_(event) {}
  ~HipEvent() override;
  void synchronize() override;
  bool ready() override;
  double elapsed_ms_since(backend::Event& start) override;
  [[nodiscard]] hipEvent_t handle() const noexcept { return event_; }

 private:
  HipDevice& device_;
  hipEvent_t event_;
};

/// A captured HIP graph, instantiated.
class HipGraph : public backend::Graph {
 public:
  /// `launches`: the kernel nodes of `graph`, in the order they were captured.
  HipGraph(HipDevice& device, hipGraph_t graph, hipGraphExec_t exec, std::size_t nodes,
           std::vector<hipGraphNode_t> launches)
      : device_(device),
        graph_(graph),
        exec_(exec),
        nodes_(nodes),
        launches_(std::move(launches)) {}
  ~HipGraph() override;
  HipGraph(const HipGraph&) = delete;
  HipGraph& operator=(const HipGraph&) = delete;
  void launch(backend::Stream& stream) override;
  [[nodiscard]] std::size_t size() const override { return nodes_; }
  void set_arguments(std::size_t launch, const backend::Function& function,
                     const void* const* args) override;

 private:
  HipDevice& device_;
  hipGraph_t graph_;
  hipGraphExec_t exec_;
  std::size_t nodes_;
  std::vector<hipGraphNode_t> launches_;
};

class HipStream : public backend::Stream {
 public:
  explicit HipStream(HipDevice& device) : device_(device) {}
  ~HipStream() override;

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

  /// The hipStream_t, created on first use; the device is current afterwards.
  hipStream_t handle();
  void note_launch(const std::string* kernel) noexcept;
  /// While recording: notes the kernel node the launch just captured added.
  void note_captured_launch() {
    if (recording_.load(std::memory_order_acquire)) {
      note_recorded_launch();
    }
  }

 private:
  void note_recorded_launch();
  HipDevice& device_;
  std::mutex create_mutex_;
  std::atomic<hipStream_t> stream_{nullptr};
  backend::LastLaunch last_launch_;
  std::atomic<bool> recording_{false};   // capturing, as the recording stream or one that joined
  HipStream* recording_into_ = nullptr;  // while recording_: the recording stream
  // The recording stream's, while it records: the kernel nodes captured on it and on the streams
  // that joined, in launch order (the core serialises launches of a recording).
  std::vector<hipGraphNode_t> captured_launches_;
};

}  // namespace kjit::hip
