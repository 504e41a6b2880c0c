// CUDA streams and events. A stream's CUstream is created on first use (after the context is),
// so that opening a device does not wait for its context.
#pragma once

#include "backends/cuda/cuda_types.hpp"
#include "backends/kit/backend.hpp"
#include "backends/kit/launch_labels.hpp"

#include <atomic>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace kjit::cuda {

class CudaDevice;

class CudaEvent : public backend::Event {
 public:
  CudaEvent(CudaDevice& device, CUevent event) : device_(device), event_(event) {}
  ~CudaEvent() override;
  void synchronize() override;
  bool ready() override;
  double elapsed_ms_since(backend::Event& start) override;
  [[nodiscard]] CUevent handle() const noexcept { return event_; }

 private:
  CudaDevice& device_;
  CUevent event_;
};

/// A captured CUDA graph, instantiated.
class CudaGraph : public backend::Graph {
 public:
  /// `launches`: the kernel nodes of `graph`, in the order they were captured.
  CudaGraph(CudaDevice& device, CUgraph graph, CUgraphExec exec, std::size_t nodes,
            std::vector<CUgraphNode> launches)
      : device_(device),
        graph_(graph),
        exec_(exec),
        nodes_(nodes),
        launches_(std::move(launches)),
        params_(launches_.size()) {}
  ~CudaGraph() override;
  CudaGraph(const CudaGraph&) = delete;
  CudaGraph& operator=(const CudaGraph&) = delete;
  void launch(backend::Stream& stream) override;
  [[nodiscard]] std::size_t size() const override { return nodes_; }
  void set_arguments(std::size_t launch, const backend::Function& function,
                     const void* const* args) override;

 private:
  CudaDevice& device_;
  CUgraph graph_;
  CUgraphExec exec_;
  std::size_t nodes_;
  std::vector<CUgraphNode> launches_;
  std::vector<std::optional<CUDA_KERNEL_NODE_PARAMS>> params_;  // each launch's, once asked for
};

class CudaStream : public backend::Stream {
 public:
  explicit CudaStream(CudaDevice& device) : device_(device) {}
  ~CudaStream() override;

  void copy_to_device(std::uint64_t dst, const void* src, std::size_t bytes) override;
  void copy_to_host(void* dst, std::uint64_t src, std::size_t bytes) override;
  void copy_on_device(std::uint64_t dst, std::uint64_t src, std::size_t bytes) override;
  void copy_to_device_now(std::uint64_t dst, const void* src, std::size_t bytes) override;
  void copy_to_host_now(void* dst, std::uint64_t src, std::size_t bytes) override;
  std::unique_ptr<backend::Event> record() override;
  void wait(backend::Event& event) override;
  void synchronize() override;
  void* native_handle() override { return handle(); }
  void begin_recording() override;
  std::unique_ptr<backend::Graph> end_recording() override;
  void join_recording(backend::Stream& origin, backend::Event& event) override;
  void leave_recording() override;

  /// The CUstream, created on first use; the device's context is current afterwards.
  CUstream handle();
  /// Records the kernel just launched (an interned label of the device).
  void note_launch(const std::string* kernel) noexcept;
  /// While recording: notes the kernel node the launch just captured added (the capture's one
  /// dependency now), so that its arguments can be set later.
  void note_captured_launch() {
    if (recording_.load(std::memory_order_acquire)) {
      note_recorded_launch();
    }
  }

 private:
  void note_recorded_launch();
  CudaDevice& device_;
  std::mutex create_mutex_;
  std::atomic<CUstream> stream_{nullptr};
  backend::LastLaunch last_launch_;
  std::atomic<bool> recording_{false};    // capturing, as the recording stream or one that joined
  CudaStream* recording_into_ = nullptr;  // while recording_: the recording stream
  // The recording stream's, while it records: the kernel nodes captured on it and on the streams
  // that joined, in launch order (the core serialises launches of a recording).
  std::vector<CUgraphNode> captured_launches_;
};

}  // namespace kjit::cuda
