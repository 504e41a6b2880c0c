// The CPU that kernels are compiled for: the host's, detected once.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace kjit::cpu {

struct HostTarget {
  std::string triple;                 // "x86_64-unknown-linux-gnu"
  std::string cpu;                    // LLVM's name for it: "znver3", "sapphirerapids"
  std::vector<std::string> features;  // "+avx2", "-avx512f", ...: every feature LLVM detected,
                                      // less those left_out() names

  /// The features as LLVM's comma-separated string.
  [[nodiscard]] std::string feature_string() const;
};

/// The host's target, detected on first use.
const HostTarget& host_target();

/// Whether kernels are compiled without the detected feature `name` ("avx512fp16"), as its code
/// generation in the LLVM kjit links is known to be wrong: LLVM before 22 commuted the operands of
/// a masked half-precision compare (vcmpph with a mask) without swapping its predicate
/// (llvm/llvm-project#159723, fixed by #160304), so `a > b && c > d` on __half values could test
/// c < d. The AVX10 features imply AVX512-FP16 and go with it. Half precision then takes F16C's
/// conversions and single-precision arithmetic, which give the same results.
bool left_out(std::string_view name);

}  // namespace kjit::cpu
