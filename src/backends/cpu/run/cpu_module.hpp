// A loaded CPU object and its kernels.
#pragma once

#include "backends/cpu/compile/cpu_object_linker.hpp"
#include "backends/cpu/run/cpu_executor.hpp"
#include "backends/kit/backend.hpp"
#include "backends/kit/device_variables.hpp"

#include <memory>
#include <string>

namespace kjit::cpu {

class LaunchRecords;

class CpuModule : public backend::Module {
 public:
  /// `variables`: the device variables the object defines (its symbol table's).
  CpuModule(const DeviceInfo& device, CpuExecutor& executor, std::shared_ptr<LinkedObject> code,
            std::vector<backend::DeviceVariable> variables)
      : device_(device),
        executor_(executor),
        code_(std::move(code)),
        variables_(std::move(variables)) {}
  /// `symbol` is the entry number the compiler gave the kernel (Binary::kernel_symbols).
  std::unique_ptr<backend::Function> function(const std::string& symbol,
                                              const std::string& name) override;
  std::vector<backend::Variable> variables() override;

 private:
  const DeviceInfo& device_;
  CpuExecutor& executor_;
  std::shared_ptr<LinkedObject> code_;
  std::vector<backend::DeviceVariable> variables_;
};

class CpuFunction : public backend::Function {
 public:
  struct Entries {
    BlockEntry block = nullptr;
    ThreadEntry thread = nullptr;
    RangeEntry range = nullptr;              // ranges of threads (cpu_thread_ranges.hpp)
    std::size_t frame_bytes_per_thread = 0;  // a block entry split at its barriers
    bool yields = false;                     // a block entry that can take turns
    bool warp = false;                       // needs a warp area (kjit_cpu_block.warp)
    bool flush_denormals = false;            // compiled with fast math
  };
  CpuFunction(std::string name, const DeviceInfo& device, std::vector<backend::ParamInfo> params,
              std::size_t argument_bytes, std::size_t static_shared, Entries entries,
              CpuExecutor& executor, std::shared_ptr<LinkedObject> code);

 protected:
  void launch_impl(backend::Stream& stream, const LaunchConfig& config,
                   const void* const* args) override;

 private:
  Entries entries_;
  CpuExecutor& executor_;
  std::shared_ptr<LaunchRecords> records_;
};

}  // namespace kjit::cpu
