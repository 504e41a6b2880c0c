#include "backends/kit/backend.hpp"

#include <kjit/error.hpp>

#include <fmt/format.h>

namespace kjit::backend {

Event::~Event() = default;
Stream::~Stream() = default;

void Stream::copy_to_device_now(std::uint64_t dst, const void* src, std::size_t bytes) {
  copy_to_device(dst, src, bytes);
  synchronize();
}

void Stream::copy_to_host_now(void* dst, std::uint64_t src, std::size_t bytes) {
  copy_to_host(dst, src, bytes);
  synchronize();
}
Module::~Module() = default;
const std::optional<std::string>& CompileRequest::signature(std::size_t i) const {
  static const std::optional<std::string> none;
  return i < kernel_signatures.size() ? kernel_signatures[i] : none;
}

std::string CompileRequest::kernel_label(std::size_t i) const {
  const auto& types = signature(i);
  return types ? kernel_names.at(i) + "(" + *types + ")" : kernel_names.at(i);
}

std::string CompileRequest::kernel_address(std::size_t i) const {
  return backend::kernel_address(kernel_names.at(i), signature(i));
}

std::string kernel_address(const std::string& name, const std::optional<std::string>& signature) {
  return signature ? "static_cast<void (*)(" + *signature + ")>(&" + name + ")" : "&" + name;
}

Graph::~Graph() = default;
Device::~Device() = default;
Compiler::~Compiler() = default;
Backend::~Backend() = default;

Compiler& Device::compiler_for(const CompileRequest& request) {
  return request.input == InputKind::bitcode ? bitcode_compiler() : compiler();
}

std::optional<std::string> block_problem(const DeviceInfo& device, const Dim3& b) {
  if (b.x == 0 || b.y == 0 || b.z == 0) {
    return fmt::format("block ({}, {}, {}) has a zero dimension", b.x, b.y, b.z);
  }
  const Dim3& mb = device.max_block;
  if (b.x > mb.x || b.y > mb.y || b.z > mb.z || b.volume() > device.max_threads_per_block) {
    return fmt::format(
        "block ({}, {}, {}) exceeds the device's limit of ({}, {}, {}) and {} threads", b.x, b.y,
        b.z, mb.x, mb.y, mb.z, device.max_threads_per_block);
  }
  return std::nullopt;
}

Function::Function(std::string name, const DeviceInfo& device, std::vector<ParamInfo> params,
                   std::size_t static_shared_bytes)
    : name_(std::move(name)),
      device_(device),
      params_(std::move(params)),
      static_shared_bytes_(static_shared_bytes) {}

Function::~Function() = default;

void Function::limit_block_threads(std::size_t threads) {
  if (threads != 0 && threads < device_.max_threads_per_block &&
      (!max_block_threads_ || threads < *max_block_threads_)) {
    max_block_threads_ = threads;
  }
}

std::optional<std::string> Function::block_problem(const Dim3& block) const {
  if (std::optional<std::string> problem = backend::block_problem(device_, block)) {
    return problem;
  }
  if (max_block_threads_ && block.volume() > *max_block_threads_) {
    return fmt::format(
        "blocks of {} threads exceed the {} this kernel was compiled for (its __launch_bounds__, "
        "or the registers it uses)",
        block.volume(), *max_block_threads_);
  }
  return std::nullopt;
}

void Function::launch(Stream& stream, const LaunchConfig& config, const void* const* args) {
  check_geometry(config);
  launch_impl(stream, config, args);
}

void Function::check_geometry(const LaunchConfig& config) const {
  const auto where = [&] { return fmt::format("kernel '{}' on {}", name_, device_.id()); };
  const Dim3& g = config.grid;
  const Dim3& b = config.block;
  if (g.x == 0 || g.y == 0 || g.z == 0) {
    throw LaunchError(
        fmt::format("kjit: {}: grid ({}, {}, {}) has a zero dimension", where(), g.x, g.y, g.z));
  }
  if (const std::optional<std::string> problem = block_problem(b)) {
    throw LaunchError(fmt::format("kjit: {}: {}", where(), *problem));
  }
  const Dim3& mg = device_.max_grid;
  if (g.x > mg.x || g.y > mg.y || g.z > mg.z) {
    throw LaunchError(
        fmt::format("kjit: {}: grid ({}, {}, {}) exceeds the device's limit of "
                    "({}, {}, {})",
                    where(), g.x, g.y, g.z, mg.x, mg.y, mg.z));
  }
  if (config.shared_bytes > device_.max_shared_bytes ||
      static_shared_bytes_ + config.shared_bytes > device_.max_shared_bytes) {
    throw LaunchError(
        fmt::format("kjit: {}: {} bytes of dynamic and {} of static shared memory "
                    "exceed the device's limit of {} bytes per block",
                    where(), config.shared_bytes, static_shared_bytes_, device_.max_shared_bytes));
  }
}

std::uint64_t Device::allocate(std::size_t bytes) {
  return bytes == 0 ? 0 : allocate_impl(bytes);
}

void Device::free(std::uint64_t address) noexcept {
  if (address != 0) {
    free_impl(address);
  }
}

std::uint64_t Device::allocate_managed(std::size_t bytes) {
  return bytes == 0 ? 0 : allocate_managed_impl(bytes);
}

void* Device::allocate_host(std::size_t bytes) {
  return bytes == 0 ? nullptr : allocate_host_impl(bytes);
}

void Device::free_host(void* pointer) noexcept {
  if (pointer != nullptr) {
    free_host_impl(pointer);
  }
}

}  // namespace kjit::backend
