// The bitcode compilers of a kjit built without LLVM (KJIT_WITH_CPU=OFF): each says so.
#include "backends/llvm/bitcode_compilers.hpp"

#include <kjit/error.hpp>

#include <fmt/format.h>

namespace kjit::bitcode {

namespace {

[[noreturn]] void unavailable(const std::string& label) {
  throw BackendError(
      fmt::format("kjit: cannot compile bitcode for {}: this kjit was built without LLVM "
                  "(KJIT_WITH_CPU=OFF), whose code generators compile bitcode",
                  label));
}

}  // namespace

// The parameters are by value as the header declares them (the real factories keep them).
// NOLINTBEGIN(performance-unnecessary-value-param)
std::string llvm_version() {
  return "";
}

std::unique_ptr<backend::Compiler> nvptx_compiler(int /*arch*/, std::string /*target*/,
                                                  std::string label) {
  unavailable(label);
}

std::unique_ptr<backend::Compiler> amdgpu_compiler(AmdgpuSettings /*settings*/,
                                                   std::string /*target*/, std::string label) {
  unavailable(label);
}

// NOLINTEND(performance-unnecessary-value-param)

}  // namespace kjit::bitcode
