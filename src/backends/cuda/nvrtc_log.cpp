#include "backends/cuda/nvrtc_log.hpp"

#include <optional>
#include <regex>

namespace kjit::cuda {

namespace {

std::vector<std::string_view> split_lines(std::string_view text) {
  std::vector<std::string_view> lines;
  while (!text.empty()) {
    const auto end = text.find('\n');
    lines.push_back(text.substr(0, end));
    if (end == std::string_view::npos) {
      break;
    }
    text.remove_prefix(end + 1);
  }
  return lines;
}

std::optional<Diagnostic::Severity> severity_of(const std::string& word) {
  if (word == "error" || word == "catastrophic error") {
    return Diagnostic::Severity::error;
  }
  if (word == "warning") {
    return Diagnostic::Severity::warning;
  }
  if (word == "note" || word == "remark") {
    return Diagnostic::Severity::note;
  }
  return std::nullopt;
}

/// The caret's column (1-based) in the echoed source, which NVRTC indents by two.
unsigned caret_column(std::string_view caret_line) {
  const auto at = caret_line.find('^');
  if (at == std::string_view::npos ||
      caret_line.find_first_not_of(" \t^") != std::string_view::npos) {
    return 0;
  }
  return at >= 2 ? static_cast<unsigned>(at - 2 + 1) : 1;
}

}  // namespace

std::vector<NvrtcDiagnostic> parse_nvrtc_log(std::string_view log) {
  static const std::regex located(
      R"(^(.+?)\((\d+)\): (error|warning|note|remark|catastrophic error)(?: #[-\w]+)?: (.*)$)");
  static const std::regex unlocated(
      R"(^(?:At end of source: |nvrtc: )?(error|warning|catastrophic error): (.*)$)");
  // Where a template was instantiated: "detected during instantiation of "f<int>" at line 6",
  // with " of file.cu" when that is another file than the error's.
  static const std::regex instantiated(
      R"re(^\s+(?:detected during:?\s*)?(instantiation of "(.*)") at line (\d+)(?: of (.+))?$)re");
  std::vector<NvrtcDiagnostic> out;
  const std::vector<std::string_view> lines = split_lines(log);
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const std::string line(lines[i]);
    std::smatch m;
    if (std::regex_match(line, m, located)) {
      const auto severity = severity_of(m[3].str());
      if (!severity) {
        continue;
      }
      NvrtcDiagnostic d;
      d.file = m[1].str();
      d.line = static_cast<unsigned>(std::stoul(m[2].str()));
      d.severity = *severity;
      d.message = m[4].str();
      if (i + 2 < lines.size()) {
        const unsigned column = caret_column(lines[i + 2]);
        if (column != 0) {
          const std::string_view source = lines[i + 1];
          d.source_line = std::string(source.substr(std::min<std::size_t>(2, source.size())));
          d.column = column;
          i += 2;
        }
      }
      out.push_back(std::move(d));
    } else if (std::regex_match(line, m, instantiated) && !out.empty()) {
      NvrtcDiagnostic d;
      d.file = m[4].matched ? m[4].str() : out.back().file;
      if (d.file.size() >= 2 && d.file.front() == '"' && d.file.back() == '"') {
        d.file = d.file.substr(1, d.file.size() - 2);
      }
      d.line = static_cast<unsigned>(std::stoul(m[3].str()));
      d.severity = Diagnostic::Severity::note;
      d.message = "in " + m[1].str() + " requested here";
      out.push_back(std::move(d));
    } else if (std::regex_match(line, m, unlocated)) {
      NvrtcDiagnostic d;
      d.severity = severity_of(m[1].str()).value_or(Diagnostic::Severity::error);
      d.message = m[2].str();
      d.at_end_of_source = line.rfind("At end of source", 0) == 0;
      out.push_back(std::move(d));
    }
  }
  return out;
}

}  // namespace kjit::cuda
