// kjit::Stream and kjit::Event of the public API.
#include "jit/device_impl.hpp"

#include <kjit/device.hpp>
#include <kjit/error.hpp>
#include <kjit/stream.hpp>

#include <fmt/format.h>

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
  s->refuse_while_recording("an event");
  return Event(std::make_shared<detail::EventImpl>(s->device(), s->backend().record()));
}

void Stream::wait(const Event& event) const {
  const auto& s = impl();
  const auto& e = event.impl();
  s->refuse_while_recording("waiting for an event");
  if (&e->device() != &s->device()) {
    throw UsageError(fmt::format("kjit: a stream of {} cannot wait for an event of {}",
                                 s->device().describe(), e->device().describe()));
  }
  s->backend().wait(e->backend());
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
  impl()->backend().synchronize();
}

bool Event::ready() const {
  return impl()->backend().ready();
}

double Event::elapsed_ms(const Event& start, const Event& end) {
  const auto& s = start.impl();
  const auto& e = end.impl();
  if (&s->device() != &e->device()) {
    throw UsageError("kjit: Event::elapsed_ms needs two events of the same device");
  }
  return e->backend().elapsed_ms_since(s->backend());
}

}  // namespace kjit
