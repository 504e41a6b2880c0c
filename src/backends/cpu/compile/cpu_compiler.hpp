// The CPU backend's compile pipeline: Clang front end -> kjit lowering -> O3 -> object file.
#pragma once

#include "backends/cpu/compile/cpu_host_target.hpp"
#include "backends/kit/backend.hpp"

#include <mutex>
#include <string>

namespace kjit::cpu {

/// Compiles a program for `target`; `device` names the device in messages. `split_barriers`:
/// barrier kernels run from barrier to barrier (true) or on fibers (cpu_kernel_lowering.hpp).
backend::Binary compile_program(const backend::CompileRequest& request, const HostTarget& target,
                                const std::string& device, bool split_barriers);

/// The CPU backend's compiler: for this host's CPU, with or without a device.
class CpuCompiler : public backend::Compiler {
 public:
  /// `label` names the device in messages ("cpu:0"), or the target offline ("cpu").
  explicit CpuCompiler(std::string label) : label_(std::move(label)) {}
  backend::TargetIdentity identity() override;
  backend::Binary compile(const backend::CompileRequest& request) override;

 private:
  /// KJIT_CPU_BARRIERS, read once: the cache key and the compiles must agree on it.
  bool split_barriers();

  std::string label_;
  std::once_flag barriers_once_;
  bool split_barriers_ = true;
};

}  // namespace kjit::cpu
