// kjit::Graph: recording a stream's launches and copies (and those of streams that join it)
// through the backend, noting the kernels and buffers they use and that every stream that joined
// is joined back, and replaying them after checking that those buffers are still there.
#include "core/graph_recording.hpp"
#include "core/program_impl.hpp"
#include "support/logging.hpp"

#include <kjit/device.hpp>
#include <kjit/error.hpp>
#include <kjit/graph.hpp>
#include <kjit/memory.hpp>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
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

std::size_t Recording::member(StreamImpl& stream) {
  for (std::size_t i = 0; i < members_.size(); ++i) {
    if (members_[i].stream == &stream) {
      return i;
    }
  }
  members_.push_back({.stream = &stream, .operations = 0, .follows = {}, .kept = nullptr});
  return members_.size() - 1;
}

void Recording::note_operation(StreamImpl& stream) {
  // Called with mutex_ held.
  ++operations_;
  const std::size_t self = member(stream);
  Member& m = members_[self];
  ++m.operations;
  m.follows.resize(std::max(m.follows.size(), self + 1));
  m.follows[self] = m.operations;
}

void Recording::note_launch(StreamImpl& stream, const KernelImpl& kernel, const KernelArg* args,
                            std::size_t count) {
  // Called with mutex_ held (Recording::launch).
  note_operation(stream);
  kernels_.push_back(kernel.shared_from_this());
  note_argument_uses(kernel.device(), kernel, args, count, kernels_.size() - 1,
                     fmt::format("operation {}", operations_), uses_);
}

void Recording::note_copy(StreamImpl& stream, const RawBuffer& dst, const RawBuffer& src) {
  const std::lock_guard lock(mutex_);
  note_operation(stream);
  use(*dst.device_impl(), dst.address(),
      fmt::format("the destination of a copy (operation {})", operations_));
  use(*src.device_impl(), src.address(),
      fmt::format("the source of a copy (operation {})", operations_));
}

StreamImpl& Recording::origin() {
  const std::lock_guard lock(mutex_);  // a stream joining may move members_
  return *members_.front().stream;
}

std::vector<std::size_t> Recording::point(StreamImpl& stream) {
  const std::lock_guard lock(mutex_);
  return members_[member(stream)].follows;
}

void Recording::wait(const std::shared_ptr<StreamImpl>& stream,
                     const std::vector<std::size_t>& point) {
  const std::lock_guard lock(mutex_);
  const std::size_t count = members_.size();
  const std::size_t self = member(*stream);
  Member& m = members_[self];
  if (self == count) {
    // Joining counts as work: a stream that joined is joined back, even with nothing on it.
    m.operations = 1;
    m.kept = stream;
  }
  m.follows.resize(std::max({m.follows.size(), point.size(), self + 1}));
  for (std::size_t i = 0; i < point.size(); ++i) {
    m.follows[i] = std::max(m.follows[i], point[i]);
  }
  m.follows[self] = m.operations;
}

std::vector<std::size_t> Recording::unjoined() {
  const std::lock_guard lock(mutex_);
  std::vector<std::size_t> found;
  const std::vector<std::size_t>& origin = members_[0].follows;
  for (std::size_t i = 1; i < members_.size(); ++i) {
    if ((i < origin.size() ? origin[i] : 0) < members_[i].operations) {
      found.push_back(i);
    }
  }
  return found;
}

std::vector<StreamImpl*> Recording::joined() {
  const std::lock_guard lock(mutex_);
  std::vector<StreamImpl*> streams;
  for (std::size_t i = 1; i < members_.size(); ++i) {
    streams.push_back(members_[i].stream);
  }
  return streams;
}

void Recording::end() {
  const std::lock_guard lock(mutex_);
  ended_ = true;
}

bool Recording::ended() {
  const std::lock_guard lock(mutex_);
  return ended_;
}

std::vector<std::shared_ptr<const KernelImpl>> Recording::take_kernels() {
  const std::lock_guard lock(mutex_);
  return std::move(kernels_);
}

