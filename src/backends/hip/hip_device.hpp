// One AMD GPU through the HIP runtime: code objects, and hipRTC for its target. Memory, streams,
// waiting for the device and the names of its kernels are every GPU's
// (backends/gpu/gpu_device.hpp). HIP keeps a current device per thread: every call that needs it
// sets it first.
#pragma once

#include "backends/gpu/gpu_device.hpp"
#include "backends/hip/amdgpu_target.hpp"
#include "backends/hip/hip_runtime_api.hpp"
#include "backends/hip/hip_vendor.hpp"
#include "backends/kit/backend.hpp"
#include "backends/kit/lazy_compiler.hpp"

#include <memory>
#include <string>

namespace kjit::hip {

class HipDevice final : public gpu::GpuDevice<HipVendor> {
 public:
  HipDevice(const HipApi& api, int ordinal, DeviceInfo info, AmdgpuTarget target);

  backend::Compiler& compiler() override { return compiler_; }
  std::unique_ptr<backend::Module> load(const backend::Binary& binary) override;

  /// Makes this device current on the calling thread.
  void make_current();
  [[nodiscard]] const AmdgpuTarget& target() const noexcept { return target_; }

 private:
  AmdgpuTarget target_;
  backend::LazyCompiler compiler_;  // hipRTC
};

}  // namespace kjit::hip

// Instantiated once, in hip_device.cpp.
extern template class kjit::gpu::GpuDevice<kjit::hip::HipVendor>;
