#include "source/host_code.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>

namespace kjit::source {

namespace {

using Kind = Declaration::Kind;

struct Edit {
  std::size_t begin;  // bytes [begin, end) become blanks (newlines and directives kept)
  std::size_t end;
  bool mark = false;               // write the host-only mark and a semicolon at begin
  std::string_view replacement{};  // when set: what [begin, end) becomes instead of blanks
};

class FileEdits {
 public:
  FileEdits(const FileView& file, const DeviceReach& reach) : f_(file), reach_(reach) {}

  std::vector<Edit> run() {
    const std::vector<Declaration>& decls = f_.declarations.declarations;
    std::vector<Fate> fates(decls.size(), Fate::erased);
    for (std::size_t i = 0; i < decls.size(); ++i) {
      const Declaration& d = decls[i];
      fates[i] = reach_.fate(f_, i, fates);
      if (d.parent && fates[*d.parent] != Fate::kept) {
        continue;  // inside a class that went
      }
      switch (fates[i]) {
        case Fate::erased:
          edits_.push_back({begin(d.head), end(d.end)});
          break;
        case Fate::declaration:
          // A constructor's initializer list goes with the body.
          edits_.push_back({begin(initializer_list_colon(d).value_or(d.body)), end(d.end), true});
          break;
        case Fate::kept:
          if (d.kind == Kind::function) {
            mark_device_launches(d.body, d.end);
            rewrite_compound_literals(d.body, d.end);
          }
          break;
      }
    }
    std::sort(edits_.begin(), edits_.end(),
              [](const Edit& a, const Edit& b) { return a.begin < b.begin; });
    return std::move(edits_);
  }

 private:
  [[nodiscard]] std::size_t begin(std::size_t token) const {
    return f_.declarations.tokens[token].begin;
  }
  [[nodiscard]] std::size_t end(std::size_t token) const {
    return f_.declarations.tokens[token].end;
  }

  /// The ":" that opens a constructor's initializer list (") : a(1), b{2} {").
  [[nodiscard]] std::optional<std::size_t> initializer_list_colon(const Declaration& d) const {
    for (std::size_t i = d.head + 1; i < d.body; ++i) {
      if (f_.token(i) == ":" && f_.token(i - 1) == ")") {
        return i;
      }
    }
    return std::nullopt;
  }

  /// A C compound literal in device code, `(struct point){x, y}` (a GNU extension that nvcc's
  /// front end takes and NVRTC refuses), becomes the C++ it means: `point{x, y}`.
  void rewrite_compound_literals(std::size_t open, std::size_t close) {
    for (std::size_t i = open + 1; i + 4 < close; ++i) {
      if (f_.token(i) == "(" && f_.token(i + 1) == "struct" &&
          f_.declarations.tokens[i + 2].kind == SourceToken::Kind::identifier &&
          f_.token(i + 3) == ")" && f_.token(i + 4) == "{") {
        edits_.push_back({begin(i), end(i + 3), false, f_.token(i + 2)});
        i += 4;
      }
    }
  }

  /// A kernel launch in device code (dynamic parallelism): `k<<<g, b>>>(args)` becomes
  /// `k,__KJIT_DEVICE_LAUNCH(g, b),(args)`, whose mark each prelude defines as an error that
  /// names the feature, at the launch's line.
  void mark_device_launches(std::size_t open, std::size_t close) {
    for (std::size_t i = open + 1; i < close; ++i) {
      if (f_.token(i) != "<<<") {
        continue;
      }
      for (std::size_t j = i + 1; j < close; ++j) {
        if (f_.token(j) == ">>>") {
          edits_.push_back({begin(i), end(i), false, ",__KJIT_DEVICE_LAUNCH("});
          edits_.push_back({begin(j), end(j), false, "),"});
          i = j;
          break;
        }
      }
    }
  }

