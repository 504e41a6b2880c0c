#include "source/logical_lines.hpp"

#include <cctype>

namespace kjit::source {

bool is_identifier_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_' || c == '$';
}

std::string_view read_logical_line(std::string_view text, std::size_t at, std::string& joined) {
  joined.clear();
  std::size_t i = at;
  while (i < text.size()) {
    const std::size_t end = text.find('\n', i);
    const std::size_t stop = end == std::string_view::npos ? text.size() : end;
    std::string_view line = text.substr(i, stop - i);
    if (!line.empty() && line.back() == '\r') {
      line.remove_suffix(1);
    }
    i = stop == text.size() ? stop : stop + 1;
    if (!line.empty() && line.back() == '\\') {
      joined.append(line.substr(0, line.size() - 1));
      joined += ' ';
      continue;
    }
    joined.append(line);
    break;
  }
  return text.substr(i);
}

}  // namespace kjit::source
