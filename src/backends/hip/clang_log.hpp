// A Clang-style compile log (hipRTC's), parsed into diagnostics. Its lines read
//   file:line:column: error: message        (also warning:, note:, fatal error:)
//   <the source line>
//   <a caret under the column>
//   1 error generated when compiling for gfx90a.
#pragma once

#include <kjit/error.hpp>

#include <string>
#include <string_view>
#include <vector>

namespace kjit::hip {

struct ClangDiagnostic {
  std::string file;
  unsigned line = 0;
  unsigned column = 0;
  Diagnostic::Severity severity = Diagnostic::Severity::error;
  std::string message;
  std::string source_line;  // the line the log echoes after the diagnostic
};

std::vector<ClangDiagnostic> parse_clang_log(std::string_view log);

}  // namespace kjit::hip
