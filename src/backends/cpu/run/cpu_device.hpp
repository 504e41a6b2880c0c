// The CPU as a kjit device: host memory, streams run by dispatcher threads, kernels compiled by
// Clang and run by the executor.
#pragma once

#include "backends/cpu/compile/cpu_compiler.hpp"
#include "backends/cpu/compile/cpu_object_linker.hpp"
#include "backends/cpu/run/cpu_executor.hpp"
#include "backends/kit/backend.hpp"

#include <memory>
#include <mutex>
#include <set>

namespace kjit::cpu {

class CpuStream;

class CpuDevice : public backend::Device {
 public:
  /// perf_map: list loaded kernels in /tmp/perf-<pid>.map (KJIT_PERF_MAP); pin: bind each worker
  /// thread to a core (KJIT_CPU_PIN).
  CpuDevice(DeviceInfo info, unsigned threads, bool perf_map, bool pin);
  [[nodiscard]] std::string unusable_reason() const override { return executor_.unusable_reason(); }
  ~CpuDevice() override;

  [[nodiscard]] const DeviceInfo& info() const override { return info_; }
  backend::Compiler& compiler() override { return compiler_; }
  /// The same compiler: it reads host bitcode as well as source.
  backend::Compiler& bitcode_compiler() override { return compiler_; }
  std::unique_ptr<backend::Module> load(const backend::Binary& binary) override;
  std::unique_ptr<backend::Stream> create_stream() override;
  void synchronize() override;
  void* native_handle() override { return nullptr; }
  // Managed memory is the device's memory, which is host memory: nothing moves, nothing to hint.
  void prefetch_managed(std::uint64_t /*address*/, std::size_t /*bytes*/, ManagedPlace /*to*/,
                        backend::Stream& /*stream*/) override {}
  void advise_managed(std::uint64_t /*address*/, std::size_t /*bytes*/,
                      ManagedAdvice /*advice*/) override {}

 protected:
  std::uint64_t allocate_impl(std::size_t bytes) override;
  void free_impl(std::uint64_t address) noexcept override;
  void* allocate_host_impl(std::size_t bytes) override;  // on the CPU, host memory is device memory
  void free_host_impl(void* pointer) noexcept override;
  std::uint64_t allocate_managed_impl(std::size_t bytes) override { return allocate_impl(bytes); }

 private:
  friend class TrackedStream;
  ObjectLinker& linker();

  DeviceInfo info_;
  CpuCompiler compiler_;
  CpuExecutor executor_;
  bool perf_map_;
  std::once_flag linker_once_;
  std::unique_ptr<ObjectLinker> linker_;
  std::mutex streams_mutex_;
  std::set<CpuStream*> streams_;
};

}  // namespace kjit::cpu
