#include "jit/device_impl.hpp"

#include "jit/logging.hpp"

#include <kjit/error.hpp>
#include <kjit/stream.hpp>

#include <fmt/format.h>

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

backend::Stream* DeviceImpl::stream(const Stream* stream) {
  if (stream == nullptr) {
    return &default_stream()->backend();
  }
  const auto& s = stream->impl();
  return &s->device() == this ? &s->backend() : nullptr;
}

void DeviceImpl::synchronize() {
  backend().synchronize();
}

std::string DeviceImpl::describe() const {
  return fmt::format("{} ({}, {})", info_.id(), info_.name, info_.arch);
}

}  // namespace kjit::detail
