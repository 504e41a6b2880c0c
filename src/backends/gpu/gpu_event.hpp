// An event of a GPU stream (Stream::record), for any vendor V (gpu_vendor.hpp). Instantiated in
// the vendor's <vendor>_stream.cpp.
#pragma once

#include "backends/kit/backend.hpp"
#include "support/logging.hpp"

namespace kjit::gpu {

template <class V>
class GpuEvent : public backend::Event {
 public:
  using Device = typename V::Device;
  using Handle = typename V::Event;

  GpuEvent(Device& device, Handle event) : device_(device), event_(event) {}
  ~GpuEvent() override;
  GpuEvent(const GpuEvent&) = delete;
  GpuEvent& operator=(const GpuEvent&) = delete;
  void synchronize() override;
  bool ready() override;
  double elapsed_ms_since(backend::Event& start) override;
  [[nodiscard]] Handle handle() const noexcept { return event_; }

 private:
  Device& device_;
  Handle event_;
};

template <class V>
GpuEvent<V>::~GpuEvent() {
  const auto r = V::event_destroy(device_.api())(event_);
  if (r != V::kSuccess) {
    detail::log().warn("{} on {}: {}", V::event_destroy.name, device_.id(),
                       V::describe(device_.api(), r));
  }
}

template <class V>
void GpuEvent<V>::synchronize() {
  V::check(device_.api(), V::event_synchronize(device_.api())(event_), V::event_synchronize.name,
           device_.id());
}

template <class V>
bool GpuEvent<V>::ready() {
  const auto r = V::event_query(device_.api())(event_);
  if (r == V::kNotReady) {
    return false;
  }
  V::check(device_.api(), r, V::event_query.name, device_.id());
  return true;
}

template <class V>
double GpuEvent<V>::elapsed_ms_since(backend::Event& start) {
  float ms = 0;
  V::check(device_.api(),
           V::event_elapsed_time(device_.api())(&ms, static_cast<GpuEvent&>(start).event_, event_),
           V::event_elapsed_time.name, device_.id());
  return ms;
}

}  // namespace kjit::gpu
