// kjit::Graph: recording a stream's launches and copies through the backend, noting the kernels
// and buffers they use, and replaying them after checking that those buffers are still there.
#include "jit/graph_recording.hpp"
#include "jit/logging.hpp"
#include "jit/program_impl.hpp"

#include <kjit/device.hpp>
#include <kjit/error.hpp>
#include <kjit/graph.hpp>
#include <kjit/memory.hpp>

#include <fmt/format.h>

#include <cstring>
#include <exception>
#include <iterator>
#include <mutex>
#include <utility>
#include <vector>

namespace kjit::detail {

class GraphImpl {
 public:
  GraphImpl(std::shared_ptr<DeviceImpl> device, std::unique_ptr<backend::Graph> graph,
            std::vector<std::shared_ptr<const KernelImpl>> kernels, std::vector<RecordedUse> uses)
      : device_(std::move(device)),
        kernels_(std::move(kernels)),
        uses_(std::move(uses)),
        graph_(std::move(graph)) {}

  [[nodiscard]] DeviceImpl& device() const noexcept { return *device_; }
  [[nodiscard]] std::size_t size() const { return graph_->size(); }
  [[nodiscard]] std::size_t launches() const noexcept { return kernels_.size(); }

  void launch(StreamImpl& stream) {
    stream.refuse_while_recording("a graph launch");
    const std::lock_guard lock(mutex_);
    for (const RecordedUse& use : uses_) {
      if (!device_->is_live(use.allocation)) {
        throw UsageError(fmt::format(
            "kjit: a graph recorded on {} uses a buffer that was freed after the recording: {}; "
            "record the graph again with live buffers",
            device_->describe(), use.what));
      }
    }
    graph_->launch(stream.backend());
  }

  void set_arguments(std::size_t launch, const KernelImpl& kernel, const KernelArg* args,
                     std::size_t count) {
    if (launch >= kernels_.size()) {
      throw UsageError(fmt::format(
          "kjit: set_arguments: a graph recorded on {} has {} kernel launch(es); there is no "
          "launch {} (launches count from 0, copies not counted)",
          device_->describe(), kernels_.size(), launch));
    }
    if (kernels_[launch].get() != &kernel) {
      throw UsageError(fmt::format(
          "kjit: set_arguments: launch {} of a graph recorded on {} "
          "runs {}, not {}",
          launch, device_->describe(), kernels_[launch]->describe(), kernel.describe()));
    }
    std::vector<const void*> values(count);
    check_arguments(kernel, args, count, values.data());
    std::vector<RecordedUse> fresh;
    note_argument_uses(*device_, kernel, args, count, launch, fmt::format("launch {}", launch),
                       fresh);
    const std::lock_guard lock(mutex_);
    graph_->set_arguments(launch, kernel.function(), values.data());
    std::erase_if(uses_, [&](const RecordedUse& use) { return use.launch == launch; });
    uses_.insert(uses_.end(), std::make_move_iterator(fresh.begin()),
                 std::make_move_iterator(fresh.end()));
  }

