// NVRTC's compile log, parsed into diagnostics. Its lines read
//   file(line): error: message            (also warning #177-D:, note #3196-D:, catastrophic
//   error:)
//     <the source line, indented by two>
//     <a caret under the column>
//   At end of source: error: message
//   nvrtc: error: message
#pragma once

#include <kjit/error.hpp>

#include <string>
#include <string_view>
#include <vector>

namespace kjit::cuda {

struct NvrtcDiagnostic {
  std::string file;  // as NVRTC names it; empty when it gives none
  unsigned line = 0;
  unsigned column = 0;  // 0 when the log shows no caret
  Diagnostic::Severity severity = Diagnostic::Severity::error;
  std::string message;
  std::string source_line;  // the line the log echoes, without its indent
  bool at_end_of_source = false;
};

std::vector<NvrtcDiagnostic> parse_nvrtc_log(std::string_view log);

}  // namespace kjit::cuda
