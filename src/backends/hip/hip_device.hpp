// One AMD GPU through the HIP runtime: memory, streams, code objects, and hipRTC for its target.
// HIP keeps a current device per thread: every call that needs it sets it first.
#pragma once

#include "backends/hip/amdgpu_target.hpp"
#include "backends/hip/hip_runtime_api.hpp"
#include "backends/kit/backend.hpp"
#include "backends/kit/launch_labels.hpp"
#include "backends/kit/lazy_compiler.hpp"

#include <memory>
#include <mutex>
#include <string>

namespace kjit::hip {

class HipDevice : public backend::Device {
 public:
  HipDevice(const HipApi& api, int ordinal, DeviceInfo info, AmdgpuTarget target);
  ~HipDevice() override;

  [[nodiscard]] const DeviceInfo& info() const override { return info_; }
  backend::Compiler& compiler() override { return compiler_; }
  backend::Compiler& bitcode_compiler() override { return bitcode_compiler_; }
  std::unique_ptr<backend::Module> load(const backend::Binary& binary) override;
  std::unique_ptr<backend::Stream> create_stream() override;
  void synchronize() override;
  void* native_handle() override;

  /// Makes this device current on the calling thread.
  void make_current();
  [[nodiscard]] const HipApi& api() const noexcept { return api_; }
  [[nodiscard]] const std::string& id() const noexcept { return id_; }
  [[nodiscard]] const AmdgpuTarget& target() const noexcept { return target_; }

  /// A stable copy of a kernel's name for messages about asynchronous failures.
  const std::string* intern(const std::string& label) { return labels_.intern(label); }
  void note_launch(const std::string* kernel) noexcept { last_launch_.note(kernel); }
  [[nodiscard]] std::string last_launch() const { return last_launch_.describe(); }

  void prefetch_managed(std::uint64_t address, std::size_t bytes, ManagedPlace to,
                        backend::Stream& stream) override;
  void advise_managed(std::uint64_t address, std::size_t bytes, ManagedAdvice advice) override;

 protected:
  std::uint64_t allocate_impl(std::size_t bytes) override;
  void free_impl(std::uint64_t address) noexcept override;
  void* allocate_host_impl(std::size_t bytes) override;
  void free_host_impl(void* pointer) noexcept override;
  std::uint64_t allocate_managed_impl(std::size_t bytes) override;

 private:
  const HipApi& api_;
  int ordinal_;
  DeviceInfo info_;
  AmdgpuTarget target_;
  std::string id_;
  backend::LazyCompiler compiler_;          // hipRTC
  backend::LazyCompiler bitcode_compiler_;  // LLVM's AMDGPU code generator and lld
  backend::KernelLabels labels_;
  backend::LastLaunch last_launch_;
};

}  // namespace kjit::hip
