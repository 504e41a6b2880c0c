// Checks of CompileOptions, done once when a Program is made, before any backend sees them.
#pragma once

#include <kjit/program.hpp>

#include <string>
#include <string_view>

namespace kjit::detail {

/// UsageError for an in-memory header name that is not a relative path without '.' or '..'
/// components, a define that is not an identifier or whose value spans lines, and a kernel
/// name that is not a name, and options.watch on a program that is not from a file.
void check_compile_options(const CompileOptions& options, bool from_file = false);

/// The checks above, and UsageError when `bytes` are not LLVM bitcode (by their magic number;
/// the backend's parser finds the rest) or `options` set what only source has: include
/// directories, headers, defines.
void check_bitcode(const std::string& name, std::string_view bytes, const CompileOptions& options);

}  // namespace kjit::detail
