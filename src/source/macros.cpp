#include "source/macros.hpp"

#include "source/logical_lines.hpp"

namespace kjit::source {

std::vector<MacroDefinition> macro_definitions(std::string_view text) {
  std::vector<MacroDefinition> found;
  std::string line;
  std::string_view rest = text;
  while (!rest.empty()) {
    const std::size_t offset = text.size() - rest.size();
    rest = read_logical_line(text, offset, line);
    std::size_t i = line.find_first_not_of(" \t");
    if (i == std::string::npos || line[i] != '#') {
      continue;
    }
    i = line.find_first_not_of(" \t", i + 1);
    if (i == std::string::npos || line.compare(i, 6, "define") != 0 || i + 6 >= line.size() ||
        is_identifier_char(line[i + 6])) {
      continue;
    }
    i = line.find_first_not_of(" \t", i + 6);
    if (i == std::string::npos) {
      continue;
    }
    std::size_t end = i;
    while (end < line.size() && is_identifier_char(line[end])) {
      ++end;
    }
    if (end == i) {
      continue;
    }
    // The name as a view of `text`: find it in the original (it is on the directive's first line).
    const std::string name = line.substr(i, end - i);
    const std::size_t at = text.find(name, offset);
    if (at == std::string_view::npos) {
      continue;
    }
    std::string replacement = line.substr(end);
    const bool function_like = !replacement.empty() && replacement.front() == '(';
    if (function_like) {  // its parameters are not its replacement
      const std::size_t close = replacement.find(')');
      replacement.erase(0, close == std::string::npos ? replacement.size() : close + 1);
    }
    found.push_back({text.substr(at, name.size()), std::move(replacement), function_like});
  }
  return found;
}

}  // namespace kjit::source
