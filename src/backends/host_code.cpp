#include "backends/host_code.hpp"

#include "backends/source_tokens.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <set>

namespace kjit::backend {

namespace {

using Kind = SourceToken::Kind;

// What a function body that calls one of these cannot be: device code. C library I/O and
// process control, and the host halves of the CUDA samples' helpers.
constexpr std::array kHostCalls = {
    // The C library's host side: files, the process, strings and numbers from text.
    std::string_view("fprintf"),
    std::string_view("fopen"),
    std::string_view("fclose"),
    std::string_view("fread"),
    std::string_view("fwrite"),
    std::string_view("fscanf"),
    std::string_view("fgets"),
    std::string_view("fputs"),
    std::string_view("fflush"),
    std::string_view("sprintf"),
    std::string_view("snprintf"),
    std::string_view("sscanf"),
    std::string_view("exit"),
    std::string_view("abort"),
    std::string_view("getenv"),
    std::string_view("system"),
    std::string_view("atoi"),
    std::string_view("atol"),
    std::string_view("atof"),
    std::string_view("strtol"),
    std::string_view("strtod"),
    std::string_view("strtoul"),
    std::string_view("strlen"),
    std::string_view("strcpy"),
    std::string_view("strncpy"),
    std::string_view("strcat"),
    std::string_view("strcmp"),
    std::string_view("strncmp"),
    std::string_view("strchr"),
    std::string_view("strrchr"),
    std::string_view("strstr"),
    std::string_view("strdup"),
    std::string_view("strcasecmp"),
    std::string_view("strncasecmp"),
    std::string_view("srand"),
    std::string_view("rand"),
    std::string_view("time"),
    std::string_view("gettimeofday"),
    // cuda-samples' helpers (helper_cuda.h, helper_functions.h).
    std::string_view("checkCudaErrors"),
    std::string_view("getLastCudaError"),
    std::string_view("sdkCreateTimer"),
    std::string_view("findCudaDevice"),
};

// What the C++ library's host side names after "std::": a body that uses one is host code.
constexpr std::array kHostLibraryNames = {
    std::string_view("string"),        std::string_view("ifstream"),
    std::string_view("ofstream"),      std::string_view("fstream"),
    std::string_view("cout"),          std::string_view("cerr"),
    std::string_view("endl"),          std::string_view("vector"),
    std::string_view("stringstream"),  std::string_view("ostringstream"),
    std::string_view("istringstream"), std::string_view("getline"),
    std::string_view("runtime_error"), std::string_view("exception"),
};

// Tokens that may follow a function's parameter list before its body.
constexpr std::array kTrailing = {
    std::string_view("const"),    std::string_view("volatile"), std::string_view("noexcept"),
    std::string_view("override"), std::string_view("final"),    std::string_view("&"),
    std::string_view("&&"),       std::string_view("mutable"),
};

class Scanner {
 public:
  Scanner(std::string_view source, const std::vector<SourceToken>& tokens)
      : s_(source), t_(tokens) {}

  /// The edits, or false when the braces do not balance.
  bool run() {
    std::size_t head = 0;   // first token of the declaration being read at this scope
    std::size_t depth = 0;  // namespaces and linkage blocks open
    for (std::size_t i = 0; i < t_.size(); ++i) {
      const std::string_view w = text(i);
      if (w == ";") {
        instantiations_.emplace_back(head, i);
        head = i + 1;
      } else if (w == "}") {
        if (depth == 0) {
          return false;
        }
        --depth;
        head = i + 1;
      } else if (w == "{") {
        switch (classify(head, i)) {
          case Head::scope:
            ++depth;
            head = i + 1;
            break;
          case Head::function: {
            const std::optional<std::size_t> end = matching(i);
            if (!end) {
              return false;
            }
            consider_function(head, i, *end);
            i = *end;
            head = i + 1;
            break;
          }
          case Head::member_init:  // a brace of a constructor's initializer list
          case Head::other: {
            const std::optional<std::size_t> end = matching(i);
            if (!end) {
              return false;
            }
            i = *end;  // the declaration goes on (a class body ends at its ";")
            break;
          }
        }
      }
    }
    if (depth != 0) {
      return false;
    }
    erase_callers_of_erased();
    for (const auto& [from, semicolon] : instantiations_) {
      consider_instantiation(from, semicolon);
    }
    std::sort(edits_.begin(), edits_.end(),
              [](const Edit& a, const Edit& b) { return a.begin < b.begin; });
    return true;
  }

