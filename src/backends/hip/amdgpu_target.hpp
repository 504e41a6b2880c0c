// AMD GPU target IDs ("gfx90a", "gfx90a:sramecc+:xnack-"): parsed strictly and checked against
// what a processor supports, because hipRTC (ROCm 5.2) aborts the process on an arch or feature
// it does not know. Nothing here loads a library.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace kjit::hip {

struct AmdgpuTarget {
  std::string processor;        // "gfx90a"
  std::optional<bool> sramecc;  // ":sramecc+" / ":sramecc-"; unset: either
  std::optional<bool> xnack;    // ":xnack+" / ":xnack-"; unset: either

  /// The canonical target ID, features in alphabetical order: "gfx90a:sramecc+:xnack-".
  [[nodiscard]] std::string id() const;
};

/// Parses a target ID. ConfigError naming the problem for anything that is not "gfx" plus hex
/// digits, with at most one sramecc and one xnack setting that the processor supports.
AmdgpuTarget parse_amdgpu_target(std::string_view text);

/// The target of a device from its gcnArchName. A feature the processor does not support is
/// dropped (ROCm reports "xnack-" for some that have none); anything else malformed is a
/// BackendError.
AmdgpuTarget device_amdgpu_target(std::string_view gcn_arch_name);

/// Whether the processor can be switched to sramecc / xnack (LLVM's AMDGPUUsage table).
bool supports_sramecc(std::string_view processor);
bool supports_xnack(std::string_view processor);

/// Whether `processor` ("gfx90a") is one of `known` (a compiler's list).
bool is_known(const std::vector<std::string>& known, std::string_view processor);

}  // namespace kjit::hip
