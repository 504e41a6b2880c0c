// The CPU backend's compile pipeline: Clang front end -> kjit lowering -> O3 -> object file.
#pragma once

#include "backends/backend.hpp"
#include "backends/cpu/cpu_host_target.hpp"

#include <string>

namespace kjit::cpu {

/// Compiles a program for `target`; `device` names the device in messages.
backend::Binary compile_program(const backend::CompileRequest& request, const HostTarget& target,
                                const std::string& device);

/// The CPU backend's compiler: for this host's CPU, with or without a device.
class CpuCompiler : public backend::Compiler {
 public:
  /// `label` names the device in messages ("cpu:0"), or the target offline ("cpu").
  explicit CpuCompiler(std::string label) : label_(std::move(label)) {}
  backend::TargetIdentity identity() override;
  backend::Binary compile(const backend::CompileRequest& request) override;

 private:
  std::string label_;
};

}  // namespace kjit::cpu
