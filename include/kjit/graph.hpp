// kjit::Graph: work recorded once from a stream and replayed as one unit.
#pragma once

#include <kjit/export.hpp>
#include <kjit/stream.hpp>

#include <cstddef>
#include <functional>
#include <memory>

namespace kjit {

namespace detail {
class GraphImpl;
}  // namespace detail
class Device;

/// Kernel launches and copies between device buffers, recorded from a stream and replayed as one
/// unit: a CUDA graph on CUDA (stream capture, then one cuGraphLaunch per replay), a HIP graph on
/// HIP, and on the CPU one queued task that runs the launches with the arguments they were
/// recorded with, skipping each launch's checks, argument copies and queueing. A replay gives
/// what the recorded work gives when run: it reads and writes the buffers' contents at replay
/// time (values passed to kernels are those of the recording). Cheap to copy; copies share the
/// graph. Replays of one graph run one after another.
class KJIT_API Graph {
 public:
  Graph() noexcept = default;

  /// Runs `work`, which enqueues launches and device-to-device copies on `stream`, recording them
  /// instead of running them. While it records, the stream may not be waited for, nor the
  /// device; host copies, events and launches that stage host spans on it are UsageErrors (they
  /// are not recorded). A stream records one graph at a time. When `work` throws, nothing is
  /// recorded and the exception passes on.
  [[nodiscard]] static Graph record(const Stream& stream, const std::function<void()>& work);

  /// Enqueues the recorded work on `stream` (a stream of the graph's device), after its earlier
  /// work. UsageError when a buffer the recorded work uses was freed since the recording, naming
  /// which operation used it, or when `stream` is recording.
  void launch(const Stream& stream) const;
  /// The same on the device's default stream.
  void launch() const;

  /// The operations recorded: kernel launches and copies.
  [[nodiscard]] std::size_t size() const;
  [[nodiscard]] Device device() const;
  [[nodiscard]] explicit operator bool() const noexcept { return impl_ != nullptr; }

  explicit Graph(std::shared_ptr<detail::GraphImpl> impl) noexcept : impl_(std::move(impl)) {}

 private:
  [[nodiscard]] detail::GraphImpl& checked() const;
  std::shared_ptr<detail::GraphImpl> impl_;
};

}  // namespace kjit
