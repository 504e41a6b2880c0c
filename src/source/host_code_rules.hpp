// What makes a function host code when no __host__ says so: a kernel launch in its body, a call of
// the CUDA runtime or driver API, of the C library's files, process control and text conversion,
// or a use of the C++ library's host side. Device code can do none of these.
#pragma once

#include "source/source_tokens.hpp"

#include <string_view>
#include <vector>

namespace kjit::source {

/// Whether tokens (open, close) of `text` (a function's body) hold host code.
bool is_host_body(std::string_view text, const std::vector<SourceToken>& tokens, std::size_t open,
                  std::size_t close);

/// Whether tokens [begin, end) of `text` name a type only the host has (`std::ostream`, `FILE`):
/// an operator whose signature does is host code, whatever its body.
bool names_host_type(std::string_view text, const std::vector<SourceToken>& tokens,
                     std::size_t begin, std::size_t end);

}  // namespace kjit::source
