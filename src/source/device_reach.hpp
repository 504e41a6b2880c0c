// What device code needs of a program's files. Kernels and device variables are roots; from them,
// every name they use reaches the declarations of that name (functions, variables, types,
// enumerators, aliases, macros), and what those use in turn, across the main file and every
// header of the user's. What no device code reaches is host code: it is erased before a device
// compiler sees the file (host_code.hpp), so that a host function's body, a host variable's
// initializer or a class of the host's never stops a kernel file from loading. A __device__
// function that nothing reaches goes too: a project's header of device helpers (inline PTX, one
// architecture's intrinsics) is not compiled beyond what the file's kernels call.
//
// Names are matched as words, without scopes or overloads: a name that device code uses keeps
// every declaration of it, so the analysis keeps too much rather than too little.
#pragma once

#include "source/declarations.hpp"

#include <map>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace kjit::source {

/// A file as the analysis reads it: its text and its declarations.
struct FileView {
  std::string_view text;
  const FileDeclarations& declarations;

  [[nodiscard]] std::string_view token(std::size_t i) const {
    return declarations.tokens[i].text(text);
  }
};

/// What becomes of a declaration before a device compiler sees it.
enum class Fate : unsigned char {
  erased,       // nothing device code reaches: blanked out
  declaration,  // a host function device code names: its body goes, marked __KJIT_HOST_ONLY
  kept,         // device code, or what it needs: as written
};

class DeviceReach {
 public:
  /// `files`: the text of every file of the program that the user wrote; `host_names`: what the
  /// host asks for by name: kernel name expressions ("reduce<Plus, 256>"), and parameter lists in
  /// parentheses ("(const Shape*, int)"). Their words are roots too, but for a kernel's own name.
  DeviceReach(const std::vector<std::string_view>& files,
              const std::vector<std::string>& host_names);

  /// The fate of declaration `index` of `file`, given the fates of those before it (a member's
  /// class comes before the member). The same for any file, analysed or not.
  [[nodiscard]] Fate fate(const FileView& file, std::size_t index,
                          const std::vector<Fate>& before) const;

  /// The function-like macros whose invocations are declarations of their own.
  [[nodiscard]] const StatementMacros& statement_macros() const noexcept {
    return statement_macros_;
  }

  /// Whether `name` names only host functions (each of its definitions is host code).
  [[nodiscard]] bool host_only(std::string_view name) const { return host_only_.contains(name); }

 private:
  struct Macro {
    bool kernel = false;  // its replacement spells __global__
    bool device = false;  // ... or __device__, __constant__ ...
    bool host = false;    // ... or __host__
    std::set<std::string, std::less<>> words;
  };
  enum class Space : unsigned char { unmarked, host, device, kernel };
  static bool is_device(Space s) { return s == Space::device || s == Space::kernel; }

  void read_macros(std::string_view text);
  [[nodiscard]] Space space(const FileView& file, const Declaration& d) const;
  [[nodiscard]] bool is_host_function(const FileView& file, const Declaration& d,
                                      Space where) const;
  [[nodiscard]] bool calls_host_only(const FileView& file, const Declaration& d) const;
  [[nodiscard]] bool wanted(const FileView& file, const Declaration& d) const;
  [[nodiscard]] bool needed(std::string_view name) const { return need_.contains(name); }
  void need(std::string_view word);
  /// Needs every word in tokens [from, to) of `file` but those in the `skip` ranges (first and
  /// last token, in order).
  void need_words(const FileView& file, std::size_t from, std::size_t to,
                  const std::vector<std::pair<std::size_t, std::size_t>>& skip);
  void find_host_only(const std::vector<FileView>& files);
  void reach(const std::vector<FileView>& files);

  std::map<std::string, Macro, std::less<>> macros_;
  StatementMacros statement_macros_;
  std::set<std::string, std::less<>> declared_;    // every name a file of the program declares
  std::set<std::string, std::less<>> namespaces_;  // every namespace a file of it opens
  std::set<std::string, std::less<>> need_;        // every word device code uses
  std::set<std::string, std::less<>> host_only_;
  std::set<std::string, std::less<>> asked_;  // the kernels' own names the host asks for
  bool every_use_known_ = true;               // every file could be read at least as words
};

}  // namespace kjit::source
