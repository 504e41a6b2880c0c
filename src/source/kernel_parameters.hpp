// A kernel's parameters as its declaration spells them, read from a kernel file's tokens: for
// what the type system forgets. A function's type drops a parameter's top-level `__restrict__`,
// so a variant's kernel that passes its parameters on to the kernel it fixes
// (core/specialization.cpp) must spell them again: without it, NVVM reads none of the kernel's
// read-only arrays through the read-only path, and wsm5's variant took 149 ms instead of 101.
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

/// The 0-based positions of the parameters of kernel `name` ("ns::step<float>" reads `step`)
/// that are declared `__restrict__` (or `__restrict`), from the __global__ declarations of it
/// with `count` parameters in `texts` (a program's text and the headers it includes). Empty when
/// there is none, or when those declarations disagree (overloads): a wrong guess would promise
/// what the kernel does not. `defines`: the program's (CompileOptions::defines), for the
/// conditionals inside a parameter list.
std::vector<std::size_t> restrict_parameters(
    std::span<const std::string_view> texts, std::string_view name, std::size_t count,
    const std::map<std::string, std::string, std::less<>>& defines = {});

/// The arguments of the `__launch_bounds__(...)` that the __global__ declarations of kernel
/// `name` with `count` parameters in `texts` give it, as spelled ("64, 8"), for a variant's
/// kernel to keep: its own bounds are gone with its __global__, and without them LULESH's
/// kinematics variant took 204 registers a thread instead of 128. Empty when none gives bounds,
/// or when two give different ones. Only the bounds on lines the preprocessor keeps count.
std::string declared_launch_bounds(
    std::span<const std::string_view> texts, std::string_view name, std::size_t count,
    const std::map<std::string, std::string, std::less<>>& defines = {});

}  // namespace kjit::source