  struct Edit {
    std::size_t begin;  // bytes [begin, end) become blanks (newlines kept)
    std::size_t end;
    bool mark;                       // write the host-only mark and a semicolon at begin
    std::string_view replacement{};  // when set: what [begin, end) becomes instead of blanks
  };
  [[nodiscard]] const std::vector<Edit>& edits() const noexcept { return edits_; }

 private:
  enum class Head { scope, function, member_init, other };

  [[nodiscard]] std::string_view text(std::size_t i) const { return t_[i].text(s_); }

  [[nodiscard]] std::optional<std::size_t> matching(std::size_t open) const {
    const std::string_view o = text(open);
    const std::string_view c = o == "{" ? "}" : o == "(" ? ")" : "]";
    std::size_t level = 0;
    for (std::size_t i = open; i < t_.size(); ++i) {
      const std::string_view w = text(i);
      if (w == o) {
        ++level;
      } else if (w == c && --level == 0) {
        return i;
      }
    }
    return std::nullopt;
  }

  /// The last token of a parameter list in [head, end), skipping what may follow one
  /// (qualifiers, noexcept(...), attributes, a trailing return type); nullopt if there is none.
  [[nodiscard]] std::optional<std::size_t> parameter_list_end(std::size_t head,
                                                              std::size_t end) const {
    // A trailing return type: from a top-level "->" after a ")".
    std::size_t level = 0;
    for (std::size_t i = head; i < end; ++i) {
      const std::string_view w = text(i);
      level += (w == "(" || w == "[") ? 1 : 0;
      level -= (w == ")" || w == "]") && level > 0 ? 1 : 0;
      if (level == 0 && w == "->" && i > head && text(i - 1) != "operator") {
        end = i;
        break;
      }
    }
    std::size_t i = end;
    while (i > head) {
      const std::string_view w = text(i - 1);
      if (std::find(kTrailing.begin(), kTrailing.end(), w) != kTrailing.end()) {
        --i;
        continue;
      }
      if (w == ")" || w == "]") {  // noexcept(...), __attribute__((...)), [[...]]: skip them
        const std::size_t open = opening(i - 1, head);
        if (open == head) {
          return std::nullopt;
        }
        const std::string_view before = text(open - 1);
        if (before == "noexcept" || before == "throw" || before == "__attribute__" ||
            before == "__declspec" || (w == "]" && before == "[")) {
          i = open - 1;  // before the attribute's name or first "["
          continue;
        }
        if (w == ")") {
          return i - 1;
        }
      }
      return std::nullopt;
    }
    return std::nullopt;
  }

  /// The token that opens the bracket closed at `close`, at or after `floor`; `floor` if none.
  [[nodiscard]] std::size_t opening(std::size_t close, std::size_t floor) const {
    const std::string_view c = text(close);
    const std::string_view o = c == ")" ? "(" : "[";
    std::size_t level = 0;
    for (std::size_t i = close + 1; i-- > floor;) {
      const std::string_view w = text(i);
      if (w == c) {
        ++level;
      } else if (w == o && --level == 0) {
        return i;
      }
    }
    return floor;
  }

  [[nodiscard]] bool has_word(std::size_t head, std::size_t end, std::string_view word) const {
    for (std::size_t i = head; i < end; ++i) {
      if (text(i) == word) {
        return true;
      }
    }
    return false;
  }

  /// A top-level "=" (an initializer; not operator=, ==, <= ...) in [head, end).
  [[nodiscard]] bool has_initializer(std::size_t head, std::size_t end) const {
    std::size_t level = 0;
    for (std::size_t i = head; i < end; ++i) {
      const std::string_view w = text(i);
      level += (w == "(" || w == "[") ? 1 : 0;
      level -= (w == ")" || w == "]") && level > 0 ? 1 : 0;
      if (level == 0 && w == "=" && (i == head || text(i - 1) != "operator")) {
        return true;
      }
    }
    return false;
  }

  /// The ":" that opens a constructor's initializer list in [head, brace) (") : a(1), b{2}").
  [[nodiscard]] std::optional<std::size_t> initializer_list_colon(std::size_t head,
                                                                  std::size_t brace) const {
    for (std::size_t i = head + 1; i < brace; ++i) {
      if (text(i) == ":" && text(i - 1) == ")") {
        return i;
      }
    }
    return std::nullopt;
  }

