// LLVM's O3 pipeline and x86 code generation: lowered kernel IR -> a relocatable ELF object,
// the CPU backend's binary (what the disk cache stores and ORC loads).
#pragma once

#include "backends/cpu/compile/cpu_frontend.hpp"
#include "backends/cpu/compile/cpu_host_target.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace llvm {
class Module;
}  // namespace llvm

namespace kjit::cpu {

struct CodegenRequest {
  std::string program;  // for messages
  std::string device;   // for messages
  bool fast_math = false;
  bool debug = false;                // for a debugger
  bool check_memory = false;         // checked mode (cpu_access_checks.hpp)
  std::vector<HostCall> host_calls;  // where the program uses host-only functions

  /// O0 pipeline and code generation: for a debugger, every variable where the source put it.
  /// Checked kernels are optimised: each access has its check call before O3 runs, and a call
  /// that may stop the kernel is neither dropped nor merged (accesses may be, their checks stay).
  [[nodiscard]] bool unoptimised() const { return debug; }
};

/// Optimises `module` at O3 for `target` (O0 for a debug request). Throws CompileError when the
/// optimised code still calls a function that neither the program nor the allowed C library
/// functions define (cpu_runtime_symbols.hpp).
void optimize(llvm::Module& module, const HostTarget& target, const CodegenRequest& request);

/// Emits an optimised module as an ELF object file.
std::vector<std::uint8_t> emit_object(llvm::Module& module, const HostTarget& target,
                                      const CodegenRequest& request);

}  // namespace kjit::cpu
