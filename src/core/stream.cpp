// kjit::Stream and kjit::Event of the public API.
#include "core/device_impl.hpp"
#include "core/graph_recording.hpp"

#include <kjit/device.hpp>
#include <kjit/error.hpp>
#include <kjit/stream.hpp>

#include <fmt/format.h>

#include <memory>
#include <optional>
#include <vector>

namespace kjit {

const std::shared_ptr<detail::StreamImpl>& Stream::impl() const {
  if (!impl_) {
    throw UsageError("kjit: use of an empty Stream handle; get one from Device::create_stream()");
  }
  return impl_;
}

void Stream::synchronize() const {
  const auto& s = impl();
  s->refuse_while_recording("waiting");
  s->backend().synchronize();
}

Event Stream::record() const {
  const auto& s = impl();
  if (detail::Recording* recording = s->recording()) {
    // A point of the recording, for its streams (and streams that join it) to wait for.
    std::vector<std::size_t> point = recording->point(*s);
    return Event(std::make_shared<detail::EventImpl>(
        s->device(), s->backend().record(),
        detail::RecordedPoint{recording->shared_from_this(), std::move(point)}));
  }
  return Event(std::make_shared<detail::EventImpl>(s->device(), s->backend().record()));
}

void Stream::wait(const Event& event) const {
  const auto& s = impl();
  const auto& e = event.impl();
  if (&e->device() != &s->device()) {
    throw UsageError(fmt::format("kjit: a stream of {} cannot wait for an event of {}",
                                 s->device().describe(), e->device().describe()));
  }
  detail::Recording* recording = s->recording();
  const std::optional<detail::RecordedPoint>& point = e->recorded_point();
  if (!point) {
    if (recording != nullptr) {
      throw UsageError(fmt::format(
          "kjit: a stream of {} that is recording a graph cannot wait for an event recorded "
          "outside the recording (a graph waits only for its own work); wait for it before "
          "Graph::record, or make the stream the graph is launched on wait for it",
          s->device().describe()));
    }
    s->backend().wait(e->backend());
    return;
  }
  const std::shared_ptr<detail::Recording> of = point->recording.lock();
  if (!of || of->ended()) {
    throw UsageError(fmt::format(
        "kjit: waiting for an event that was recorded while a graph was recorded on {}, after "
        "that recording ended; such an event marks a point of the recording, for its streams "
        "to wait for during it",
        s->device().describe()));
  }
  if (recording == of.get()) {
    recording->wait(s, point->follows);
    s->backend().wait(e->backend());
    return;
  }
  if (recording != nullptr) {
    throw UsageError(fmt::format(
        "kjit: a stream of {} that is recording a graph cannot wait for an event recorded in "
        "another graph recording; graphs are recorded apart",
        s->device().describe()));
  }
  // The stream joins the recording: what it is given from now on is recorded.
  detail::StreamImpl& origin = of->origin();
  of->wait(s, point->follows);
  s->backend().join_recording(origin.backend(), e->backend());
  s->set_recording(of.get());
}

Device Stream::device() const {
  return Device(impl()->device().shared_from_this());
}

void* Stream::native_handle() const {
  return impl()->backend().native_handle();
}

const std::shared_ptr<detail::EventImpl>& Event::impl() const {
  if (!impl_) {
    throw UsageError("kjit: use of an empty Event handle; get one from Stream::record()");
  }
  return impl_;
}

void Event::synchronize() const {
  const auto& e = impl();
  e->refuse_if_recorded("waiting for an event");
  e->backend().synchronize();
}

bool Event::ready() const {
  const auto& e = impl();
  e->refuse_if_recorded("asking whether an event is ready");
  return e->backend().ready();
}

double Event::elapsed_ms(const Event& start, const Event& end) {
  const auto& s = start.impl();
  const auto& e = end.impl();
  if (&s->device() != &e->device()) {
    throw UsageError("kjit: Event::elapsed_ms needs two events of the same device");
  }
  s->refuse_if_recorded("Event::elapsed_ms");
  e->refuse_if_recorded("Event::elapsed_ms");
  return e->backend().elapsed_ms_since(s->backend());
}

}  // namespace kjit
