#include "source/include_scan.hpp"

#include "support/file_text.hpp"
#include "support/hash.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>
#include <sstream>

namespace kjit::source {

namespace {

struct Directive {
  std::string name;  // what is between the quotes or the angle brackets
  bool quoted = false;
  int line = 0;
  bool computed = false;  // #include MACRO
};

}  // namespace

std::string without_comments(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    const char next = i + 1 < text.size() ? text[i + 1] : '\0';
    if (c == '\\' && next == '\n') {
      ++i;  // a continued line: join, but keep the line count
      continue;
    }
    if (c == '/' && next == '/') {
      while (i < text.size() && text[i] != '\n') {
        ++i;
      }
      out += '\n';
      continue;
    }
    if (c == '/' && next == '*') {
      i += 2;
      while (i < text.size() && !(text[i] == '*' && i + 1 < text.size() && text[i + 1] == '/')) {
        if (text[i] == '\n') {
          out += '\n';
        }
        ++i;
      }
      ++i;
      out += ' ';
      continue;
    }
    if (c == '"' || c == '\'') {  // a literal: copied whole, so "//" inside it is no comment
      out += c;
      for (++i; i < text.size() && text[i] != c && text[i] != '\n'; ++i) {
        out += text[i];
        if (text[i] == '\\' && i + 1 < text.size()) {
          out += text[++i];
        }
      }
      if (i < text.size()) {
        out += text[i];
      }
      continue;
    }
    out += c;
  }
  return out;
}

namespace {

std::vector<Directive> directives(const std::string& text) {
  std::vector<Directive> found;
  std::istringstream lines(without_comments(text));
  std::string line;
  int number = 0;
  while (std::getline(lines, line)) {
    ++number;
    std::size_t i = line.find_first_not_of(" \t");
    if (i == std::string::npos || line[i] != '#') {
      continue;
    }
    i = line.find_first_not_of(" \t", i + 1);
    if (i == std::string::npos) {
      continue;
    }
    std::string_view rest(line);
    rest.remove_prefix(i);
    std::size_t word = 0;
    for (const std::string_view w : {"include_next", "include", "import"}) {
      if (rest.starts_with(w)) {
        word = w.size();
        break;
      }
    }
    if (word == 0 ||
        (rest.size() > word &&
         (std::isalnum(static_cast<unsigned char>(rest[word])) != 0 || rest[word] == '_'))) {
      continue;
    }
    rest.remove_prefix(word);
    const std::size_t start = rest.find_first_not_of(" \t");
    if (start == std::string_view::npos) {
      continue;  // "#include" alone: the compiler reports it
    }
    rest.remove_prefix(start);
    const char open = rest.front();
    const char close = open == '"' ? '"' : '>';
    const std::size_t end = rest.find(close, 1);
    Directive d;
    d.line = number;
    if ((open != '"' && open != '<') || end == std::string_view::npos) {
      d.computed = true;
    } else {
      d.name = std::string(rest.substr(1, end - 1));
      d.quoted = open == '"';
    }
    found.push_back(std::move(d));
  }
  return found;
}

class Scanner {
 public:
  explicit Scanner(const ProgramFiles& files) : files_(files) {}

  IncludeScan run() {
    std::optional<std::filesystem::path> dir;
    if (files_.path) {
      dir = files_.path->parent_path();
      visited_.insert(files_.path->lexically_normal().string());
    }
    scan(files_.text, files_.name, dir);
    return std::move(result_);
  }

 private:
  /// Scans `text` (named `where` in messages), which lives in `dir` when it is a file on disk.
  void scan(const std::string& text, const std::string& where,
            const std::optional<std::filesystem::path>& dir) {
    for (const Directive& d : directives(text)) {
      if (result_.uncacheable) {
        return;
      }
      if (d.computed) {
        result_.uncacheable =
            fmt::format("the #include at {}:{} names no file before preprocessing", where, d.line);
        return;
      }
      const std::string spelled = d.quoted ? "\"" + d.name + "\"" : "<" + d.name + ">";
      bool found = false;
      if (d.quoted && dir) {
        found = visit_file(*dir / d.name, d.name, spelled, "beside");
      }
      const auto header = std::find_if(files_.headers.begin(), files_.headers.end(),
                                       [&](const auto& h) { return h.first == d.name; });
      if (header != files_.headers.end()) {
        found = true;
        if (visited_.insert("memory:" + d.name).second) {
          // Its text is in the key already (as an in-memory header); follow its includes.
          scan(header->second, d.name, std::nullopt);
        }
      }
      for (std::size_t i = 0; i < files_.include_dirs.size(); ++i) {
        found = visit_file(files_.include_dirs[i] / d.name, d.name, spelled,
                           fmt::format("dir {}", i)) ||
                found;
      }
      if (!found && missing_names_.insert(d.name).second) {
        result_.missing.push_back({d.name, where, d.line, d.quoted});
      }
    }
  }

  /// Follows the file at `path` if there is one; whether there is.
  bool visit_file(const std::filesystem::path& path, const std::string& name,
                  const std::string& spelled, const std::string& where) {
    const std::string normal = path.lexically_normal().string();
    const std::string label = fmt::format("include {} [{}]", spelled, where);
    if (const auto known = hashes_.find(normal); known != hashes_.end()) {
      result_.files.emplace_back(label, known->second);
      return true;
    }
    std::optional<std::string> text = detail::read_file(path);
    if (!text) {
      return false;
    }
    if (found_names_.insert(name).second) {
      result_.found.emplace_back(name, path);
    }
    const std::string& hash = hashes_.emplace(normal, detail::hash128_hex(*text)).first->second;
    result_.files.emplace_back(label, hash);
    if (visited_.insert(normal).second) {
      scan(*text, path.string(), path.parent_path());
    }
    return true;
  }

  ProgramFiles files_;
  IncludeScan result_;
  std::set<std::string> visited_;
  std::set<std::string> found_names_;
  std::set<std::string> missing_names_;
  std::map<std::string, std::string> hashes_;  // normal path -> hash of the file's text
};

}  // namespace

IncludeScan scan_includes(const ProgramFiles& files) {
  return Scanner(files).run();
}

}  // namespace kjit::source
