// A kernel's parameters as its declaration spells them, read from a kernel file's tokens: for
// what the type system forgets. A function's type drops a parameter's top-level `__restrict__`,
// so a variant's kernel that passes its parameters on to the kernel it fixes
// (core/specialization.cpp) must spell them again: without it, NVVM reads none of the kernel's
// read-only arrays through the read-only path, and wsm5's variant took 149 ms instead of 101.
// So must it its kernel's launch bounds.
#pragma once

#include "source/conditionals.hpp"
#include "source/declarations.hpp"

#include <cstddef>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace kjit::source {

/// The text of each parameter of function `name` that declaration `d` of `file` (read from
/// `text`) declares, or nullopt when its list cannot be read. With `live`, parameters on lines
/// the preprocessor drops are not counted (LULESH's `#ifdef DOUBLE_PRECISION` inside a list).
std::optional<std::vector<std::string>> parameter_texts(std::string_view text,
                                                        const FileDeclarations& file,
                                                        const Declaration& d, std::string_view name,
                                                        const LiveLines* live = nullptr);

/// What the __global__ declarations of kernel `name` ("ns::step<float>" reads `step`) with
/// `count` parameters in `texts` (a program's text and the headers it includes) say of it that
/// its type forgets, for a variant's kernel to spell again. `defines`: the program's
/// (CompileOptions::defines, and the macros of its headers), for the conditionals around and
/// inside a declaration: only what the preprocessor keeps counts.
struct KernelDeclaration {
  /// The 0-based positions of the parameters declared `__restrict__` (or `__restrict`). Empty
  /// when there is none, or when the declarations disagree (overloads): a wrong guess would
  /// promise what the kernel does not.
  std::vector<std::size_t> restricted;
  /// The arguments of its `__launch_bounds__(...)`, as spelled ("64, 8"): its own bounds are gone
  /// with its __global__, and without them LULESH's kinematics variant took 204 registers a
  /// thread instead of 128. Empty when none gives bounds, when two give different ones, or when
  /// they name a template parameter (a variant's kernel is no template).
  std::string launch_bounds;
};
KernelDeclaration read_kernel_declaration(
    std::span<const std::string_view> texts, std::string_view name, std::size_t count,
    const std::map<std::string, std::string, std::less<>>& defines = {});

}  // namespace kjit::source
