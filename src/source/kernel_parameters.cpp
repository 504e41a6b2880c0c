#include "source/kernel_parameters.hpp"

#include "source/jit_annotations.hpp"
#include "source/source_tokens.hpp"

#include <algorithm>

namespace kjit::source {

namespace {

/// Whether a parameter's text has a `__restrict__` or `__restrict` word.
bool restricted(std::string_view param) {
  const std::optional<std::vector<SourceToken>> tokens = tokenize(param);
  return tokens && std::any_of(tokens->begin(), tokens->end(), [&](const SourceToken& t) {
           const std::string_view w = t.text(param);
           return w == "__restrict__" || w == "__restrict";
         });
}

}  // namespace

std::optional<std::vector<std::string>> parameter_texts(std::string_view text,
                                                        const FileDeclarations& file,
                                                        const Declaration& d, std::string_view name,
                                                        const LiveLines* live) {
  const auto word = [&](std::size_t i) {
    return i < file.tokens.size() ? file.tokens[i].text(text) : std::string_view{};
  };
  // The 1-based line of a token, counted on from the last one asked about (asked in order).
  std::size_t counted_to = 0;
  unsigned line = 1;
  const auto dropped = [&](std::size_t i) {
    if (live == nullptr) {
      return false;
    }
    const std::size_t at = file.tokens[i].begin;
    line += static_cast<unsigned>(std::count(text.begin() + static_cast<std::ptrdiff_t>(counted_to),
                                             text.begin() + static_cast<std::ptrdiff_t>(at), '\n'));
    counted_to = at;
    return !(*live)(line);
  };
  // The name before the list the preprocessor keeps (a declaration may spell another in an #if).
  std::size_t open = d.body;
  for (std::size_t i = d.head; i + 1 < d.body; ++i) {
    if (word(i) == name && word(i + 1) == "(" && !dropped(i)) {
      open = i + 1;
      break;
    }
  }
  if (open == d.body) {
    return std::nullopt;
  }
  std::vector<std::string> params;
  std::size_t first = open + 1;
  int depth = 0;  // (), [], {} and <> inside the list
  for (std::size_t i = open + 1; i < d.body; ++i) {
    if (dropped(i)) {
      if (first == i) {
        ++first;  // a parameter starts on a live line
      }
      continue;
    }
    const std::string_view w = word(i);
    if (depth == 0 && (w == "," || w == ")")) {
      if (i > first) {
        params.emplace_back(text.substr(file.tokens[first].begin,
                                        file.tokens[i - 1].end - file.tokens[first].begin));
      } else if (w == ",") {
        return std::nullopt;
      }
      if (w == ")") {
        if (params.size() == 1 && params.front() == "void") {
          params.clear();
        }
        return params;
      }
      first = i + 1;
      continue;
    }
    if (w == "(" || w == "[" || w == "{" || w == "<") {
      ++depth;
    } else if (w == ")" || w == "]" || w == "}" || w == ">") {
      --depth;
    } else if (w == ">>") {
      depth -= 2;
    }
  }
  return std::nullopt;
}

namespace {

/// Calls `visit(file, d, params, live)` for each __global__ declaration of kernel `declared` with
/// `count` parameters in `text` whose list can be read.
template <class Visit>
void visit_kernel_declarations(std::string_view text, std::string_view declared, std::size_t count,
                               const std::map<std::string, std::string, std::less<>>& defines,
                               Visit&& visit) {
  if (text.find(declared) == std::string_view::npos) {
    return;  // the common case, without reading the file
  }
  const std::optional<FileDeclarations> file = read_declarations(text);
  if (!file) {
    return;
  }
  const LiveLines live = live_lines(text, defines);
  for (const Declaration& d : file->declarations) {
    if ((d.kind != Declaration::Kind::function && d.kind != Declaration::Kind::prototype) ||
        d.parent || d.names.empty() || d.names.front() != declared) {
      continue;
    }
    bool kernel = false;
    for (std::size_t i = d.head; i < d.body && !kernel; ++i) {
      kernel = file->tokens[i].text(text) == "__global__";
    }
    const std::optional<std::vector<std::string>> params =
        kernel ? parameter_texts(text, *file, d, declared, &live) : std::nullopt;
    if (params && params->size() == count) {
      visit(*file, d, *params, live);
    }
  }
}

/// The text between the parentheses of the first `__launch_bounds__(...)` on a live line before
/// the name of declaration `d`; empty when there is none, or when they name one of the
/// declaration's template parameters (a variant's kernel is no template).
std::string bounds_text(std::string_view text, const FileDeclarations& file, const Declaration& d,
                        std::string_view declared, const LiveLines& live) {
  const auto word = [&](std::size_t i) {
    return i < file.tokens.size() ? file.tokens[i].text(text) : std::string_view{};
  };
  std::size_t after_template = d.head;  // the first token past `template <...>`, if any
  if (word(d.head) == "template" && word(d.head + 1) == "<") {
    int depth = 0;
    for (std::size_t i = d.head + 1; i < d.body; ++i) {
      depth += word(i) == "<" ? 1 : word(i) == ">" ? -1 : word(i) == ">>" ? -2 : 0;
      if (depth <= 0) {
        after_template = i + 1;
        break;
      }
    }
  }
  const auto template_parameter = [&](std::size_t k) {
    if (file.tokens[k].kind != SourceToken::Kind::identifier) {
      return false;
    }
    for (std::size_t i = d.head; i < after_template; ++i) {
      if (word(i) == word(k)) {
        return true;
      }
    }
    return false;
  };
  for (std::size_t i = after_template; i + 2 < d.body && word(i) != declared; ++i) {
    if (word(i) != "__launch_bounds__" || word(i + 1) != "(" ||
        !live(line_at(text, file.tokens[i].begin))) {
      continue;
    }
    int depth = 0;
    for (std::size_t j = i + 1; j < d.body; ++j) {
      depth += word(j) == "(" ? 1 : word(j) == ")" ? -1 : 0;
      if (depth == 0) {
        for (std::size_t k = i + 2; k < j; ++k) {
          if (template_parameter(k)) {
            return {};
          }
        }
        return j == i + 2
                   ? std::string{}
                   : std::string(text.substr(file.tokens[i + 2].begin,
                                             file.tokens[j - 1].end - file.tokens[i + 2].begin));
      }
    }
    return {};
  }
  return {};
}

}  // namespace

namespace {

/// What every declaration gave, or nothing when they disagree (or none gave anything).
template <class T>
T agreed(const std::vector<T>& seen) {
  if (seen.empty() ||
      std::any_of(seen.begin(), seen.end(), [&](const T& s) { return s != seen.front(); })) {
    return {};
  }
  return seen.front();
}

}  // namespace

KernelDeclaration read_kernel_declaration(
    std::span<const std::string_view> texts, std::string_view name, std::size_t count,
    const std::map<std::string, std::string, std::less<>>& defines) {
  const std::string_view declared = declared_name(name);
  std::vector<std::vector<std::size_t>> restricted_seen;
  std::vector<std::string> bounds_seen;
  for (const std::string_view text : texts) {
    visit_kernel_declarations(text, declared, count, defines,
                              [&](const FileDeclarations& file, const Declaration& d,
                                  const std::vector<std::string>& params, const LiveLines& live) {
                                std::vector<std::size_t> positions;
                                for (std::size_t p = 0; p < params.size(); ++p) {
                                  if (restricted(params[p])) {
                                    positions.push_back(p);
                                  }
                                }
                                restricted_seen.push_back(std::move(positions));
                                // A prototype without bounds does not disagree with a definition
                                // that gives them.
                                std::string bounds = bounds_text(text, file, d, declared, live);
                                if (!bounds.empty()) {
                                  bounds_seen.push_back(std::move(bounds));
                                }
                              });
  }
  return {agreed(restricted_seen), agreed(bounds_seen)};
}

}  // namespace kjit::source
