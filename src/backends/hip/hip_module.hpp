// A loaded code object and its kernels. Parameter layouts come from the code object's metadata.
#pragma once

#include "backends/hip/code_object.hpp"
#include "backends/hip/hip_types.hpp"
#include "backends/kit/backend.hpp"
#include "backends/kit/device_variables.hpp"

#include <memory>
#include <string>

namespace kjit::hip {

class HipDevice;

class HipModule : public backend::Module {
 public:
  /// `variables`: those the code object's symbol table defines.
  HipModule(HipDevice& device, hipModule_t module, std::string program, CodeObject code,
            std::vector<backend::DeviceVariable> variables)
      : device_(device),
        module_(module),
        program_(std::move(program)),
        code_(std::move(code)),
        variables_(std::move(variables)) {}
  /// Waits for the device's work (a kernel of this module may still run), then unloads.
  ~HipModule() override;
  std::unique_ptr<backend::Function> function(const std::string& symbol,
                                              const std::string& name) override;
  std::vector<backend::Variable> variables() override;

 private:
  HipDevice& device_;
  hipModule_t module_;
  std::string program_;
  CodeObject code_;
  std::vector<backend::DeviceVariable> variables_;
};

class HipFunction : public backend::Function {
 public:
  HipFunction(HipDevice& device, hipFunction_t function, const std::string& name,
              std::vector<backend::ParamInfo> params, std::size_t static_shared,
              std::size_t max_threads);

 protected:
  void launch_impl(backend::Stream& stream, const LaunchConfig& config,
                   const void* const* args) override;

 private:
  HipDevice& device_;
  hipFunction_t function_;
  const std::string* label_;  // the kernel's name, interned by the device
};

}  // namespace kjit::hip
