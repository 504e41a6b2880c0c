// Kernel files compiled into a program by kjit_add_kernels() (CMake), so that a deployed binary
// needs no loose kernel files: Program::from_embedded() loads them by name.
#pragma once

#include <kjit/export.hpp>

#include <cstddef>
#include <span>
#include <string>
#include <vector>

namespace kjit {

/// One embedded file: its name (its path relative to kjit_add_kernels' BASE_DIR) and its text.
struct EmbeddedFile {
  const char* name;
  const char* text;
  std::size_t size;
};

/// One precompiled cache entry (kjit_add_kernels' PRECOMPILE): its key (32 hex digits), the bytes
/// of the entry file that kjit-warm wrote for it, and its key without the compiler's identity
/// (nullptr: none), under which a process that cannot load the compiler finds it.
struct EmbeddedEntry {
  const char* key;
  const char* bytes;
  std::size_t size;
  const char* precompiled_key = nullptr;
};

/// Registers a set of embedded kernel files, the headers they may include, and the cache entries
/// precompiled from them, for Program::from_embedded(). The source that kjit_add_kernels()
/// generates makes one at start-up; a program has no reason to make one itself. Everything is
/// copied, so the registration outlives a library that is unloaded.
class KJIT_API EmbeddedKernels {
 public:
  EmbeddedKernels(std::span<const EmbeddedFile> programs, std::span<const EmbeddedFile> headers,
                  std::span<const EmbeddedEntry> precompiled = {});
};

/// The names of the embedded programs, sorted.
[[nodiscard]] KJIT_API std::vector<std::string> embedded_programs();

}  // namespace kjit
