// The CPU backend's compile pipeline: Clang front end -> kjit lowering -> O3 -> object file.
#pragma once

#include "backends/cpu/compile/cpu_host_target.hpp"
#include "backends/kit/backend.hpp"

#include <mutex>
#include <string>

namespace kjit::cpu {

/// How the CPU backend runs what synchronises, as the environment chose (read once: the cache key
/// and the compiles must agree on it).
struct CpuModes {
  bool split_barriers = true;    // barrier kernels from barrier to barrier, or on fibers
  bool warps_as_vectors = true;  // warp shuffles of lanes in step as vectors (cpu_warp_lanes.hpp)
};

/// Compiles a program for `target`; `device` names the device in messages.
backend::Binary compile_program(const backend::CompileRequest& request, const HostTarget& target,
                                const std::string& device, const CpuModes& modes);

/// The CPU backend's compiler: for this host's CPU, with or without a device.
class CpuCompiler : public backend::Compiler {
 public:
  /// `label` names the device in messages ("cpu:0"), or the target offline ("cpu").
  explicit CpuCompiler(std::string label) : label_(std::move(label)) {}
  backend::TargetIdentity identity() override;
  backend::Binary compile(const backend::CompileRequest& request) override;

 private:
  /// KJIT_CPU_BARRIERS and KJIT_CPU_WARPS, read once.
  const CpuModes& modes();

  std::string label_;
  std::once_flag modes_once_;
  CpuModes modes_;
};

}  // namespace kjit::cpu
