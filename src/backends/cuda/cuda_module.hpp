// A loaded CUBIN or PTX module and its kernels.
#pragma once

#include "backends/cuda/cuda_types.hpp"
#include "backends/kit/backend.hpp"
#include "backends/kit/device_variables.hpp"

#include <atomic>
#include <memory>
#include <string>

namespace kjit::cuda {

class CudaDevice;

class CudaModule : public backend::Module {
 public:
  /// `variables`: those the binary's symbol table (or PTX text) declares.
  CudaModule(CudaDevice& device, CUmodule module, std::string program,
             std::vector<backend::DeviceVariable> variables)
      : device_(device),
        module_(module),
        program_(std::move(program)),
        variables_(std::move(variables)) {}
  /// Waits for the device's work (a kernel of this module may still run), then unloads.
  ~CudaModule() override;
  std::unique_ptr<backend::Function> function(const std::string& symbol,
                                              const std::string& name) override;
  std::vector<backend::Variable> variables() override;

 private:
  CudaDevice& device_;
  CUmodule module_;
  std::string program_;
  std::vector<backend::DeviceVariable> variables_;
};

class CudaFunction : public backend::Function {
 public:
  CudaFunction(CudaDevice& device, CUfunction function, const std::string& name,
               std::vector<backend::ParamInfo> params, std::size_t static_shared,
               std::size_t max_threads);

 protected:
  void launch_impl(backend::Stream& stream, const LaunchConfig& config,
                   const void* const* args) override;

 private:
  CudaDevice& device_;
  CUfunction function_;
  const std::string* label_;  // the kernel's name, interned by the device
  std::atomic<std::size_t> dynamic_shared_allowed_;
};

}  // namespace kjit::cuda
