#include "core/name_expression.hpp"

#include "support/text.hpp"

#include <kjit/error.hpp>

#include <fmt/format.h>

#include <cctype>

namespace kjit::detail {

namespace {

bool allowed(char c) {
  if (std::isalnum(static_cast<unsigned char>(c)) != 0) {
    return true;
  }
  switch (c) {
    case '_':
    case ':':
    case '<':
    case '>':
    case ',':
    case ' ':
    case '*':
    case '&':
    case '(':
    case ')':
    case '[':
    case ']':
    case '-':
    case '+':
    case '.':
      return true;
    default:
      return false;
  }
}

}  // namespace

std::string validate_kernel_name(std::string_view name) {
  constexpr std::size_t kMaxLength = 1024;
  const std::string_view n = trim(name);
  const auto bad = [&](std::string_view why) {
    return UsageError(fmt::format("kjit: '{}' is not a kernel name: {}", name, why));
  };
  if (n.empty()) {
    throw bad("it is empty");
  }
  if (n.size() > kMaxLength) {
    throw bad(fmt::format("longer than {} characters", kMaxLength));
  }
  const char first = n.front();
  if (std::isalpha(static_cast<unsigned char>(first)) == 0 && first != '_' && first != ':') {
    throw bad("it must start with a letter, '_' or '::'");
  }
  for (const char c : n) {
    if (!allowed(c)) {
      throw bad(fmt::format("character '{}' cannot appear in a kernel name",
                            std::isprint(static_cast<unsigned char>(c)) != 0
                                ? std::string(1, c)
                                : fmt::format("\\x{:02x}", static_cast<unsigned char>(c))));
    }
  }
  int depth = 0;  // of angle brackets outside parentheses, where '<' and '>' compare
  int parens = 0;
  for (const char c : n) {
    parens += c == '(' ? 1 : c == ')' ? -1 : 0;
    if (parens == 0) {
      depth += c == '<' ? 1 : c == '>' ? -1 : 0;
    }
    if (depth < 0) {
      throw bad("unbalanced '<' and '>'");
    }
  }
  if (depth != 0) {
    throw bad("unbalanced '<' and '>'");
  }
  return std::string(n);
}

}  // namespace kjit::detail
