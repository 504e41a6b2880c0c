// Small string helpers shared by the parsers of the core.
#pragma once

#include <cctype>
#include <string_view>

namespace kjit::detail {

/// `s` without leading and trailing white space.
inline std::string_view trim(std::string_view s) {
  const auto space = [](char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; };
  while (!s.empty() && space(s.front())) {
    s.remove_prefix(1);
  }
  while (!s.empty() && space(s.back())) {
    s.remove_suffix(1);
  }
  return s;
}

}  // namespace kjit::detail