  Head classify(std::size_t head, std::size_t brace) const {
    if (head == brace) {
      return Head::other;
    }
    if (has_word(head, brace, "namespace") ||
        (brace - head == 2 && text(head) == "extern" && t_[head + 1].kind == Kind::literal)) {
      return Head::scope;
    }
    if (has_initializer(head, brace)) {
      return Head::other;
    }
    // A constructor's initializer list: ") : a(1), b{2} {". Its braces follow a name.
    if (initializer_list_colon(head, brace)) {
      const std::string_view before = text(brace - 1);
      if (t_[brace - 1].kind == Kind::identifier || before == ">") {
        return Head::member_init;
      }
      return Head::function;
    }
    if (parameter_list_end(head, brace)) {
      return Head::function;
    }
    return Head::other;  // a class, an enum, a lambda's body at namespace scope ...
  }

  /// The token of the name a function definition declares: the identifier before its parameter
  /// list.
  [[nodiscard]] std::optional<std::size_t> declared_name_at(std::size_t head,
                                                            std::size_t brace) const {
    const std::size_t end = initializer_list_colon(head, brace).value_or(brace);
    const std::optional<std::size_t> close = parameter_list_end(head, end);
    if (!close) {
      return std::nullopt;
    }
    const std::size_t open = opening(*close, head);
    if (open > head && t_[open - 1].kind == Kind::identifier) {
      return open - 1;
    }
    return std::nullopt;
  }
  [[nodiscard]] std::string_view declared_name(std::size_t head, std::size_t brace) const {
    const std::optional<std::size_t> at = declared_name_at(head, brace);
    return at ? text(*at) : std::string_view();
  }

  [[nodiscard]] bool body_is_host_code(std::size_t open, std::size_t close) const {
    for (std::size_t i = open + 1; i < close; ++i) {
      const std::string_view w = text(i);
      if (w == "<<<") {
        return true;
      }
      if (w == "std" && i + 2 < close && text(i + 1) == "::" &&
          std::find(kHostLibraryNames.begin(), kHostLibraryNames.end(), text(i + 2)) !=
              kHostLibraryNames.end()) {
        return true;
      }
      if (t_[i].kind != Kind::identifier || i + 1 >= close || text(i + 1) != "(") {
        continue;
      }
      const bool runtime_api =
          (w.starts_with("cuda") || w.starts_with("cu")) && w.size() > 4 &&
          std::isupper(static_cast<unsigned char>(w[w.starts_with("cuda") ? 4 : 2])) != 0;
      if (runtime_api || std::find(kHostCalls.begin(), kHostCalls.end(), w) != kHostCalls.end()) {
        return true;
      }
    }
    return false;
  }

  /// A kernel launch in device code (dynamic parallelism): `k<<<g, b>>>(args)` becomes
  /// `k,__KJIT_DEVICE_LAUNCH(g, b),(args)`, whose mark each prelude defines as an error that
  /// names the feature, at the launch's line.
  void mark_device_launches(std::size_t open, std::size_t close) {
    for (std::size_t i = open + 1; i < close; ++i) {
      if (text(i) != "<<<") {
        continue;
      }
      for (std::size_t j = i + 1; j < close; ++j) {
        if (text(j) == ">>>") {
          edits_.push_back({t_[i].begin, t_[i].end, false, ",__KJIT_DEVICE_LAUNCH("});
          edits_.push_back({t_[j].begin, t_[j].end, false, "),"});
          i = j;
          break;
        }
      }
    }
  }

  void consider_function(std::size_t head, std::size_t open, std::size_t close) {
    if (has_word(head, open, "__device__") || has_word(head, open, "__global__")) {
      mark_device_launches(open, close);
      return;  // device code, whatever else it is
    }
    const bool host = has_word(head, open, "__host__");
    if (declared_name(head, open) == "main") {
      edits_.push_back({t_[head].begin, t_[close].end, false});
      return;
    }
    if (!host && !body_is_host_code(open, close)) {
      kept_.push_back({head, open, close});
      return;
    }
    erase_function({head, open, close});
  }

  struct Function {
    std::size_t head, open, close;  // first token, the body's braces
  };

