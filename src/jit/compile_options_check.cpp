#include "jit/compile_options_check.hpp"

#include "jit/name_expression.hpp"

#include <kjit/error.hpp>

#include <fmt/format.h>

#include <cctype>
#include <string_view>

namespace kjit::detail {

namespace {

bool is_identifier(std::string_view s) {
  if (s.empty() || std::isdigit(static_cast<unsigned char>(s.front())) != 0) {
    return false;
  }
  for (const char c : s) {
    if (std::isalnum(static_cast<unsigned char>(c)) == 0 && c != '_') {
      return false;
    }
  }
  return true;
}

bool is_plain_relative_path(std::string_view s) {
  if (s.empty() || s.front() == '/' || s.find('\0') != std::string_view::npos) {
    return false;
  }
  std::size_t start = 0;
  while (start <= s.size()) {
    const std::size_t slash = s.find('/', start);
    const std::string_view part =
        s.substr(start, slash == std::string_view::npos ? std::string_view::npos : slash - start);
    if (part.empty() || part == "." || part == "..") {
      return false;
    }
    if (slash == std::string_view::npos) {
      break;
    }
    start = slash + 1;
  }
  return s.find_first_of("\"\n\r<>") == std::string_view::npos;
}

}  // namespace

void check_compile_options(const CompileOptions& options) {
  for (const auto& [name, text] : options.headers) {
    if (!is_plain_relative_path(name)) {
      throw UsageError(
          fmt::format("kjit: in-memory header name '{}' must be a relative path "
                      "without '.' or '..' components",
                      name));
    }
  }
  for (const auto& [name, value] : options.defines) {
    if (!is_identifier(name)) {
      throw UsageError(fmt::format("kjit: define '{}' is not an identifier", name));
    }
    if (value.find_first_of("\n\r") != std::string::npos) {
      throw UsageError(fmt::format("kjit: the value of define '{}' spans several lines", name));
    }
  }
  for (const std::string& kernel : options.kernels) {
    (void)validate_kernel_name(kernel);
  }
}

}  // namespace kjit::detail
