// The CPU that kernels are compiled for: this machine's, detected once.
#pragma once

#include <string>
#include <vector>

namespace kjit::cpu {

struct HostTarget {
  std::string triple;                 // "x86_64-unknown-linux-gnu"
  std::string cpu;                    // LLVM's name for it: "znver3", "sapphirerapids"
  std::vector<std::string> features;  // "+avx2", "-avx512f", ...: every feature LLVM detected

  /// The features as LLVM's comma-separated string.
  [[nodiscard]] std::string feature_string() const;
};

/// This machine's target, detected on first use.
const HostTarget& host_target();

}  // namespace kjit::cpu
