// A CUDA graph on the CPU: the work recorded from a CpuStream, replayed as one task.
#pragma once

#include "backends/cpu/run/cpu_stream.hpp"
#include "backends/kit/backend.hpp"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

namespace kjit::cpu {

/// Work recorded from a CpuStream (and streams that joined its recording): replayed as one task
/// that runs each recorded launch and copy in the order they were enqueued (an order that keeps
/// every wait the recording had), with the arguments copied when they were recorded, so a replay
/// skips each launch's checks, argument copies and queueing. The launch records stay out of their
/// pools until the graph goes. Arguments set later are kept aside and written into the records by
/// the first replay enqueued after they were set, so that replays enqueued before keep theirs.
class CpuGraph : public backend::Graph {
 public:
  explicit CpuGraph(std::vector<CpuStream::Task> tasks);
  void launch(backend::Stream& stream) override;
  [[nodiscard]] std::size_t size() const override { return tasks_->list.size(); }
  void set_arguments(std::size_t launch, const backend::Function& function,
                     const void* const* args) override;

 private:
  /// The arguments set for one recorded launch: its parameters' bytes, one after another.
  struct LaunchArguments {
    std::size_t task = 0;  // its index in Tasks::list
    std::vector<std::byte> bytes;
    std::vector<std::size_t> sizes;  // of each parameter
  };
  /// The latest arguments of each launch given any, as one replay sees them. Changed in place
  /// while no queued replay holds it, copied otherwise.
  struct ArgumentSet {
    std::uint64_t generation = 0;  // which set_arguments() made it, for Tasks::in
    std::vector<LaunchArguments> launches;
  };
  struct Tasks {
    Tasks() = default;
    Tasks(const Tasks&) = delete;
    Tasks& operator=(const Tasks&) = delete;
    ~Tasks();              // hands the launch records back
    std::mutex replaying;  // one replay at a time: they share the launch records
    std::vector<CpuStream::Task> list;
    std::vector<std::size_t> launches;  // the indices in `list` of kernel launches
    std::uint64_t in = 0;               // under `replaying`: the generation the records hold
  };
  std::shared_ptr<Tasks> tasks_;  // shared with queued replays
  std::mutex arguments_mutex_;
  std::shared_ptr<ArgumentSet> arguments_;  // what the next replay enqueued passes
};

}  // namespace kjit::cpu
