// How a failed compile becomes an exception, the same way on every backend:
//  - errors in the user's own files give a CompileError listing what is in the user's files;
//  - otherwise errors tied to a kernel name mean that name does not resolve: KernelNotFoundError,
//    with the first reason given for each name;
//  - anything else is a CompileError with every diagnostic.
#pragma once

#include "backends/kit/backend.hpp"

#include <kjit/error.hpp>

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace kjit::backend {

/// A compiler diagnostic, with where it stands: in a file the user wrote, or about kernel N's
/// name (in code generated for that name).
struct LocatedDiagnostic {
  Diagnostic diagnostic;
  bool in_user_file = false;
  std::optional<std::size_t> kernel;
};

/// `notes` go after the diagnostics (ProgramSources::missing_notes: what the program was compiled
/// without).
[[noreturn]] void throw_compile_failure(const CompileRequest& request, const std::string& device,
                                        const std::vector<LocatedDiagnostic>& given,
                                        const std::string& log,
                                        const std::vector<Diagnostic>& notes = {});

}  // namespace kjit::backend
