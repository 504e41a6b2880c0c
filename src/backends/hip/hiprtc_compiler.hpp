// hipRTC: kernel source -> AMD GPU code object for one target ID. Needs no GPU. The processor is
// checked against comgr's list before anything reaches hipRTC, which aborts the process on one
// it does not know.
#pragma once

#include "backends/hip/amdgpu_target.hpp"
#include "backends/kit/backend.hpp"

#include <string>

namespace kjit::hip {

struct HiprtcApi;

class HiprtcCompiler : public backend::Compiler {
 public:
  /// `label` names the device ("hip:0") or the target offline in messages.
  HiprtcCompiler(const HiprtcApi& api, AmdgpuTarget target, std::string label);
  backend::TargetIdentity identity() override;
  backend::Binary compile(const backend::CompileRequest& request) override;

 private:
  const HiprtcApi& api_;
  AmdgpuTarget target_;
  std::string label_;
};

/// Throws ConfigError when hipRTC cannot compile for `target`, naming what it can. `label` says
/// where the target came from ("hip:0", "hip:gfx942").
void check_hiprtc_supports(const HiprtcApi& api, const AmdgpuTarget& target,
                           const std::string& label);

/// Whether this hipRTC has cooperative groups of its own, built in (ROCm 5.7 has, 5.2 has not):
/// then kjit's <cooperative_groups.h> steps aside (a second definition would not compile). Found
/// once per hipRTC, by compiling a use of one of its types for `target`.
bool has_builtin_cooperative_groups(const HiprtcApi& api, const AmdgpuTarget& target);

/// "hipRTC 9.0 (libamdhip64.so.5)": for messages.
std::string hiprtc_identity(const HiprtcApi& api);

}  // namespace kjit::hip
