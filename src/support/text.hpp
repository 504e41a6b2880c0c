// Small string helpers shared by the core: its parsers, and messages about system calls.
#pragma once

#include <cctype>
#include <charconv>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

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

/// The entries of a comma-separated list, each trimmed (an empty entry stays, empty): what
/// KJIT_DEVICE and KJIT_CHECK take.
inline std::vector<std::string_view> comma_list(std::string_view list) {
  std::vector<std::string_view> entries;
  while (true) {
    const auto comma = list.find(',');
    entries.push_back(trim(list.substr(0, comma)));
    if (comma == std::string_view::npos) {
      return entries;
    }
    list.remove_prefix(comma + 1);
  }
}

/// `s` as a whole decimal number of type T, or nullopt for anything else (empty, other
/// characters, out of T's range). No white space is skipped.
template <class T>
std::optional<T> whole_number(std::string_view s) {
  T value{};
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
  if (s.empty() || ec != std::errc{} || end != s.data() + s.size()) {
    return std::nullopt;
  }
  return value;
}

/// The text of an errno value: "No such file or directory".
inline std::string errno_text(int error) {
  return std::error_code(error, std::generic_category()).message();
}

}  // namespace kjit::detail
