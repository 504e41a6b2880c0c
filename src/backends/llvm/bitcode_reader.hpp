// LLVM bitcode as a program: parsing it, checking it was made for the device's target, and
// finding the kernels that a CompileRequest names in it. Every backend's bitcode path uses these.
#pragma once

#include "backends/kit/backend.hpp"

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace llvm {
class Function;
class LLVMContext;
class Module;
}  // namespace llvm

namespace kjit::bitcode {

/// Parses request.source (bitcode bytes). CompileError with LLVM's reason when they do not
/// parse (truncated, corrupt, or from a newer LLVM). `device` names the device in messages.
std::unique_ptr<llvm::Module> read_bitcode(llvm::LLVMContext& context,
                                           const backend::CompileRequest& request,
                                           const std::string& device);

/// What a backend accepts.
struct TargetRule {
  std::vector<std::string> archs;  // LLVM arch names of the triple: "x86_64", "nvptx64", "amdgcn"
  std::string os;                  // "" for any, else "amdhsa", "cuda", "linux"
  std::string recipe;              // how to make bitcode for it, for the message
};

/// CompileError unless the module's triple fits `rule`.
void check_triple(const llvm::Module& module, const TargetRule& rule,
                  const backend::CompileRequest& request, const std::string& device);

/// The function of each request.kernel_names[i], in order: a kernel whose symbol is the name,
/// or whose demangled name is ("vadd", "ns::saxpy<float>"), or whose name without template
/// arguments is, when request.signature(i) or uniqueness picks one. KernelNotFoundError (listing
/// the kernels there are) when none or several fit, or when the name is a function that
/// `is_kernel` refuses; `kernel_mark` says what makes a kernel, for that message.
std::vector<llvm::Function*> resolve_kernels(
    llvm::Module& module, const backend::CompileRequest& request, const std::string& device,
    const std::function<bool(const llvm::Function&)>& is_kernel, std::string_view kernel_mark);

/// A function's demangled name without its parameters ("saxpy<float>"), or its symbol when it
/// is not a mangled C++ function.
std::string demangled_name(std::string_view symbol);

/// CompileError for `request` on `device` with one message (no file location).
[[noreturn]] void throw_bitcode_error(const backend::CompileRequest& request,
                                      const std::string& device, const std::string& message);

}  // namespace kjit::bitcode