  const FileView& f_;
  const DeviceReach& reach_;
  std::vector<Edit> edits_;
};

/// Whether the directive whose '#' is at `hash` is a #pragma.
bool is_pragma(std::string_view text, std::size_t hash) {
  const std::size_t word = text.find_first_not_of(" \t", hash + 1);
  if (word == std::string_view::npos || text.substr(word, 6) != "pragma") {
    return false;
  }
  const std::size_t after = word + 6;
  return after == text.size() ||
         (std::isalnum(static_cast<unsigned char>(text[after])) == 0 && text[after] != '_');
}

/// `text` with blanks for everything but line breaks and preprocessor directives (kept whole, so
/// that an #if, #endif or #define inside an erased function still counts). A #pragma goes with
/// the code around it: `#pragma unroll` left at file scope is an error to Clang.
std::string blanked(std::string_view text) {
  std::string out(text);
  bool line_start = false;  // the text starts inside a line
  bool directive = false;
  bool pragma = false;
  for (std::size_t i = 0; i < out.size(); ++i) {
    const char c = out[i];
    if (c == '\n') {
      // A continued directive line ends with a backslash (before "\r\n" too).
      const std::size_t last = i > 0 && out[i - 1] == '\r' ? i - 1 : i;
      directive = directive && last > 0 && out[last - 1] == '\\';
      pragma = pragma && directive;
      line_start = !directive;
      continue;
    }
    if (line_start && c == '#') {
      directive = true;
      pragma = is_pragma(text, i);
    }
    if (c != ' ' && c != '\t') {
      line_start = false;
    }
    if (!directive || pragma) {
      out[i] = ' ';
    }
  }
  return out;
}

}  // namespace

HostCodeFilter::HostCodeFilter(const std::vector<std::string_view>& files,
                               const std::vector<std::string>& host_names)
    : reach_(files, host_names) {}

std::string HostCodeFilter::erase(std::string_view text) const {
  const std::optional<FileDeclarations> declarations =
      read_declarations(text, reach_.statement_macros());
  if (!declarations) {
    return std::string(text);
  }
  const std::vector<Edit> edits = FileEdits(FileView{text, *declarations}, reach_).run();
  std::string out;
  out.reserve(text.size() + 32 * edits.size());
  std::size_t at = 0;
  for (const Edit& e : edits) {
    out.append(text.substr(at, e.begin - at));
    if (!e.replacement.empty()) {
      out += e.replacement;
      at = e.end;
      continue;
    }
    std::string blank = blanked(text.substr(e.begin, e.end - e.begin));
    if (e.mark) {
      // " __KJIT_HOST_ONLY;" over the blanks where it fits, so that columns after it hold.
      const std::string mark = " __KJIT_HOST_ONLY;";
      const std::size_t line = blank.find('\n');
      const std::size_t room = line == std::string::npos ? blank.size() : line;
      blank.replace(0, std::min(room, mark.size()), mark);
    }
    out += blank;
    at = e.end;
  }
  out.append(text.substr(at));
  return out;
}

std::string erase_host_code(std::string_view source) {
  return HostCodeFilter({source}, {}).erase(source);
}

std::optional<std::string> host_only_callee(std::string_view message) {
  if (message.find(kHostOnlyMark) == std::string_view::npos) {
    return std::nullopt;
  }
  // Clang: 'name' is deprecated: ...   NVRTC: function "name" was declared deprecated (...)
  for (const char quote : {'\'', '"'}) {
    const std::size_t open = message.find(quote);
    if (open != std::string_view::npos) {
      const std::size_t close = message.find(quote, open + 1);
      if (close != std::string_view::npos && close > open + 1) {
        std::string name(message.substr(open + 1, close - open - 1));
        // NVRTC names template instances in full: "cudaMalloc(T **, size_t) [with T=float]".
        return name.substr(0, name.find('('));
      }
    }
  }
  return std::nullopt;
}

std::string host_call_message(std::string_view name) {
  return fmt::format(
      "'{}' is a host function, and device code calls it: kjit compiles kernels and device "
      "functions only (a host function of a kernel file is kept as a declaration)",
      name);
}

bool is_host_callee(std::string_view symbol, std::string_view callee) {
  const std::string_view base = symbol.substr(0, symbol.find('('));
  if (base == callee) {
    return true;
  }
  // "ns::launch" against "launch", and "cudaMalloc<float>" against "cudaMalloc".
  const std::size_t scope = base.rfind("::");
  const std::string_view last = scope == std::string_view::npos ? base : base.substr(scope + 2);
  return last == callee || last.substr(0, last.find('<')) == callee;
}

}  // namespace kjit::source
