#include "source/conditionals.hpp"

#include "source/logical_lines.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <map>
#include <optional>

namespace kjit::source {

namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front())) != 0) {
    s.remove_prefix(1);
  }
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back())) != 0) {
    s.remove_suffix(1);
  }
  return s;
}

/// `s` without a trailing // or /* comment.
std::string_view without_comment(std::string_view s) {
  const std::size_t line = s.find("//");
  const std::size_t block = s.find("/*");
  return trim(s.substr(0, std::min(line, block)));
}

/// The first identifier of `s`, and the rest after it.
std::string_view first_word(std::string_view s) {
  s = trim(s);
  std::size_t n = 0;
  while (n < s.size() && is_identifier_char(s[n])) {
    ++n;
  }
  return s.substr(0, n);
}

struct Macros {
  const std::map<std::string, std::string, std::less<>>& program;
  std::map<std::string, std::optional<std::string>, std::less<>> file;  // nullopt: #undef'd

  [[nodiscard]] std::optional<std::string> value(std::string_view name) const {
    if (const auto it = file.find(name); it != file.end()) {
      return it->second;
    }
    if (const auto it = program.find(name); it != program.end()) {
      return it->second.empty() ? std::string("1") : it->second;
    }
    return std::nullopt;
  }
  [[nodiscard]] bool defined(std::string_view name) const { return value(name).has_value(); }
};

/// The value of an #if condition of a form kjit evaluates, or nullopt.
std::optional<bool> evaluate(std::string_view condition, const Macros& macros) {
  condition = trim(condition);
  if (!condition.empty() && condition.front() == '!') {
    const std::optional<bool> inner = evaluate(condition.substr(1), macros);
    return inner ? std::optional(!*inner) : std::nullopt;
  }
  if (condition.starts_with("defined")) {
    std::string_view rest = trim(condition.substr(7));
    const bool parenthesised = !rest.empty() && rest.front() == '(';
    if (parenthesised) {
      rest = trim(rest.substr(1));
    }
    const std::string_view name = first_word(rest);
    rest = trim(trim(rest).substr(name.size()));
    if (parenthesised) {
      if (rest.empty() || rest.front() != ')') {
        return std::nullopt;
      }
      rest = trim(rest.substr(1));
    }
    if (name.empty() || !rest.empty()) {
      return std::nullopt;
    }
    return macros.defined(name);
  }
  const auto number = [](std::string_view s) -> std::optional<long long> {
    s = trim(s);
    long long n = 0;
    const auto [end, error] = std::from_chars(s.data(), s.data() + s.size(), n);
    if (error != std::errc() || end != s.data() + s.size()) {
      return std::nullopt;
    }
    return n;
  };
  if (const std::optional<long long> n = number(condition)) {
    return *n != 0;
  }
  const std::string_view name = first_word(condition);
  if (name.size() == condition.size() && !name.empty()) {
    if (!macros.defined(name)) {
      return false;  // an undefined name is 0 in #if
    }
    const std::optional<std::string> v = macros.value(name);
    const std::optional<long long> n = v ? number(*v) : std::nullopt;
    return n ? std::optional(*n != 0) : std::nullopt;
  }
  return std::nullopt;
}

/// One open #if: whether the text above it is kept, whether a branch has been taken, and whether
/// the branch now open is kept.
struct Open {
  bool outer_live;
  bool taken;
  bool live;
};

/// What one directive at 1-based `number` does to the open #ifs, the macros and `out`; returns
/// whether the directive itself is kept (an #elif, #else or #endif is read where its #if is).
bool apply_directive(std::string_view keyword, std::string_view rest, bool was_live,
                     unsigned number, Macros& macros, std::vector<Open>& open, LiveLines& out) {
  const auto decide = [&](std::string_view condition) {
    const std::optional<bool> v = evaluate(condition, macros);
    if (!v) {
      out.undecided.push_back(number);
    }
    return v.value_or(true);
  };
  if (keyword == "if" || keyword == "ifdef" || keyword == "ifndef") {
    const bool on = !was_live             ? false
                    : keyword == "ifdef"  ? macros.defined(first_word(rest))
                    : keyword == "ifndef" ? !macros.defined(first_word(rest))
                                          : decide(rest);
    open.push_back({was_live, on, was_live && on});
  } else if (keyword == "elif" && !open.empty()) {
    Open& o = open.back();
    const bool on = o.outer_live && !o.taken && decide(rest);
    o.live = on;
    o.taken = o.taken || on;
    return o.outer_live;
  } else if (keyword == "else" && !open.empty()) {
    Open& o = open.back();
    o.live = o.outer_live && !o.taken;
    o.taken = true;
    return o.outer_live;
  } else if (keyword == "endif" && !open.empty()) {
    const bool seen = open.back().outer_live;
    open.pop_back();
    return seen;
  } else if (keyword == "define" && was_live) {
    const std::string_view name = first_word(rest);
    const std::string_view replacement = trim(trim(rest).substr(name.size()));
    macros.file[std::string(name)] = std::string(replacement);
  } else if (keyword == "undef" && was_live) {
    macros.file[std::string(first_word(rest))] = std::nullopt;
  }
  return was_live;
}

}  // namespace

namespace {

/// live_lines, leaving the text's own macros in `macros`.
LiveLines read_lines(std::string_view text, Macros& macros) {
  LiveLines out;
  std::vector<Open> open;
  unsigned number = 1;  // of the logical line's first line
  std::string line;
  for (std::size_t at = 0; at < text.size();) {
    const std::size_t next = text.size() - read_logical_line(text, at, line).size();
    const std::string_view read = text.substr(at, next - at);
    // The lines it spans: its line ends, and the last line of a text without one.
    const auto lines =
        static_cast<unsigned>(std::count(read.begin(), read.end(), '\n') + (read.back() != '\n'));
    bool live = open.empty() || open.back().live;
    if (const std::string_view stripped = trim(line); stripped.starts_with('#')) {
      const std::string_view directive = trim(stripped.substr(1));
      const std::string_view keyword = first_word(directive);
      live = apply_directive(keyword, without_comment(directive.substr(keyword.size())), live,
                             number, macros, open, out);
    }
    out.live.insert(out.live.end(), lines, live);
    number += lines;
    at = next;
  }
  return out;
}

}  // namespace

LiveLines live_lines(std::string_view text,
                     const std::map<std::string, std::string, std::less<>>& defines) {
  Macros macros{defines, {}};
  return read_lines(text, macros);
}

std::map<std::string, std::string, std::less<>> defines_after(
    std::string_view text, const std::map<std::string, std::string, std::less<>>& defines) {
  Macros macros{defines, {}};
  read_lines(text, macros);
  std::map<std::string, std::string, std::less<>> out = defines;
  for (auto& [name, value] : macros.file) {
    if (value) {
      out[name] = value->empty() ? std::string("1") : *value;
    } else {
      out.erase(name);
    }
  }
  return out;
}

}  // namespace kjit::source
