#include "source/jit_annotations.hpp"

#include "source/conditionals.hpp"
#include "source/declarations.hpp"
#include "source/kernel_parameters.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <optional>

namespace kjit::source {

namespace {

class AnnotationReader {
 public:
  AnnotationReader(std::string_view text, const FileDeclarations& file, const LiveLines& live,
                   JitAnnotations& out)
      : text_(text), file_(file), live_(live), out_(out) {}

  void read(const Declaration& d) {
    std::optional<std::size_t> annotate;
    bool kernel = false;
    for (std::size_t i = d.head; i < d.body; ++i) {
      kernel = kernel || word(i) == "__global__";
      if (!annotate && word(i) == "annotate" && i + 2 < d.body && word(i + 1) == "(" &&
          word(i + 2) == "\"jit\"") {
        annotate = i;
      }
    }
    if (!annotate || !kernel) {
      return;  // another tool's annotation, or a host function's
    }
    JitAnnotation a;
    a.kernel = std::string(d.names.front());
    place(a, *annotate);
    if (!live_(a.line)) {
      return;  // behind an #if the program's macros turn off: the compiler never sees it
    }
    const std::optional<std::vector<std::string>> params =
        parameter_texts(text_, file_, d, a.kernel, &live_);
    if (!params) {
      problem(a, "its parameter list could not be read");
      return;
    }
    a.parameters = params->size();
    // After "jit": `, N` for each position, up to the closing parenthesis.
    std::size_t i = *annotate + 3;
    bool good = true;
    while (i < d.body && word(i) == ",") {
      std::size_t end = i + 1;
      int depth = 0;
      for (; end < d.body; ++end) {
        const std::string_view w = word(end);
        if (depth == 0 && (w == "," || w == ")")) {
          break;
        }
        depth += w == "(" ? 1 : w == ")" ? -1 : 0;
      }
      const std::string_view spelled(text_.data() + token(i + 1).begin,
                                     end > i + 1 ? token(end - 1).end - token(i + 1).begin : 0);
      good = position(a, *params, spelled, end == i + 2 ? &token(i + 1) : nullptr) && good;
      i = end;
    }
    if (a.positions.empty() && good) {
      problem(a, "it names no argument position (annotate(\"jit\", 1, 2) names the first two)");
      return;
    }
    if (!good) {
      return;
    }
    std::sort(a.positions.begin(), a.positions.end());
    a.positions.erase(std::unique(a.positions.begin(), a.positions.end()), a.positions.end());
    out_.kernels.push_back(std::move(a));
  }

 private:
  [[nodiscard]] const SourceToken& token(std::size_t i) const { return file_.tokens[i]; }
  [[nodiscard]] std::string_view word(std::size_t i) const {
    return i < file_.tokens.size() ? file_.tokens[i].text(text_) : std::string_view{};
  }
  /// Sets `a`'s line and column to token `i`'s.
  void place(JitAnnotation& a, std::size_t i) const {
    const std::string_view before = text_.substr(0, token(i).begin);
    a.line = line_at(text_, token(i).begin);
    const std::size_t start = before.rfind('\n');
    a.column =
        static_cast<unsigned>(before.size() - (start == std::string_view::npos ? 0 : start + 1)) +
        1;
  }

  void problem(const JitAnnotation& a, std::string message) {
    out_.problems.push_back({a.kernel, a.file, a.line, a.column, std::move(message)});
  }

