// Clang, in process: kernel source -> unoptimised LLVM IR with one entry per kernel asked for.
// Diagnostics come back located in the user's own files.
#pragma once

#include "backends/cpu/compile/cpu_host_target.hpp"
#include "backends/kit/backend.hpp"

#include <kjit/error.hpp>

#include <memory>
#include <string>
#include <vector>

namespace llvm {
class LLVMContext;
class Module;
}  // namespace llvm

namespace kjit::cpu {

/// A use of a host-only function (host_code.hpp) in the program: an error if device code still
/// calls it after optimisation.
struct HostCall {
  std::string function;
  Diagnostic where;  // an error, at the use, in the user's file
};

struct FrontendOutput {
  std::unique_ptr<llvm::Module> module;
  std::vector<std::string> dynamic_shared;  // IR names of the extern __shared__ variables
  std::string warnings;                     // the compiler's warnings, formatted
  std::vector<HostCall> host_calls;
};

/// Compiles request.source with the CPU prelude, adding entries __kjit_*_N for kernel_names[N].
/// Throws CompileError (located in the user's files) or KernelNotFoundError (a name that does
/// not resolve to a function of the program). `device` names the device in messages.
/// `line_tables`: with the lines of the source, as checked compiles have them.
FrontendOutput compile_to_ir(const backend::CompileRequest& request, const HostTarget& target,
                             llvm::LLVMContext& context, const std::string& device,
                             bool line_tables = false);

}  // namespace kjit::cpu
