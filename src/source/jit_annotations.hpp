// Kernels that ask to be specialised on their own arguments, as LLNL's Proteus spells it:
//   __global__ __attribute__((annotate("jit", 2, 3))) void kernel(float* y, int n, int steps);
// The numbers are 1-based positions of scalar parameters; at each launch the core folds those
// arguments' values into a variant of the kernel (core/specialization.hpp). Read from a kernel
// file's tokens, without a compiler (the compilers themselves accept and ignore the attribute).
#pragma once

#include <cstddef>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace kjit::source {

/// One kernel's annotation.
struct JitAnnotation {
  std::string kernel;  // the kernel's name as declared (no scope, no arguments)
  std::string file;    // the header it stands in, as messages name it; empty: the program's text
  unsigned line = 0;   // where its `annotate` is, 1-based
  unsigned column = 0;
  std::vector<std::size_t> positions;  // 0-based parameter indices, ascending, each once
  std::size_t parameters = 0;          // how many parameters the kernel declares
};

/// An annotation that cannot be honoured: a position of 0, past the last parameter, of a pointer,
/// array or reference parameter, or not an integer.
struct JitAnnotationProblem {
  std::string kernel;
  std::string file;  // as JitAnnotation's
  unsigned line = 0;
  unsigned column = 0;
  std::string message;  // what is wrong, naming the position and the parameter
};

struct JitAnnotations {
  std::vector<JitAnnotation> kernels;  // in the file's order
  std::vector<JitAnnotationProblem> problems;

  /// The annotation of kernel `name` ("ns::step<float>" finds `step`), or nullptr.
  [[nodiscard]] const JitAnnotation* find(std::string_view name) const;
  /// The problems of kernel `name`'s annotations.
  [[nodiscard]] std::vector<JitAnnotationProblem> problems_of(std::string_view name) const;
};

/// The name a kernel is declared with, from a name the host asks for: "ns::step<float>" is
/// "step".
std::string_view declared_name(std::string_view name);

/// The annotations of the __global__ functions `text` declares or defines, but those behind an
/// #if that the program's `defines` (CompileOptions::defines) and the text's own #defines turn
/// off (source/conditionals.hpp). Empty for a text that cannot be read reliably.
JitAnnotations read_jit_annotations(
    std::string_view text, const std::map<std::string, std::string, std::less<>>& defines = {});

/// `text` with each `__attribute__((annotate("jit", ...)))` blanked (lines and columns kept), as
/// compilers are given it: NVRTC warns of an attribute it does not know.
std::string without_jit_annotations(std::string_view text);

}  // namespace kjit::source
