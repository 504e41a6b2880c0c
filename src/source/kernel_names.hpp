// The kernels a kernel file defines, found by reading its declarations (declarations.hpp):
// what kjit-warm compiles when it is given a file without kernel names.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace kjit::source {

struct KernelNames {
  std::vector<std::string> plain;      // kernels that are not templates, in the file's order
  std::vector<std::string> templates;  // templates: their instantiations must be named
};

/// The __global__ functions `text` defines (static, extern "C", with launch bounds or attributes
/// anywhere, or marked through a macro the text defines), each name once. Empty for a text that
/// cannot be read.
KernelNames kernels_defined(std::string_view text);

}  // namespace kjit::source
