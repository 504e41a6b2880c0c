// A loaded GPU module and the launch of its kernels, for any vendor V (gpu_vendor.hpp). What a
// kernel's parameters and limits are differs by vendor (the CUDA driver says; a HIP code object's
// metadata says): each vendor's module finds its kernels (<vendor>_module.cpp), and instantiates
// these templates there.
#pragma once

#include "backends/gpu/gpu_stream.hpp"
#include "backends/kit/backend.hpp"
#include "backends/kit/device_variables.hpp"
#include "support/logging.hpp"

#include <kjit/types.hpp>

#include <fmt/format.h>

#include <atomic>
#include <cstddef>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace kjit::gpu {

/// A loaded module: its device variables, and its unloading. Kernels are the vendor's to find
/// (function()).
template <class V>
class GpuModule : public backend::Module {
 public:
  using Device = typename V::Device;

  /// `variables`: those the binary's symbol table (or PTX text) declares.
  GpuModule(Device& device, typename V::Module module, std::string program,
            std::vector<backend::DeviceVariable> variables)
      : device_(device),
        module_(module),
        program_(std::move(program)),
        variables_(std::move(variables)) {}
  /// Waits for the device's work (a kernel of this module may still run), then unloads.
  ~GpuModule() override;
  GpuModule(const GpuModule&) = delete;
  GpuModule& operator=(const GpuModule&) = delete;
  std::vector<backend::Variable> variables() override;

 protected:
  [[nodiscard]] Device& device() const noexcept { return device_; }
  [[nodiscard]] typename V::Module handle() const noexcept { return module_; }
  [[nodiscard]] const std::string& program() const noexcept { return program_; }

 private:
  Device& device_;
  typename V::Module module_;
  std::string program_;
  std::vector<backend::DeviceVariable> variables_;
};

/// A kernel of a loaded module, launched on a GpuStream of its device.
template <class V>
class GpuFunction : public backend::Function {
 public:
  using Device = typename V::Device;

  GpuFunction(Device& device, typename V::Function function, const std::string& name,
              std::vector<backend::ParamInfo> params, std::size_t static_shared,
              std::size_t max_threads)
      : backend::Function(name, device.info(), std::move(params), static_shared),
        device_(device),
        function_(function),
        label_(device.intern(name)) {
    limit_block_threads(max_threads);
  }

 protected:
  void launch_impl(backend::Stream& stream, const LaunchConfig& config,
                   const void* const* args) override;

 private:
  Device& device_;
  typename V::Function function_;
  const std::string* label_;  // the kernel's name, interned by the device
  // The dynamic shared memory the kernel may use without asking (V::kDynamicSharedOptIn).
  std::atomic<std::size_t> dynamic_shared_allowed_{V::kDynamicSharedDefault};
};

template <class V>
GpuModule<V>::~GpuModule() {
  const typename V::Api& api = device_.api();
  try {
    device_.make_current();
    auto r = V::device_synchronize(api)();
    if (r != V::kSuccess) {
      detail::log().warn("unloading '{}' from {}: earlier work failed: {}", program_, device_.id(),
                         V::describe(api, r));
    }
    r = V::module_unload(api)(module_);
    if (r != V::kSuccess) {
      detail::log().warn("{} of '{}' on {}: {}", V::module_unload.name, program_, device_.id(),
                         V::describe(api, r));
    }
  } catch (const std::exception& e) {
    detail::log().warn("unloading '{}' from {}: {}", program_, device_.id(), e.what());
  }
}

template <class V>
std::vector<backend::Variable> GpuModule<V>::variables() {
  const typename V::Api& api = device_.api();
  device_.make_current();
  std::vector<backend::Variable> found;
  for (const backend::DeviceVariable& v : variables_) {
    typename V::DevicePointer address{};
    std::size_t size = 0;
    const auto r = V::module_get_global(api)(&address, &size, module_, v.symbol.c_str());
    if (r == V::kNotFound) {
      continue;  // a symbol the driver does not export (a local one)
    }
    V::check(api, r, V::module_get_global.name,
             fmt::format("variable '{}' of '{}' on {}", v.name, program_, device_.id()));
    found.push_back({v.name, V::address(address), size});
  }
  return found;
}

template <class V>
void GpuFunction<V>::launch_impl(backend::Stream& stream, const LaunchConfig& config,
                                 const void* const* args) {
  auto& s = static_cast<GpuStream<V>&>(stream);
  const typename V::Stream handle = s.handle();  // also makes the device current
  const typename V::Api& api = device_.api();
  if constexpr (V::kDynamicSharedOptIn) {
    if (config.shared_bytes > dynamic_shared_allowed_.load(std::memory_order_relaxed)) {
      // More dynamic shared memory than the default needs the kernel's opt-in; the limit check
      // in Function::launch already holds it to what the device allows.
      V::check(api,
               V::function_set_attribute(api)(function_, V::kMaxDynamicSharedAttribute,
                                              static_cast<int>(config.shared_bytes)),
               V::function_set_attribute.name, *label_, Failure::launch);
      dynamic_shared_allowed_.store(config.shared_bytes, std::memory_order_relaxed);
    }
  }
  const Dim3& g = config.grid;
  const Dim3& b = config.block;
  const auto r = V::launch_kernel(api)(function_, g.x, g.y, g.z, b.x, b.y, b.z,
                                       static_cast<unsigned>(config.shared_bytes), handle,
                                       const_cast<void**>(args), nullptr);
  if (r != V::kSuccess) {
    V::fail(api, V::launch_kernel.name, r, fmt::format("kernel '{}' on {}", *label_, device_.id()),
            Failure::launch);
  }
  s.note_launch(label_);
  s.note_captured_launch();
}

}  // namespace kjit::gpu
