// Whether a compiled binary defines or names a symbol, read from its string table.
#pragma once

#include "backends/kit/backend.hpp"

#include <algorithm>
#include <string>

namespace kjit {

inline bool has_symbol(const backend::Binary& b, const std::string& name) {
  const std::string needle = name + '\0';  // whole names in the string table
  return std::search(b.bytes.begin(), b.bytes.end(), needle.begin(), needle.end()) != b.bytes.end();
}

}  // namespace kjit
