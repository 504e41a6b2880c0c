// Host code in kernel files. A kernel file from an existing CUDA project holds host code beside
// its kernels: main(), functions that launch kernels or call the CUDA runtime, host variables,
// classes the host uses, includes of the host's headers. kjit compiles device code only, so
// before a backend's compiler sees the program, what device code does not reach (device_reach.hpp)
// is blanked out, every line kept where it was: a host function's body never stops a file from
// loading. A host function that device code names stays as a declaration marked
// __KJIT_HOST_ONLY, so that a kernel that calls it gets a compile error at the call.
#pragma once

#include "source/device_reach.hpp"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace kjit::source {

class HostCodeFilter {
 public:
  /// `files`: the text of every file of the program that the user wrote (the main file and its
  /// headers); `host_names`: what the host asks for by name (DeviceReach's).
  HostCodeFilter(const std::vector<std::string_view>& files,
                 const std::vector<std::string>& host_names);

  /// `text` (one of the program's files, or another file its compiler reads) as a device
  /// compiler should see it: what device code does not reach blanked, host functions it names
  /// turned into marked declarations, launches in device code marked. The text keeps its lines
  /// and its preprocessor directives; a text that cannot be read reliably (unbalanced braces, an
  /// unterminated comment) comes back unchanged.
  [[nodiscard]] std::string erase(std::string_view text) const;

 private:
  DeviceReach reach_;
};

/// `source` as a whole program on its own: HostCodeFilter({source}, {}).erase(source).
std::string erase_host_code(std::string_view source);

/// The spelling that marks a host-only function's declaration: each backend's prelude defines
/// __KJIT_HOST_ONLY as a deprecation carrying this text (or as nothing, where the compiler
/// refuses such calls itself).
inline constexpr std::string_view kHostOnlyMark = "__kjit_host_only__";

/// For a compiler's warning about a use of a marked function ("'fprintf' is deprecated:
/// __kjit_host_only__", or NVRTC's `function "fprintf" was declared deprecated
/// ("__kjit_host_only__")`): the function's name.
std::optional<std::string> host_only_callee(std::string_view message);

/// The error for a kernel's call to host function `name`, at the call's place.
std::string host_call_message(std::string_view name);

/// Whether a symbol that device code needs (a demangled name, "launch(float*)" or "fprintf")
/// is the function `callee` names.
bool is_host_callee(std::string_view symbol, std::string_view callee);

}  // namespace kjit::source