  /// Records the position spelled `spelled` (its one token `single`, if it is one); false when it
  /// is not a position of a scalar parameter among `params`.
  bool position(JitAnnotation& a, const std::vector<std::string>& params, std::string_view spelled,
                const SourceToken* single) {
    std::size_t n = 0;
    const std::string digits(spelled);
    const char* last = digits.data() + digits.size();
    const bool integer = single != nullptr && single->kind == SourceToken::Kind::number &&
                         std::from_chars(digits.data(), last, n).ptr == last;
    if (!integer) {
      problem(a, fmt::format("argument position '{}' is not an integer (positions count the "
                             "kernel's parameters from 1)",
                             spelled));
      return false;
    }
    if (n == 0) {
      problem(a,
              "argument position 0 does not exist: positions count the kernel's parameters "
              "from 1, as Proteus does");
      return false;
    }
    if (n > params.size()) {
      problem(a, fmt::format("argument position {} is past the kernel's last parameter (it takes "
                             "{})",
                             n, params.size()));
      return false;
    }
    const std::string& param = params[n - 1];
    if (param.find_first_of("*&[") != std::string::npos) {
      problem(a, fmt::format("argument position {} is '{}', a pointer, array or reference: only "
                             "scalar arguments can be specialised",
                             n, param));
      return false;
    }
    a.positions.push_back(n - 1);
    return true;
  }

  std::string_view text_;
  const FileDeclarations& file_;
  const LiveLines& live_;
  JitAnnotations& out_;
};

}  // namespace

std::string_view declared_name(std::string_view name) {
  name = name.substr(0, name.find('<'));
  const std::size_t scope = name.rfind("::");
  return scope == std::string_view::npos ? name : name.substr(scope + 2);
}

const JitAnnotation* JitAnnotations::find(std::string_view name) const {
  const std::string_view declared = declared_name(name);
  const auto it = std::find_if(kernels.begin(), kernels.end(),
                               [&](const JitAnnotation& a) { return a.kernel == declared; });
  return it == kernels.end() ? nullptr : &*it;
}

std::vector<JitAnnotationProblem> JitAnnotations::problems_of(std::string_view name) const {
  const std::string_view declared = declared_name(name);
  std::vector<JitAnnotationProblem> found;
  std::copy_if(problems.begin(), problems.end(), std::back_inserter(found),
               [&](const JitAnnotationProblem& p) { return p.kernel == declared; });
  return found;
}

JitAnnotations read_jit_annotations(
    std::string_view text, const std::map<std::string, std::string, std::less<>>& defines) {
  JitAnnotations out;
  if (text.find("annotate") == std::string_view::npos) {
    return out;  // the common case, without reading the file
  }
  const std::optional<FileDeclarations> file = read_declarations(text);
  if (!file) {
    return out;
  }
  const LiveLines live = live_lines(text, defines);
  AnnotationReader reader(text, *file, live, out);
  for (const Declaration& d : file->declarations) {
    if ((d.kind == Declaration::Kind::function || d.kind == Declaration::Kind::prototype) &&
        !d.parent && !d.names.empty()) {
      reader.read(d);
    }
  }
  return out;
}

std::string without_jit_annotations(std::string_view text) {
  std::string out(text);
  if (text.find("annotate") == std::string_view::npos) {
    return out;
  }
  const std::optional<std::vector<SourceToken>> tokens = tokenize(text);
  if (!tokens) {
    return out;
  }
  const auto word = [&](std::size_t i) {
    return i < tokens->size() ? (*tokens)[i].text(text) : std::string_view{};
  };
  for (std::size_t i = 0; i + 5 < tokens->size(); ++i) {
    // __attribute__ ( ( annotate ( "jit" ... ) ) ), and nothing else in it
    if (word(i) != "__attribute__" || word(i + 1) != "(" || word(i + 2) != "(" ||
        word(i + 3) != "annotate" || word(i + 4) != "(" || word(i + 5) != "\"jit\"") {
      continue;
    }
    std::size_t end = i + 6;
    int depth = 1;  // inside annotate's parentheses
    for (; end < tokens->size() && depth > 0; ++end) {
      depth += word(end) == "(" ? 1 : word(end) == ")" ? -1 : 0;
    }
    if (depth != 0 || word(end) != ")" || word(end + 1) != ")") {
      continue;  // other attributes beside it: left to the compiler
    }
    for (std::size_t at = (*tokens)[i].begin; at < (*tokens)[end + 1].end; ++at) {
      if (out[at] != '\n') {
        out[at] = ' ';
      }
    }
    i = end + 1;
  }
  return out;
}

}  // namespace kjit::source
