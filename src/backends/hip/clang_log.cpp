#include "backends/hip/clang_log.hpp"

#include <charconv>
#include <optional>

namespace kjit::hip {

namespace {

std::optional<unsigned> number(std::string_view text) {
  unsigned value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || text.empty()) {
    return std::nullopt;
  }
  return value;
}

/// "file:12:5: error: text" -> a diagnostic; nullopt for any other line.
std::optional<ClangDiagnostic> parse_line(std::string_view line) {
  static constexpr std::pair<std::string_view, Diagnostic::Severity> kinds[] = {
      {": fatal error: ", Diagnostic::Severity::error},
      {": error: ", Diagnostic::Severity::error},
      {": warning: ", Diagnostic::Severity::warning},
      {": note: ", Diagnostic::Severity::note},
  };
  for (const auto& [marker, severity] : kinds) {
    const auto at = line.find(marker);
    if (at == std::string_view::npos) {
      continue;
    }
    // The location before the marker: file:line:column (the file may itself hold ':').
    const std::string_view where = line.substr(0, at);
    const auto c2 = where.rfind(':');
    if (c2 == std::string_view::npos) {
      return std::nullopt;
    }
    const auto c1 = where.rfind(':', c2 == 0 ? 0 : c2 - 1);
    if (c1 == std::string_view::npos) {
      return std::nullopt;
    }
    const auto row = number(where.substr(c1 + 1, c2 - c1 - 1));
    const auto column = number(where.substr(c2 + 1));
    if (!row || !column) {
      return std::nullopt;
    }
    ClangDiagnostic d;
    d.file = std::string(where.substr(0, c1));
    d.line = *row;
    d.column = *column;
    d.severity = severity;
    d.message = std::string(line.substr(at + marker.size()));
    return d;
  }
  return std::nullopt;
}

}  // namespace

std::vector<ClangDiagnostic> parse_clang_log(std::string_view log) {
  std::vector<ClangDiagnostic> out;
  bool want_source = false;
  while (!log.empty()) {
    const auto end = log.find('\n');
    std::string_view line = log.substr(0, end);
    log = end == std::string_view::npos ? std::string_view() : log.substr(end + 1);
    if (!line.empty() && line.back() == '\r') {
      line.remove_suffix(1);
    }
    if (auto d = parse_line(line)) {
      out.push_back(std::move(*d));
      want_source = true;
    } else if (want_source) {
      out.back().source_line = std::string(line);
      want_source = false;
    }
  }
  return out;
}

}  // namespace kjit::hip
