#include "backends/cpu/compile/cpu_host_target.hpp"

#include <llvm/ADT/StringMap.h>
#include <llvm/ADT/StringRef.h>
#include <llvm/Config/llvm-config.h>
#include <llvm/TargetParser/Host.h>

#include <algorithm>

namespace kjit::cpu {

std::string HostTarget::feature_string() const {
  std::string out;
  for (const std::string& f : features) {
    if (!out.empty()) {
      out += ',';
    }
    out += f;
  }
  return out;
}

bool left_out(std::string_view name) {
#if LLVM_VERSION_MAJOR < 22
  return name == "avx512fp16" || name.starts_with("avx10");
#else
  (void)name;
  return false;
#endif
}

const HostTarget& host_target() {
  static const HostTarget target = [] {
    HostTarget t;
    t.triple = llvm::sys::getProcessTriple();
    t.cpu = llvm::sys::getHostCPUName().str();
    for (const auto& entry : llvm::sys::getHostCPUFeatures()) {
      std::string feature(entry.getValue() && !left_out(entry.getKey()) ? "+" : "-");
      feature += entry.getKey();
      t.features.push_back(std::move(feature));
    }
    std::sort(t.features.begin(), t.features.end());  // a stable order (the map's is not)
    return t;
  }();
  return target;
}

}  // namespace kjit::cpu
