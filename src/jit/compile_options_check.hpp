// Checks of CompileOptions, done once when a Program is made, before any backend sees them.
#pragma once

#include <kjit/program.hpp>

namespace kjit::detail {

/// UsageError for an in-memory header name that is not a relative path without '.' or '..'
/// components, a define that is not an identifier or whose value spans lines, and a kernel
/// name that is not a name.
void check_compile_options(const CompileOptions& options);

}  // namespace kjit::detail
