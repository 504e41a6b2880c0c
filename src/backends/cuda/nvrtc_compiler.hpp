// NVRTC: kernel source -> CUBIN for a device's exact architecture (or PTX for the driver to
// finish, when the device is newer than NVRTC). Needs no GPU and no driver.
#pragma once

#include "backends/kit/backend.hpp"

#include <functional>
#include <mutex>
#include <string>
#include <vector>

namespace kjit::cuda {

struct NvrtcApi;

/// What NVRTC compiles for: "sm_90" (a CUBIN) or "compute_90" (PTX).
struct NvrtcTarget {
  int arch = 0;       // compute capability as major * 10 + minor: 90 for sm_90
  bool cubin = true;  // false: PTX, which the driver compiles when loading

  [[nodiscard]] std::string name() const;
};

/// The target for a device of compute capability `arch`: a CUBIN when NVRTC supports the arch,
/// else PTX of the newest architecture NVRTC supports below it. BackendError when none is.
NvrtcTarget target_for_device(const NvrtcApi& api, int arch);

/// The target kjit-warm names as "sm_90" (a CUBIN) or "compute_90" (PTX). ConfigError when
/// NVRTC does not support it.
NvrtcTarget parse_target(const NvrtcApi& api, const std::string& text);

/// NVRTC as a backend::Compiler. NVRTC and the target are resolved on first use, so that a
/// device can load NVRTC in the background.
class NvrtcCompiler : public backend::Compiler {
 public:
  using ApiSource = std::function<const NvrtcApi&()>;  // throws BackendError when unavailable
  using TargetChoice = std::function<NvrtcTarget(const NvrtcApi&)>;
  /// `label` names the device ("cuda:0") or the target offline in messages. `probe`, when not
  /// empty, says what `choose` depends on besides NVRTC ("a device of sm_90"): it enables
  /// identity_probe(). `loadable` is loadable_targets().
  NvrtcCompiler(ApiSource api, TargetChoice choose, std::string label, std::string probe = {},
                std::vector<std::string> loadable = {});
  backend::TargetIdentity identity() override;
  std::optional<std::string> identity_probe() override;
  std::vector<std::string> loadable_targets() override { return loadable_; }
  backend::Binary compile(const backend::CompileRequest& request) override;
  /// NVRTC 13 runs one compile at a time in a process (measured: 16 threads keep one core busy).
  const char* serial_library() const override { return "nvrtc"; }

 private:
  const NvrtcTarget& target(const NvrtcApi& api);
  ApiSource api_;
  TargetChoice choose_;
  std::string label_;
  std::string probe_;
  std::vector<std::string> loadable_;
  std::once_flag target_once_;
  NvrtcTarget target_;
};

/// Compiles `request` for `target`; `device` names the device in messages. Throws CompileError
/// (with the user's file and line) or KernelNotFoundError.
backend::Binary compile_with_nvrtc(const NvrtcApi& api, const backend::CompileRequest& request,
                                   const NvrtcTarget& target, const std::string& device);

/// "NVRTC 13.0": for messages and cache keys.
std::string nvrtc_identity(const NvrtcApi& api);

}  // namespace kjit::cuda
