#include "source/kernel_names.hpp"

#include "source/declarations.hpp"
#include "source/macros.hpp"

#include <algorithm>
#include <set>

namespace kjit::source {

KernelNames kernels_defined(std::string_view text) {
  // Macros of the text that spell __global__ (#define KERNEL __global__ void), through others.
  std::set<std::string, std::less<>> marks{"__global__"};
  const std::vector<MacroDefinition> macros = macro_definitions(text);
  for (bool changed = true; changed;) {
    changed = false;
    for (const MacroDefinition& m : macros) {
      if (marks.contains(m.name)) {
        continue;
      }
      const std::optional<std::vector<SourceToken>> tokens = tokenize(m.replacement);
      if (tokens && std::any_of(tokens->begin(), tokens->end(), [&](const SourceToken& t) {
            return marks.contains(t.text(m.replacement));
          })) {
        marks.emplace(m.name);
        changed = true;
      }
    }
  }
  KernelNames names;
  const std::optional<FileDeclarations> file = read_declarations(text);
  if (!file) {
    return names;
  }
  const auto word = [&](std::size_t i) { return file->tokens[i].text(text); };
  for (const Declaration& d : file->declarations) {
    if (d.kind != Declaration::Kind::function || d.parent || d.names.empty() ||
        !d.qualifier.empty()) {
      continue;
    }
    bool kernel = false;
    for (std::size_t i = d.head; i < d.body && !kernel; ++i) {
      kernel = marks.contains(word(i));
    }
    if (!kernel) {
      continue;
    }
    const bool is_template = word(d.head) == "template" && word(d.head + 1) == "<";
    std::vector<std::string>& list = is_template ? names.templates : names.plain;
    const std::string name(d.names.front());
    if (std::find(list.begin(), list.end(), name) == list.end()) {
      list.push_back(name);
    }
  }
  return names;
}

}  // namespace kjit::source