std::vector<RecordedUse> Recording::take_uses() {
  const std::lock_guard lock(mutex_);
  return std::move(uses_);
}

namespace {

/// "1st", "2nd", "3rd", "11th", "22nd".
std::string ordinal(std::size_t n) {
  const std::size_t tens = n % 100;
  const std::size_t ones = n % 10;
  const char* suffix = (tens >= 11 && tens <= 13) ? "th"
                       : ones == 1                ? "st"
                       : ones == 2                ? "nd"
                       : ones == 3                ? "rd"
                                                  : "th";
  return fmt::format("{}{}", n, suffix);
}

/// Ends `recording`, of stream `s`, on every stream in it; the backend's graph, or its error. To
/// drop a recording (`abandon`), the recording stream first waits for every stream that joined,
/// so that the backend ends it as cleanly as a complete one.
std::unique_ptr<backend::Graph> end_recording(StreamImpl& s, Recording& recording, bool abandon) {
  DeviceImpl& device = s.device();
  recording.end();
  const std::vector<StreamImpl*> joined = recording.joined();
  if (abandon) {
    for (StreamImpl* j : joined) {
      try {
        const std::unique_ptr<backend::Event> last = j->backend().record();
        s.backend().wait(*last);
      } catch (const std::exception& e) {
        log().debug("joining a stream back to drop a recording on {}: {}", device.describe(),
                    e.what());
      }
    }
  }
  for (StreamImpl* j : joined) {
    j->set_recording(nullptr);
  }
  s.set_recording(nullptr);
  device.recording_streams.fetch_sub(1, std::memory_order_acq_rel);
  std::unique_ptr<backend::Graph> graph;
  std::exception_ptr failure;
  try {
    graph = s.backend().end_recording();
  } catch (...) {
    failure = std::current_exception();
  }
  for (StreamImpl* j : joined) {
    j->backend().leave_recording();
  }
  if (failure) {
    std::rethrow_exception(failure);
  }
  return graph;
}

}  // namespace

}  // namespace kjit::detail

namespace kjit {

Graph Graph::record(const Stream& stream, const std::function<void()>& work) {
  detail::StreamImpl& s = *stream.impl();
  detail::DeviceImpl& device = s.device();
  if (s.recording() != nullptr) {
    throw UsageError(fmt::format(
        "kjit: a stream of {} is recording a graph already; a stream records one at a time",
        device.describe()));
  }
  const auto recording = std::make_shared<detail::Recording>(s);
  s.backend().begin_recording();
  s.set_recording(recording.get());
  device.recording_streams.fetch_add(1, std::memory_order_acq_rel);
  const auto stop = [&](bool abandon) { return detail::end_recording(s, *recording, abandon); };
  const auto drop = [&] {
    try {
      (void)stop(true);  // the partial recording is dropped
    } catch (const std::exception& e) {
      detail::log().debug("dropping a recording on {}: {}", device.describe(), e.what());
    }
  };
  try {
    work();
  } catch (...) {
    drop();
    throw;
  }
  if (const std::vector<std::size_t> unjoined = recording->unjoined(); !unjoined.empty()) {
    drop();
    std::vector<std::string> which;
    which.reserve(unjoined.size());
    for (const std::size_t n : unjoined) {
      which.push_back(detail::ordinal(n));
    }
    throw UsageError(fmt::format(
        "kjit: a graph recording on {} ended while {} stream(s) that joined it (the {} to join) "
        "had work the recording stream did not wait for; record an event on each such stream "
        "after its last work and make the recording stream wait for it before the recording "
        "ends. Nothing was recorded",
        device.describe(), unjoined.size(), fmt::join(which, ", ")));
  }
  std::unique_ptr<backend::Graph> graph = stop(false);
  return Graph(std::make_shared<detail::GraphImpl>(device.shared_from_this(), std::move(graph),
                                                   recording->take_kernels(),
                                                   recording->take_uses()));
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
