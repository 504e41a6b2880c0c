#include "core/device_impl.hpp"

#include "support/logging.hpp"

#include <kjit/error.hpp>
#include <kjit/stream.hpp>

#include <fmt/format.h>

#include <algorithm>

namespace kjit::detail {

DeviceImpl::DeviceImpl(backend::Backend& backend, DeviceInfo info)
    : backend_kind_(backend), info_(std::move(info)) {}

void DeviceImpl::open() {
  std::call_once(opened_, [this] {
    log().debug("opening {}", describe());
    device_ = backend_kind_.open(info_.ordinal);
    default_stream_ = std::make_shared<StreamImpl>(*this, device_->create_stream());
    is_open_.store(true, std::memory_order_release);
  });
}

std::string DeviceImpl::unusable_reason() const {
  return is_open_.load(std::memory_order_acquire) ? device_->unusable_reason() : std::string();
}

backend::Device& DeviceImpl::backend() {
  open();
  return *device_;
}

const std::shared_ptr<StreamImpl>& DeviceImpl::default_stream() {
  open();
  return default_stream_;
}

std::shared_ptr<StreamImpl> DeviceImpl::create_stream() {
  return std::make_shared<StreamImpl>(*this, backend().create_stream());
}

StreamImpl* DeviceImpl::stream_impl(const Stream* stream) {
  if (stream == nullptr) {
    return default_stream().get();
  }
  const auto& s = stream->impl();
  return &s->device() == this ? s.get() : nullptr;
}

void DeviceImpl::note_allocated(std::uint64_t address, std::size_t bytes) {
  if (address == 0) {
    return;
  }
  const std::lock_guard lock(allocations_mutex_);
  allocations_[address] = Live{bytes, next_allocation_++};
}

void DeviceImpl::note_freed(std::uint64_t address) noexcept {
  const std::lock_guard lock(allocations_mutex_);
  allocations_.erase(address);
}

std::optional<Allocation> DeviceImpl::allocation_of(std::uint64_t address) {
  const std::lock_guard lock(allocations_mutex_);
  auto it = allocations_.upper_bound(address);
  if (it == allocations_.begin()) {
    return std::nullopt;
  }
  --it;
  if (address - it->first >= std::max<std::size_t>(it->second.bytes, 1)) {
    return std::nullopt;
  }
  return Allocation{it->first, it->second.number};
}

bool DeviceImpl::is_live(const Allocation& allocation) {
  const std::lock_guard lock(allocations_mutex_);
  const auto it = allocations_.find(allocation.base);
  return it != allocations_.end() && it->second.number == allocation.number;
}

void StreamImpl::refuse_while_recording(const char* what) const {
  if (recording() != nullptr) {
    throw UsageError(fmt::format(
        "kjit: {} on a stream of {} that is recording a graph (Graph::record, or joined by "
        "waiting for an event recorded in one): only kernel launches, copies between device "
        "buffers and events are recorded",
        what, device_.describe()));
  }
}

void EventImpl::refuse_if_recorded(const char* what) const {
  if (point_) {
    throw UsageError(fmt::format(
        "kjit: {}: the event was recorded on a stream of {} while it recorded a graph; it marks "
        "a point of the recording, for the recording's streams to wait for, and never completes "
        "by itself (record an event after launching the graph instead)",
        what, device_.describe()));
  }
}

backend::Stream* DeviceImpl::stream(const Stream* stream) {
  StreamImpl* s = stream_impl(stream);
  return s != nullptr ? &s->backend() : nullptr;
}

void DeviceImpl::synchronize() {
  if (recording_streams.load(std::memory_order_acquire) > 0) {
    throw UsageError(
        fmt::format("kjit: waiting for {} while one of its streams records a graph (Graph::record)",
                    describe()));
  }
  backend().synchronize();
}

std::string DeviceImpl::describe() const {
  return fmt::format("{} ({}, {})", info_.id(), info_.name, info_.arch);
}

}  // namespace kjit::detail
