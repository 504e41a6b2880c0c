// What the readers of a kernel file's preprocessor lines share: identifier characters, and the
// logical line (continued lines joined) that starts at a place in the text.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace kjit::source {

/// A letter, digit, '_' or '$' (which compilers accept in identifiers).
bool is_identifier_char(char c);

/// Reads the logical line that starts at `at` into `joined` (continued lines joined with a space,
/// a '\r' before a line end dropped); returns the text after it.
std::string_view read_logical_line(std::string_view text, std::size_t at, std::string& joined);

}  // namespace kjit::source
