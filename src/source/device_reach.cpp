#include "source/device_reach.hpp"

#include "source/host_code_rules.hpp"
#include "source/macros.hpp"

#include <algorithm>
#include <array>
#include <optional>

namespace kjit::source {

namespace {

using Kind = Declaration::Kind;

constexpr std::array kKernelMarks = {
    std::string_view("__global__"),
    std::string_view("__KJIT_KERNEL"),  // a specialised variant's kernel (core/specialization.cpp)
};

// What marks device code besides a kernel's marks.
constexpr std::array kOtherDeviceMarks = {
    std::string_view("__device__"),
    std::string_view("__constant__"),
    std::string_view("__managed__"),
    std::string_view("__shared__"),
};

// Member functions that code uses without naming them: range-for's begin and end.
constexpr std::array kImplicitMembers = {std::string_view("begin"), std::string_view("end")};

bool is_kernel_mark(std::string_view w) {
  return std::find(kKernelMarks.begin(), kKernelMarks.end(), w) != kKernelMarks.end();
}

bool is_device_mark(std::string_view w) {
  return is_kernel_mark(w) || std::find(kOtherDeviceMarks.begin(), kOtherDeviceMarks.end(), w) !=
                                  kOtherDeviceMarks.end();
}

bool is_function(const Declaration& d) {
  return d.kind == Kind::function || d.kind == Kind::prototype;
}

bool is_identifier(const FileView& file, std::size_t i) {
  return file.declarations.tokens[i].kind == SourceToken::Kind::identifier;
}

}  // namespace

DeviceReach::DeviceReach(const std::vector<std::string_view>& files,
                         const std::vector<std::string>& host_names) {
  for (const std::string_view text : files) {
    read_macros(text);
  }
  // A macro that spells another's marks has them too (#define KERNEL GLOBAL_SPACE ...).
  for (bool changed = true; changed;) {
    changed = false;
    for (auto& [name, macro] : macros_) {
      for (const std::string& word : macro.words) {
        const auto other = macros_.find(word);
        if (other == macros_.end() || &other->second == &macro) {
          continue;
        }
        const Macro before = macro;
        macro.device = macro.device || other->second.device;
        macro.kernel = macro.kernel || other->second.kernel;
        macro.host = macro.host || other->second.host;
        changed = changed || macro.device != before.device || macro.kernel != before.kernel ||
                  macro.host != before.host;
      }
    }
  }

  std::vector<std::optional<FileDeclarations>> parsed;
  parsed.reserve(files.size());
  std::vector<FileView> views;
  for (const std::string_view text : files) {
    parsed.push_back(read_declarations(text, statement_macros_));
    if (parsed.back()) {
      views.push_back(FileView{text, *parsed.back()});
    } else if (const std::optional<std::vector<SourceToken>> tokens = tokenize(text)) {
      // Compiled as it is: whatever it names is needed.
      for (const SourceToken& t : *tokens) {
        if (t.kind == SourceToken::Kind::identifier) {
          need(t.text(text));
        }
      }
    } else {
      every_use_known_ = false;  // what it calls is unknown: every __device__ function stays
    }
  }
  for (const FileView& file : views) {
    for (const Declaration& d : file.declarations.declarations) {
      declared_.insert(d.names.begin(), d.names.end());
    }
    namespaces_.insert(file.declarations.namespaces.begin(), file.declarations.namespaces.end());
  }
  for (const std::string& name : host_names) {
    // The words after a kernel's own (qualified) name: its template arguments, or parameter
    // types. Its name is not one: a host function of that name (llm.c's launchers share their
    // kernel's) is not what the host asks for.
    if (const std::optional<std::vector<SourceToken>> tokens = tokenize(name)) {
      std::size_t i = 0;
      while (i < tokens->size() && ((*tokens)[i].kind == SourceToken::Kind::identifier ||
                                    (*tokens)[i].text(name) == "::")) {
        ++i;
      }
      if (i > 0 && (*tokens)[i - 1].kind == SourceToken::Kind::identifier) {
        asked_.emplace((*tokens)[i - 1].text(name));
      }
      for (; i < tokens->size(); ++i) {
        if ((*tokens)[i].kind == SourceToken::Kind::identifier) {
          need((*tokens)[i].text(name));
        }
      }
    }
  }
  find_host_only(views);
  reach(views);
}

void DeviceReach::read_macros(std::string_view text) {
  for (const MacroDefinition& m : macro_definitions(text)) {
    Macro& macro = macros_[std::string(m.name)];
    const std::optional<std::vector<SourceToken>> tokens = tokenize(m.replacement);
    if (!tokens) {
      continue;
    }
    for (const SourceToken& t : *tokens) {
      const std::string_view w = t.text(m.replacement);
      if (t.kind == SourceToken::Kind::identifier) {
        macro.device = macro.device || is_device_mark(w);
        macro.kernel = macro.kernel || is_kernel_mark(w);
        macro.host = macro.host || w == "__host__";
        macro.words.emplace(w);
      } else if (m.function_like && (w == "{" || w == ";")) {
        statement_macros_.emplace(m.name);
      }
    }
  }
}

DeviceReach::Space DeviceReach::space(const FileView& file, const Declaration& d) const {
  bool kernel = false;
  bool device = false;
  bool host = false;
  for (std::size_t i = d.head; i < d.body; ++i) {
    if (!is_identifier(file, i)) {
      continue;
    }
    const std::string_view w = file.token(i);
    kernel = kernel || is_kernel_mark(w);
    device = device || is_device_mark(w);
    host = host || w == "__host__";
    if (const auto macro = macros_.find(w); macro != macros_.end()) {
      kernel = kernel || macro->second.kernel;
      device = device || macro->second.device;
      host = host || macro->second.host;
    }
  }
  return kernel ? Space::kernel : device ? Space::device : host ? Space::host : Space::unmarked;
}

bool DeviceReach::calls_host_only(const FileView& file, const Declaration& d) const {
  for (std::size_t i = d.body + 1; i + 1 < d.end; ++i) {
    if (is_identifier(file, i) && file.token(i + 1) == "(" && host_only(file.token(i))) {
      return true;
    }
  }
  return false;
}

bool DeviceReach::is_host_function(const FileView& file, const Declaration& d, Space where) const {
  if (d.kind != Kind::function || is_device(where)) {
    return false;
  }
  return where == Space::host ||
         (!d.parent && std::find(d.names.begin(), d.names.end(), "main") != d.names.end()) ||
         is_host_body(file.text, file.declarations.tokens, d.body, d.end) ||
         calls_host_only(file, d);
}

void DeviceReach::find_host_only(const std::vector<FileView>& files) {
  // Host code calls host code: repeated until no more names are found.
  for (bool changed = true; changed;) {
    std::set<std::string, std::less<>> host;
    std::set<std::string_view> not_host;
    for (const FileView& file : files) {
      for (const Declaration& d : file.declarations.declarations) {
        if (!is_function(d)) {
          continue;
        }
        const Space where = space(file, d);
        const bool is_host = is_host_function(file, d, where);
        for (const std::string_view name : d.names) {
          if (is_host) {
            host.emplace(name);
          } else if (d.kind == Kind::function || is_device(where)) {
            not_host.insert(name);
          }
        }
      }
    }
    std::erase_if(host, [&](const std::string& n) { return not_host.contains(n); });
    changed = host != host_only_;
    host_only_ = std::move(host);
  }
}

bool DeviceReach::wanted(const FileView& file, const Declaration& d) const {
  const auto any_needed = [&] {
    return std::any_of(d.names.begin(), d.names.end(),
                       [&](std::string_view n) { return needed(n); });
  };
  if (d.parent) {
    if (!is_function(d)) {
      return true;  // data members and member types: the class's layout
    }
    return d.special || any_needed() ||
           std::any_of(d.names.begin(), d.names.end(), [](std::string_view n) {
             return std::find(kImplicitMembers.begin(), kImplicitMembers.end(), n) !=
                    kImplicitMembers.end();
           });
  }
  if (!d.qualifier.empty()) {  // a member defined outside its class
    return needed(d.qualifier) && (d.special || any_needed());
  }
  if (d.special) {
    // An operator is used without its name: it stays unless it works on the host's types, or on
    // types of the program's that device code does not use.
    if (names_host_type(file.text, file.declarations.tokens, d.head, d.body)) {
      return false;
    }
    for (std::size_t i = d.head; i < d.body; ++i) {
      const std::string_view w = file.token(i);
      if (is_identifier(file, i) && w != "operator" && declared_.contains(w) && !needed(w)) {
        return false;
      }
    }
    return true;
  }
  return d.names.empty() || any_needed();
}

Fate DeviceReach::fate(const FileView& file, std::size_t index,
                       const std::vector<Fate>& before) const {
  const Declaration& d = file.declarations.declarations[index];
  if (d.parent && before[*d.parent] == Fate::erased) {
    return Fate::erased;
  }
  if (!d.parent && is_function(d) &&
      std::find(d.names.begin(), d.names.end(), "main") != d.names.end()) {
    return Fate::erased;
  }
  if (d.macro_statement) {
    // What a macro declares (a binding of host functions, TORCH_BINDING...) stays only when it
    // spells device code.
    return is_device(space(file, d)) ? Fate::kept : Fate::erased;
  }
  if (d.using_namespace) {
    // A namespace of the program's or of kjit's headers; not one of the host's headers, which
    // kjit gives no declarations (using namespace std::chrono;).
    const std::string_view name = d.names.front();
    return namespaces_.contains(name) || name == "std" || name == "cooperative_groups"
               ? Fate::kept
               : Fate::erased;
  }
  if (d.instantiation && std::any_of(d.names.begin(), d.names.end(),
                                     [&](std::string_view n) { return host_only(n); })) {
    return Fate::erased;  // the template has no body left to instantiate
  }
  const Space where = space(file, d);
  if (where == Space::device && every_use_known_ && is_function(d) && !d.parent &&
      d.qualifier.empty() && !d.always) {
    // A __device__ function that no kernel reaches is not compiled: one project's header holds
    // many (inline PTX, intrinsics of one architecture) that only some of its files call. One
    // the host asks for as a kernel stays, for the compiler to say it is no kernel.
    const bool asked = std::any_of(d.names.begin(), d.names.end(),
                                   [&](std::string_view n) { return asked_.contains(n); });
    return asked || wanted(file, d) ? Fate::kept : Fate::erased;
  }
  if (is_device(where) || d.always) {
    return Fate::kept;
  }
  if (!wanted(file, d)) {
    return Fate::erased;
  }
  if (is_host_function(file, d, where)) {
    // Left as a declaration, a member defined outside its class would redeclare it, which C++
    // forbids (the class declares it).
    return d.qualifier.empty() ? Fate::declaration : Fate::erased;
  }
  return Fate::kept;
}

void DeviceReach::need(std::string_view word) {
  if (!need_.emplace(word).second) {
    return;
  }
  if (const auto macro = macros_.find(word); macro != macros_.end()) {
    for (const std::string& w : macro->second.words) {
      need(w);
    }
  }
}

void DeviceReach::need_words(const FileView& file, std::size_t from, std::size_t to,
                             const std::vector<std::pair<std::size_t, std::size_t>>& skip) {
  auto next_skip = skip.begin();
  for (std::size_t i = from; i < to; ++i) {
    while (next_skip != skip.end() && next_skip->second < i) {
      ++next_skip;
    }
    if (next_skip != skip.end() && next_skip->first <= i) {
      i = next_skip->second;
      continue;
    }
    if (is_identifier(file, i)) {
      need(file.token(i));
    }
  }
}

void DeviceReach::reach(const std::vector<FileView>& files) {
  std::vector<std::vector<Fate>> fates;
  std::vector<std::vector<bool>> done;
  for (const FileView& file : files) {
    fates.emplace_back(file.declarations.declarations.size(), Fate::erased);
    done.emplace_back(file.declarations.declarations.size(), false);
  }
  for (bool changed = true; changed;) {
    changed = false;
    for (std::size_t f = 0; f < files.size(); ++f) {
      const std::vector<Declaration>& decls = files[f].declarations.declarations;
      for (std::size_t i = 0; i < decls.size(); ++i) {
        if (done[f][i]) {
          continue;
        }
        const Fate fate = this->fate(files[f], i, fates[f]);
        if (fate == Fate::erased) {
          continue;
        }
        fates[f][i] = fate;
        done[f][i] = true;
        changed = true;
        const Declaration& d = decls[i];
        // What it uses: a host function's signature only; a class's own tokens, not its
        // members' (each member is reached on its own).
        std::vector<std::pair<std::size_t, std::size_t>> skip;
        for (std::size_t j = i + 1; j < decls.size() && decls[j].head <= d.end; ++j) {
          if (decls[j].parent == i) {
            skip.emplace_back(decls[j].head, decls[j].end);
          }
        }
        // Its own name in its head is no use of it (a host launcher named as its kernel).
        for (std::size_t t = d.head; t < d.body; ++t) {
          if (std::find(d.names.begin(), d.names.end(), files[f].token(t)) != d.names.end()) {
            skip.emplace_back(t, t);
          }
        }
        std::sort(skip.begin(), skip.end());
        need_words(files[f], d.head, fate == Fate::declaration ? d.body : d.end + 1, skip);
      }
    }
  }
}

}  // namespace kjit::source
