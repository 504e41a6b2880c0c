// One NVIDIA GPU: its primary context (retained in the background when the device opens, so that
// the first compile overlaps it), memory, streams, modules, and NVRTC for its architecture
// (loaded on first use).
#pragma once

#include "backends/cuda/cuda_driver_api.hpp"
#include "backends/cuda/nvrtc_compiler.hpp"
#include "backends/kit/backend.hpp"
#include "backends/kit/launch_labels.hpp"
#include "backends/kit/lazy_compiler.hpp"

#include <atomic>
#include <future>
#include <memory>
#include <mutex>
#include <string>

namespace kjit::cuda {

struct NvrtcApi;
class PinnedStaging;

class CudaDevice : public backend::Device {
 public:
  CudaDevice(const DriverApi& api, CUdevice device, DeviceInfo info, int arch);
  ~CudaDevice() override;

  [[nodiscard]] const DeviceInfo& info() const override { return info_; }
  backend::Compiler& compiler() override { return compiler_; }
  backend::Compiler& bitcode_compiler() override { return bitcode_compiler_; }
  std::unique_ptr<backend::Module> load(const backend::Binary& binary) override;
  std::unique_ptr<backend::Stream> create_stream() override;
  void synchronize() override;
  void* native_handle() override;

  /// Makes the device's primary context current on the calling thread (waiting for it to be
  /// created, and rethrowing if that failed).
  void make_current();
  [[nodiscard]] const DriverApi& api() const noexcept { return api_; }
  /// Pinned buffers for large synchronous copies, made on first use.
  PinnedStaging& staging();
  /// True when the driver knows `pointer` as page-locked host memory (kjit's HostBuffer, or memory
  /// another library allocated or registered): the device copies from it directly.
  bool is_pinned(const void* pointer);
  [[nodiscard]] const std::string& id() const noexcept { return id_; }

  /// A stable copy of `label` (a kernel's name) that lives as long as the device, so that the
  /// launch path can record the last kernel launched with one atomic store.
  const std::string* intern(const std::string& label) { return labels_.intern(label); }
  /// The last kernel launched on this device, for messages about asynchronous failures.
  void note_launch(const std::string* kernel) noexcept { last_launch_.note(kernel); }
  [[nodiscard]] std::string last_launch() const { return last_launch_.describe(); }

  void prefetch_managed(std::uint64_t address, std::size_t bytes, ManagedPlace to,
                        backend::Stream& stream) override;
  void advise_managed(std::uint64_t address, std::size_t bytes, ManagedAdvice advice) override;

 protected:
  std::uint64_t allocate_impl(std::size_t bytes) override;
  std::uint64_t allocate_managed_impl(std::size_t bytes) override;
  void free_impl(std::uint64_t address) noexcept override;
  void* allocate_host_impl(std::size_t bytes) override;
  void free_host_impl(void* pointer) noexcept override;

 private:
  const NvrtcApi& nvrtc();

  const DriverApi& api_;
  CUdevice device_;
  DeviceInfo info_;
  int arch_;
  std::string id_;
  std::shared_future<CUcontext> context_;
  std::atomic<CUcontext> context_ready_{nullptr};  // context_'s value once it has one
  NvrtcCompiler compiler_;
  backend::LazyCompiler bitcode_compiler_;  // LLVM's NVPTX code generator
  backend::KernelLabels labels_;
  backend::LastLaunch last_launch_;
  std::once_flag staging_once_;
  std::unique_ptr<PinnedStaging> staging_;
};

}  // namespace kjit::cuda