 private:
  std::shared_ptr<DeviceImpl> device_;
  std::vector<std::shared_ptr<const KernelImpl>> kernels_;  // one per launch; loaded meanwhile
  std::mutex mutex_;                                        // uses_ and the backend's graph
  std::vector<RecordedUse> uses_;
  std::unique_ptr<backend::Graph> graph_;  // declared last: goes before the kernels' modules
};

void note_argument_uses(DeviceImpl& device, const KernelImpl& kernel, const KernelArg* args,
                        std::size_t count, std::size_t launch, std::string_view which,
                        std::vector<RecordedUse>& uses) {
  for (std::size_t i = 0; i < count; ++i) {
    if (args[i].kind != KernelArg::Kind::device_address) {
      continue;
    }
    std::uint64_t address = 0;
    std::memcpy(&address, args[i].value, sizeof(address));
    if (const std::optional<Allocation> a = device.allocation_of(address)) {
      uses.push_back(
          {*a, fmt::format("argument {} of {} ({})", i, kernel.describe(), which), launch});
    }
  }
}

void Recording::use(DeviceImpl& device, std::uint64_t address, std::string what) {
  if (const std::optional<Allocation> a = device.allocation_of(address)) {
    uses_.push_back({*a, std::move(what)});
  }
}

void Recording::note_launch(const KernelImpl& kernel, const KernelArg* args, std::size_t count) {
  // Called with mutex_ held (Recording::launch).
  ++operations_;
  kernels_.push_back(kernel.shared_from_this());
  note_argument_uses(kernel.device(), kernel, args, count, kernels_.size() - 1,
                     fmt::format("operation {}", operations_), uses_);
}

void Recording::note_copy(const RawBuffer& dst, const RawBuffer& src) {
  const std::lock_guard lock(mutex_);
  ++operations_;
  use(*dst.device_impl(), dst.address(),
      fmt::format("the destination of a copy (operation {})", operations_));
  use(*src.device_impl(), src.address(),
      fmt::format("the source of a copy (operation {})", operations_));
}

std::vector<std::shared_ptr<const KernelImpl>> Recording::take_kernels() {
  const std::lock_guard lock(mutex_);
  return std::move(kernels_);
}

std::vector<RecordedUse> Recording::take_uses() {
  const std::lock_guard lock(mutex_);
  return std::move(uses_);
}

std::size_t Recording::operations() {
  const std::lock_guard lock(mutex_);
  return operations_;
}

}  // namespace kjit::detail

namespace kjit {

Graph Graph::record(const Stream& stream, const std::function<void()>& work) {
  detail::StreamImpl& s = *stream.impl();
  detail::DeviceImpl& device = s.device();
  detail::Recording recording;
  if (s.recording() != nullptr) {
    throw UsageError(fmt::format(
        "kjit: a stream of {} is recording a graph already; a stream records one at a time",
        device.describe()));
  }
  s.backend().begin_recording();
  s.set_recording(&recording);
  device.recording_streams.fetch_add(1, std::memory_order_acq_rel);
  const auto stop = [&] {
    s.set_recording(nullptr);
    device.recording_streams.fetch_sub(1, std::memory_order_acq_rel);
    return s.backend().end_recording();
  };
  try {
    work();
  } catch (...) {
    try {
      (void)stop();  // the partial recording is dropped
    } catch (const std::exception& e) {
      detail::log().warn("dropping a recording on {}: {}", device.describe(), e.what());
    }
    throw;
  }
  std::unique_ptr<backend::Graph> graph = stop();
  return Graph(std::make_shared<detail::GraphImpl>(device.shared_from_this(), std::move(graph),
                                                   recording.take_kernels(),
                                                   recording.take_uses()));
}

detail::GraphImpl& Graph::checked() const {
  if (!impl_) {
    throw UsageError("kjit: use of an empty Graph; make one with Graph::record");
  }
  return *impl_;
}

void Graph::launch(const Stream& stream) const {
  detail::GraphImpl& g = checked();
  detail::StreamImpl& s = *stream.impl();
  if (&s.device() != &g.device()) {
    throw UsageError(
        fmt::format("kjit: a graph recorded on {} cannot be launched on a stream of {}",
                    g.device().describe(), s.device().describe()));
  }
  g.launch(s);
}

void Graph::launch() const {
  detail::GraphImpl& g = checked();
  g.launch(*g.device().default_stream());
}

std::size_t Graph::size() const {
  return checked().size();
}

std::size_t Graph::launches() const {
  return checked().launches();
}

void detail::set_graph_arguments(GraphImpl& graph, std::size_t launch, const KernelImpl& kernel,
                                 const KernelArg* args, std::size_t count) {
  graph.set_arguments(launch, kernel, args, count);
}

Device Graph::device() const {
  return Device(checked().device().shared_from_this());
}

}  // namespace kjit
