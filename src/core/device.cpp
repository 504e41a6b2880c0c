// kjit::Device: selection and the device-wide operations of the public API.
#include "core/device_impl.hpp"
#include "core/device_registry.hpp"
#include "support/environment.hpp"

#include <kjit/device.hpp>
#include <kjit/error.hpp>
#include <kjit/stream.hpp>

namespace kjit {

std::vector<Device> Device::all() {
  std::vector<Device> out;
  for (const auto& d : detail::DeviceRegistry::instance().devices()) {
    out.emplace_back(d);
  }
  return out;
}

Device Device::select() {
  const std::optional<std::string> spec = detail::environment::device_spec();
  if (!spec) {
    return Device(detail::DeviceRegistry::instance().select(std::nullopt));
  }
  return Device(detail::DeviceRegistry::instance().select(std::string_view(*spec)));
}

Device Device::select(std::string_view spec) {
  return Device(detail::DeviceRegistry::instance().select(spec));
}

const std::shared_ptr<detail::DeviceImpl>& Device::impl() const {
  if (!impl_) {
    throw UsageError(
        "kjit: use of an empty Device handle; get one from Device::select() or "
        "Device::all()");
  }
  return impl_;
}

const DeviceInfo& Device::info() const {
  return impl()->info();
}

Stream Device::default_stream() const {
  return Stream(impl()->default_stream());
}

Stream Device::create_stream() const {
  return Stream(impl()->create_stream());
}

void Device::synchronize() const {
  impl()->synchronize();
}

void* Device::native_handle() const {
  return impl()->backend().native_handle();
}

}  // namespace kjit
