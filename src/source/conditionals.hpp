// Which lines of a kernel file the preprocessor keeps, as far as kjit can tell without running
// it: for what kjit reads from the text itself (Proteus's annotations), which a file may put
// behind a macro (`#ifdef ENABLE_JIT`).
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace kjit::source {

struct LiveLines {
  std::vector<bool> live;           // by line, 0-based: whether the preprocessor keeps it
  std::vector<unsigned> undecided;  // 1-based lines of conditions kjit did not evaluate

  /// Whether 1-based `line` is kept (a line past the end is).
  [[nodiscard]] bool operator()(unsigned line) const {
    return line == 0 || line > live.size() || live[line - 1];
  }
};

/// The lines of `text` that its #if, #ifdef, #ifndef, #elif, #else and #endif keep, with the
/// program's `defines` (NAME -> value; empty is 1, as CompileOptions::defines says) and the
/// macros the text #defines and #undefs above each condition. Decided: `#ifdef N`, `#ifndef N`,
/// `#if` and `#elif` of `0`, `1`, `N` (a definition as a number), `defined(N)` or `defined N`, each
/// possibly negated with `!`. Any other condition counts as true and is listed in `undecided`.
LiveLines live_lines(std::string_view text,
                     const std::map<std::string, std::string, std::less<>>& defines);

/// The macros defined after `text`: the program's `defines` and what the text #defines and
/// #undefs on the lines it keeps. For the headers a file includes, whose macros its conditions
/// test (LULESH's lulesh.h defines DOUBLE_PRECISION, which picks its kernels' launch bounds).
std::map<std::string, std::string, std::less<>> defines_after(
    std::string_view text, const std::map<std::string, std::string, std::less<>>& defines);

}  // namespace kjit::source
