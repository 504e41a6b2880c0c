// One NVIDIA GPU: its primary context (retained in the background when the device opens, so that
// the first compile overlaps it), pinned staging, modules, and NVRTC for its architecture (loaded
// on first use). Memory, streams, waiting for the device and the names of its kernels are every
// GPU's (backends/gpu/gpu_device.hpp).
#pragma once

#include "backends/cuda/cuda_driver_api.hpp"
#include "backends/cuda/cuda_vendor.hpp"
#include "backends/cuda/nvrtc_compiler.hpp"
#include "backends/gpu/gpu_device.hpp"
#include "backends/kit/backend.hpp"

#include <atomic>
#include <future>
#include <memory>
#include <mutex>
#include <string>

namespace kjit::cuda {

struct NvrtcApi;
class PinnedStaging;

class CudaDevice final : public gpu::GpuDevice<CudaVendor> {
 public:
  CudaDevice(const DriverApi& api, CUdevice device, DeviceInfo info, int arch);
  ~CudaDevice() override;

  backend::Compiler& compiler() override { return compiler_; }
  std::unique_ptr<backend::Module> load(const backend::Binary& binary) override;

  /// Makes the device's primary context current on the calling thread (waiting for it to be
  /// created, and rethrowing if that failed).
  void make_current();
  /// Pinned buffers for large synchronous copies, made on first use.
  PinnedStaging& staging();
  /// True when the driver knows `pointer` as page-locked host memory (kjit's HostBuffer, or memory
  /// another library allocated or registered): the device copies from it directly.
  bool is_pinned(const void* pointer);

 protected:
  /// Refuses a device without managed memory, then allocates as every GPU does.
  std::uint64_t allocate_managed_impl(std::size_t bytes) override;

 private:
  const NvrtcApi& nvrtc();

  std::shared_future<CUcontext> context_;
  std::atomic<CUcontext> context_ready_{nullptr};  // context_'s value once it has one
  NvrtcCompiler compiler_;
  std::once_flag staging_once_;
  std::unique_ptr<PinnedStaging> staging_;
};

}  // namespace kjit::cuda

// Instantiated once, in cuda_device.cpp.
extern template class kjit::gpu::GpuDevice<kjit::cuda::CudaVendor>;
