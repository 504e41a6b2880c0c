// kjit::Graph: work recorded once from a stream and replayed as one unit.
#pragma once

#include <kjit/export.hpp>
#include <kjit/kernel.hpp>
#include <kjit/stream.hpp>

#include <cstddef>
#include <functional>
#include <memory>

namespace kjit {

namespace detail {
class GraphImpl;
}  // namespace detail
class Device;

/// Kernel launches and copies between device buffers, recorded from a stream (and the streams
/// that join its recording through events) and replayed as one unit: a CUDA graph on CUDA (stream
/// capture, then one cuGraphLaunch per replay), a HIP graph on HIP, and on the CPU one queued task
/// that runs the launches with the arguments they were recorded with, skipping each launch's
/// checks, argument copies and queueing. A replay gives what the recorded work gives when run: it
/// reads and writes the buffers' contents at replay time (values passed to kernels are those of the
/// recording, or those set_arguments() gave later). Cheap to copy; copies share the graph. Replays
/// of one graph run one after another.
class KJIT_API Graph {
 public:
  Graph() noexcept = default;

  /// Runs `work`, which enqueues launches and device-to-device copies on `stream`, recording them
  /// instead of running them. While it records, the stream may not be waited for, nor the
  /// device; host copies and launches that stage host spans on it are UsageErrors (they are not
  /// recorded). A stream records one graph at a time. When `work` throws, nothing is recorded
  /// and the exception passes on.
  ///
  /// Other streams of the device join the recording as CUDA's stream capture has them join: an
  /// event recorded on a recording stream marks a point of the recording, and a stream that
  /// waits for it records from then on, its work following that point. Each stream that joined
  /// must be joined back before `work` returns (the recording stream waits for an event recorded
  /// on it after its last work), or the recording is a UsageError. The graph keeps the order the
  /// waits gave (on the CPU a replay runs the work in the order it was enqueued).
  ///   Graph::record(main, [&] {
  ///     side.wait(main.record());         // side joins
  ///     a.launch(side, cfg, x);           // recorded, runs beside b on a GPU
  ///     b.launch(main, cfg, y);
  ///     main.wait(side.record());         // side is joined back
  ///     c.launch(main, cfg, x, y);        // after a and b
  ///   });
  /// An event recorded in a recording is only for its streams to wait for, during it: waiting
  /// for it on the host, asking whether it is ready, timing it or waiting for it later are
  /// UsageErrors, as is a recording stream waiting for an event recorded outside the recording.
  [[nodiscard]] static Graph record(const Stream& stream, const std::function<void()>& work);

  /// Enqueues the recorded work on `stream` (a stream of the graph's device), after its earlier
  /// work. UsageError when a buffer the recorded work uses was freed since the recording, naming
  /// which operation used it, or when `stream` is recording.
  void launch(const Stream& stream) const;
  /// The same on the device's default stream.
  void launch() const;

  /// Gives the graph's launch number `launch` (0-based, counting kernel launches only, in the
  /// order they were recorded) new arguments, checked and converted as Kernel::launch checks and
  /// converts them (a host span is a compile-time error: pass a DeviceBuffer). `kernel` must be
  /// the kernel that launch runs (the same handle or a copy; a variant is a kernel of its own);
  /// its grid, block and shared memory stay. Replays enqueued from now on pass the new values;
  /// replays enqueued before keep the old ones. cuGraphExecKernelNodeSetParams on CUDA,
  /// hipGraphExecKernelNodeSetParams on HIP, no recompilation or re-instantiation anywhere.
  ///   graph.set_arguments(0, axpy, 2.0f, x, y, n);
  /// UsageError for a launch the graph does not have or another kernel, LaunchError for an
  /// argument a launch would refuse (memory of another device, an empty buffer); the graph is
  /// then as it was.
  template <class... Params, class... Args>
  void set_arguments(std::size_t launch, const Kernel<Params...>& kernel, Args&&... args) const {
    kernel.set_in_graph(checked(), launch, std::forward<Args>(args)...);
  }

  /// The operations recorded: kernel launches and copies.
  [[nodiscard]] std::size_t size() const;
  /// The kernel launches recorded (what set_arguments() numbers).
  [[nodiscard]] std::size_t launches() const;
  [[nodiscard]] Device device() const;
  [[nodiscard]] explicit operator bool() const noexcept { return impl_ != nullptr; }

  explicit Graph(std::shared_ptr<detail::GraphImpl> impl) noexcept : impl_(std::move(impl)) {}

 private:
  [[nodiscard]] detail::GraphImpl& checked() const;
  std::shared_ptr<detail::GraphImpl> impl_;
};

}  // namespace kjit
