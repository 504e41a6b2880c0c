// Compiling in a child process: the kjit-compile helper runs the compiler, so that a compiler
// that crashes, aborts (LLVM's fatal errors) or never returns costs one compile, not the host
// program. Asked for with KJIT_COMPILE_ISOLATION=process or KJIT_COMPILE_TIMEOUT.
#pragma once

#include "backends/kit/backend.hpp"

#include <chrono>
#include <filesystem>
#include <optional>
#include <string>

namespace kjit::detail {

/// compiler.compile(request), where the environment asks: in this process, or in a child.
/// `target` is the compiler's identity().target when the caller knows it ("" to ask).
backend::Binary compile_as_configured(backend::Compiler& compiler,
                                      const backend::CompileRequest& request,
                                      const std::string& target);

/// Whether a compile by `compiler` would be its first in this process: compile_as_configured runs
/// it here, and it has not run here yet. A compiler's first compile here makes its static objects
/// (its library loaded, its tables built), which exit destroys in the reverse order of their
/// making.
bool first_compile_here(const backend::Compiler& compiler);

/// Compiles `request` with the offline compiler of `target` in a child process running `helper`.
/// A child that crashes, exits without a reply or outlives `timeout` (it is then killed) gives a
/// CompileError that says so, with what the child wrote to stderr; the compiler's own errors
/// arrive as they would in process.
backend::Binary compile_in_child(const std::filesystem::path& helper, const std::string& target,
                                 const backend::CompileRequest& request,
                                 std::optional<std::chrono::milliseconds> timeout);

/// The kjit-compile executable: KJIT_COMPILE_HELPER, else the one beside libkjit (or the
/// program kjit is linked into), else where `cmake --install` puts it (libexec/kjit under the
/// prefix). BackendError naming the places it looked when there is none.
std::filesystem::path compile_helper_path();

}  // namespace kjit::detail
