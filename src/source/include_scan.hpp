// The files a program may include, found before compiling, so that the cache key covers the
// text of every header: change one and the key changes; change an unrelated file and it does not.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace kjit::source {

/// A program's files as the scan follows them: its main file (from disk or given as text), the
/// directories searched for its includes, and the headers given in memory.
struct ProgramFiles {
  const std::string& name;  // the main file as messages name it ("saxpy.cu")
  const std::string& text;  // the main file's text
  /// Absolute path of the main file when it came from disk (relative includes resolve there).
  const std::optional<std::filesystem::path>& path;
  const std::vector<std::filesystem::path>& include_dirs;
  const std::vector<std::pair<std::string, std::string>>& headers;  // include name -> text
};

struct IncludeScan {
  /// ("include \"vec.h\" [beside]", hash of its text), in the order they were found. A name the
  /// search finds in several places lists each, so that the key does not depend on which one the
  /// compiler picks. Names found nowhere (the compiler's own headers) are left out.
  std::vector<std::pair<std::string, std::string>> files;
  /// Each include name (as written between the quotes or brackets) that a file on disk answers,
  /// with the first file found for it, in the order found.
  std::vector<std::pair<std::string, std::filesystem::path>> found;
  /// Each include name that nothing on disk or in memory answers, with where it is first
  /// included (the compiler's own headers, kjit's, or a file the machine lacks).
  struct Missing {
    std::string name;
    std::string where;  // the including file, as messages name it
    int line = 0;
    bool quoted = false;  // "name" rather than <name>
  };
  std::vector<Missing> missing;
  /// Set when an include cannot be resolved before compiling (#include MACRO): why.
  std::optional<std::string> uncacheable;
};

/// `text` with comments blanked and continued lines joined; newlines are kept, so that line
/// numbers still hold.
std::string without_comments(const std::string& text);

/// Follows #include lines (whatever #if they sit in) from the main file through the in-memory
/// headers and the files found beside the including file and in the include dirs.
IncludeScan scan_includes(const ProgramFiles& files);

}  // namespace kjit::source
