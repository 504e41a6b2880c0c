#include "core/compile_options_check.hpp"

#include "core/name_expression.hpp"

#include <kjit/error.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <string_view>
#include <vector>

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

void check_compile_options(const CompileOptions& options, bool from_file) {
  if (options.watch && !from_file) {
    throw UsageError(
        "kjit: CompileOptions::watch needs a program from a file (Program::from_file): a program "
        "from text, an embedded one or bitcode has no file to watch");
  }
  if (options.max_variants == 0) {
    throw UsageError(
        "kjit: CompileOptions::max_variants is 0; a kernel needs room for at least one "
        "specialised variant");
  }
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
  for (const auto& [kernel, positions] : options.specialize_arguments) {
    (void)validate_kernel_name(kernel);
    std::vector<std::size_t> sorted = positions;
    std::sort(sorted.begin(), sorted.end());
    if (sorted.empty() || std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end()) {
      throw UsageError(fmt::format(
          "kjit: CompileOptions::specialize_arguments['{}'] must name each parameter once, and "
          "at least one",
          kernel));
    }
  }
}

namespace {

/// The first bytes, as text when they are printable, else in hex: what the data looked like.
std::string opening(std::string_view bytes) {
  const std::string_view head = bytes.substr(0, 16);
  const bool printable = std::all_of(head.begin(), head.end(), [](char c) {
    return std::isprint(static_cast<unsigned char>(c)) != 0 || c == '\n' || c == '\t';
  });
  if (printable) {
    std::string text(head);
    std::replace_if(
        text.begin(), text.end(), [](char c) { return c == '\n' || c == '\t'; }, ' ');
    return fmt::format("the text '{}'", text);
  }
  std::string hex;
  for (const char c : head.substr(0, 8)) {
    hex += fmt::format("{:02x} ", static_cast<unsigned char>(c));
  }
  hex.pop_back();
  return fmt::format("the bytes {}", hex);
}

}  // namespace

void check_bitcode(const std::string& name, std::string_view bytes, const CompileOptions& options) {
  check_compile_options(options);
  // Raw bitcode starts with "BC" C0DE; the wrapper some tools add, with 0x0B17C0DE (little end).
  constexpr std::string_view kRaw("BC\xC0\xDE", 4);
  constexpr std::string_view kWrapper("\xDE\xC0\x17\x0B", 4);
  if (bytes.empty()) {
    throw UsageError(fmt::format("kjit: bitcode '{}' is empty", name));
  }
  if (!bytes.starts_with(kRaw) && !bytes.starts_with(kWrapper)) {
    throw UsageError(fmt::format(
        "kjit: '{}' is not LLVM bitcode: it starts with {}, not 'BC' C0 DE (textual IR and "
        "source go to Program::from_source; make bitcode with clang -emit-llvm -c)",
        name, opening(bytes)));
  }
  const auto refuse = [&](const char* what) {
    throw UsageError(fmt::format(
        "kjit: bitcode '{}' cannot take CompileOptions::{}: bitcode was preprocessed when it "
        "was made (only kernels and fast_math apply to it)",
        name, what));
  };
  if (!options.include_dirs.empty()) {
    refuse("include_dirs");
  }
  if (!options.headers.empty()) {
    refuse("headers");
  }
  if (!options.defines.empty()) {
    refuse("defines");
  }
  if (options.debug) {
    throw UsageError(fmt::format(
        "kjit: bitcode '{}' cannot take CompileOptions::debug: kjit compiles no source for it, so "
        "it has only the debug information its maker put in (clang -g)",
        name));
  }
}

}  // namespace kjit::detail
