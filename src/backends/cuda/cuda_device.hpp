// One NVIDIA GPU: its primary context (retained in the background when the device opens, so that
// the first compile overlaps it), pinned staging, managed memory, modules, streams, and NVRTC for
// its architecture (loaded on first use). Memory, waiting for the device and the names of its
// kernels are every GPU's (backends/gpu/gpu_device.hpp).
#pragma once

#include "backends/cuda/cuda_driver_api.hpp"
#include "backends/cuda/cuda_vendor.hpp"
#include "backends/cuda/nvrtc_compiler.hpp"
#include "backends/gpu/gpu_device.hpp"
#include "backends/kit/backend.hpp"
#include "backends/kit/lazy_compiler.hpp"

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
  backend::Compiler& bitcode_compiler() override { return bitcode_compiler_; }
  std::unique_ptr<backend::Module> load(const backend::Binary& binary) override;
  std::unique_ptr<backend::Stream> create_stream() override;
  void* native_handle() override;

  /// Makes the device's primary context current on the calling thread (waiting for it to be
  /// created, and rethrowing if that failed).
  void make_current();
  /// Pinned buffers for large synchronous copies, made on first use.
  PinnedStaging& staging();
  /// True when the driver knows `pointer` as page-locked host memory (kjit's HostBuffer, or memory
  /// another library allocated or registered): the device copies from it directly.
  bool is_pinned(const void* pointer);

  void prefetch_managed(std::uint64_t address, std::size_t bytes, ManagedPlace to,
                        backend::Stream& stream) override;
  void advise_managed(std::uint64_t address, std::size_t bytes, ManagedAdvice advice) override;

 protected:
  std::uint64_t allocate_managed_impl(std::size_t bytes) override;

 private:
  const NvrtcApi& nvrtc();

  CUdevice device_;
  int arch_;
  std::shared_future<CUcontext> context_;
  std::atomic<CUcontext> context_ready_{nullptr};  // context_'s value once it has one
  NvrtcCompiler compiler_;
  backend::LazyCompiler bitcode_compiler_;  // LLVM's NVPTX code generator
  std::once_flag staging_once_;
  std::unique_ptr<PinnedStaging> staging_;
};

}  // namespace kjit::cuda

// Instantiated once, in cuda_device.cpp.
extern template class kjit::gpu::GpuDevice<kjit::cuda::CudaVendor>;
