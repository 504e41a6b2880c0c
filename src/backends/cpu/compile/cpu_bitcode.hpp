// Host bitcode as the CPU backend's input: what the Clang front end would have produced
// (kernels marked by the CPU kernel header's __global__), with the per-kernel entries that the
// front end writes in C++ built here in IR instead.
#pragma once

#include "backends/cpu/compile/cpu_frontend.hpp"
#include "backends/cpu/compile/cpu_host_target.hpp"
#include "backends/kit/backend.hpp"

#include <string>

namespace llvm {
class LLVMContext;
}  // namespace llvm

namespace kjit::cpu {

/// request.source (x86_64 bitcode) -> the module lower_kernels takes, with entries
/// __kjit_*_N for kernel_names[N]. CompileError for bytes that are not bitcode for this host,
/// KernelNotFoundError for a name that is no kernel there. Each LLVM parameter of a kernel is
/// one kernel parameter (a struct that the x86-64 ABI splits into registers counts as several).
FrontendOutput bitcode_to_ir(const backend::CompileRequest& request, const HostTarget& target,
                             llvm::LLVMContext& context, const std::string& device);

}  // namespace kjit::cpu
