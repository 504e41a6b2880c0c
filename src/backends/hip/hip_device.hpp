// One AMD GPU through the HIP runtime: managed memory, streams, code objects, and hipRTC for its
// target. Memory, waiting for the device and the names of its kernels are every GPU's
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
#include <mutex>
#include <string>

namespace kjit::hip {

class HipDevice final : public gpu::GpuDevice<HipVendor> {
 public:
  HipDevice(const HipApi& api, int ordinal, DeviceInfo info, AmdgpuTarget target);
  ~HipDevice() override;

  backend::Compiler& compiler() override { return compiler_; }
  backend::Compiler& bitcode_compiler() override { return bitcode_compiler_; }
  std::unique_ptr<backend::Module> load(const backend::Binary& binary) override;
  std::unique_ptr<backend::Stream> create_stream() override;
  void* native_handle() override;

  /// Makes this device current on the calling thread.
  void make_current();
  [[nodiscard]] const AmdgpuTarget& target() const noexcept { return target_; }

  void prefetch_managed(std::uint64_t address, std::size_t bytes, ManagedPlace to,
                        backend::Stream& stream) override;
  void advise_managed(std::uint64_t address, std::size_t bytes, ManagedAdvice advice) override;

 protected:
  std::uint64_t allocate_managed_impl(std::size_t bytes) override;

 private:
  int ordinal_;
  AmdgpuTarget target_;
  backend::LazyCompiler compiler_;          // hipRTC
  backend::LazyCompiler bitcode_compiler_;  // LLVM's AMDGPU code generator and lld
};

}  // namespace kjit::hip

// Instantiated once, in hip_device.cpp.
extern template class kjit::gpu::GpuDevice<kjit::hip::HipVendor>;