  void erase_function(const Function& f) {
    const std::optional<std::size_t> name_at = declared_name_at(f.head, f.open);
    const std::string_view name = name_at ? text(*name_at) : std::string_view();
    if (name_at && *name_at > f.head && text(*name_at - 1) == "::") {
      // A member defined outside its class (helper_timer.h's StopWatchLinux::start): left as a
      // declaration it would redeclare the member, which C++ forbids; the class declares it.
      edits_.push_back({t_[f.head].begin, t_[f.close].end, false});
    } else {
      // A constructor's initializer list goes with the body.
      const std::size_t from = initializer_list_colon(f.head, f.open).value_or(f.open);
      edits_.push_back({t_[from].begin, t_[f.close].end, true});
    }
    if (!name.empty()) {
      erased_.insert(name);
      if (has_word(f.head, f.open, "template")) {
        erased_templates_.insert(name);
      }
    }
  }

  /// Functions that call one erased are host code too (helper_image.h's inline sdkLoadPGM calls
  /// the erased __loadPPM): erased in turn, until none is left.
  void erase_callers_of_erased() {
    for (bool changed = true; changed;) {
      changed = false;
      for (auto it = kept_.begin(); it != kept_.end();) {
        if (calls_erased(it->open, it->close)) {
          erase_function(*it);
          it = kept_.erase(it);
          changed = true;
        } else {
          ++it;
        }
      }
    }
  }

  [[nodiscard]] bool calls_erased(std::size_t open, std::size_t close) const {
    for (std::size_t i = open + 1; i + 1 < close; ++i) {
      if (t_[i].kind == Kind::identifier && text(i + 1) == "(" && erased_.contains(text(i))) {
        return true;
      }
    }
    return false;
  }

  /// An explicit instantiation of a function template erased above (`template void
  /// reduce<int>(...);`, `extern template ...`) goes too: the template has no body left to
  /// instantiate.
  void consider_instantiation(std::size_t head, std::size_t semicolon) {
    std::size_t i = head;
    if (i < semicolon && text(i) == "extern") {
      ++i;
    }
    if (i + 1 >= semicolon || text(i) != "template" || text(i + 1) == "<") {
      return;
    }
    // The name before the first "(" or before the "<" of the arguments that precede it.
    for (std::size_t j = i + 1; j < semicolon; ++j) {
      if (text(j) != "(" && text(j) != "<") {
        continue;
      }
      if (t_[j - 1].kind == Kind::identifier && erased_templates_.contains(text(j - 1))) {
        edits_.push_back({t_[head].begin, t_[semicolon].end, false});
      }
      return;
    }
  }

  std::string_view s_;
  const std::vector<SourceToken>& t_;
  std::vector<Edit> edits_;
  std::set<std::string_view> erased_templates_;  // names of function templates erased
  std::set<std::string_view> erased_;            // names of every function erased
  std::vector<Function> kept_;                   // functions kept, but not device code by mark
  // Declarations at namespace scope (first token, semicolon): explicit instantiations among them
  // go once every erased template is known.
  std::vector<std::pair<std::size_t, std::size_t>> instantiations_;
};

/// `text` with blanks for everything but line breaks and preprocessor directives (kept whole, so
/// that an #if, #endif or #define inside an erased function still counts).
std::string blanked(std::string_view text) {
  std::string out(text);
  bool line_start = false;  // the text starts inside a line
  bool directive = false;
  for (std::size_t i = 0; i < out.size(); ++i) {
    const char c = out[i];
    if (c == '\n') {
      directive = directive && i > 0 && out[i - 1] == '\\';  // a continued directive line
      line_start = !directive;
      continue;
    }
    if (line_start && c == '#') {
      directive = true;
    }
    if (c != ' ' && c != '\t') {
      line_start = false;
    }
    if (!directive) {
      out[i] = ' ';
    }
  }
  return out;
}

}  // namespace

std::string erase_host_functions(std::string_view source) {
  const std::optional<std::vector<SourceToken>> tokens = tokenize(source);
  if (!tokens) {
    return std::string(source);
  }
  Scanner scanner(source, *tokens);
  if (!scanner.run() || scanner.edits().empty()) {
    return std::string(source);
  }
  std::string out;
  out.reserve(source.size() + 32 * scanner.edits().size());
  std::size_t at = 0;
  for (const Scanner::Edit& e : scanner.edits()) {
    out.append(source.substr(at, e.begin - at));
    if (!e.replacement.empty()) {
      out += e.replacement;
      at = e.end;
      continue;
    }
    std::string blank = blanked(source.substr(e.begin, e.end - e.begin));
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
  out.append(source.substr(at));
  return out;
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

}  // namespace kjit::backend
