// A light C++ tokenizer for kernel sources, for what kjit reads in a program's text before a
// compiler does (host_code.hpp): identifiers, literals and punctuators with their places.
// Comments are skipped, and so are preprocessor directives (with their continued lines): it sees
// every branch of an #if, as a reader of the file does.
#pragma once

#include <cstddef>
#include <optional>
#include <string_view>
#include <vector>

namespace kjit::source {

struct SourceToken {
  enum class Kind { identifier, number, literal, punctuator };
  Kind kind;
  std::size_t begin;  // byte offsets into the text
  std::size_t end;

  [[nodiscard]] std::string_view text(std::string_view source) const {
    return source.substr(begin, end - begin);
  }
};

/// The tokens of `source`, or nullopt when it cannot be read (an unterminated comment or
/// literal).
std::optional<std::vector<SourceToken>> tokenize(std::string_view source);

/// The 1-based line of byte `offset` of `source`.
unsigned line_at(std::string_view source, std::size_t offset);

}  // namespace kjit::source
