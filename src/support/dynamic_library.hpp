// A vendor library opened at run time (dlopen), so that libkjit.so links no vendor library and
// loads on machines that lack one. Shared by the GPU backends.
#pragma once

#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace kjit::backend {

class DynamicLibrary {
 public:
  /// Opens the first of `candidates` that loads; nullptr when none does, and `why` then lists
  /// every name tried with the loader's reason.
  static std::unique_ptr<DynamicLibrary> open(const std::vector<std::string>& candidates,
                                              std::string& why);
  /// The library `name` when this process has loaded it already (same soname), else nullptr.
  /// Never loads anything.
  static std::unique_ptr<DynamicLibrary> already_loaded(const std::string& name);
  DynamicLibrary(const DynamicLibrary&) = delete;
  DynamicLibrary& operator=(const DynamicLibrary&) = delete;
  ~DynamicLibrary();

  /// The address of `symbol`, or nullptr.
  [[nodiscard]] void* symbol(const char* name) const;
  [[nodiscard]] const std::string& name() const noexcept { return name_; }
  /// The file that was loaded, as "libnvrtc.so.13.0.88, 104857600 bytes": its real name and
  /// size tell builds of one version apart (for cache keys). "unknown" when it cannot be found.
  [[nodiscard]] std::string file_identity() const;
  /// The real path of the file that was loaded (links resolved), or nullopt.
  [[nodiscard]] std::optional<std::filesystem::path> file() const;
  /// file() for TargetIdentity::files. When the file is unknown, a path that does not exist:
  /// an identity naming it cannot be checked later, so it is never remembered.
  [[nodiscard]] std::filesystem::path checked_file() const;

 private:
  DynamicLibrary(void* handle, std::string name) : handle_(handle), name_(std::move(name)) {}
  void* handle_;
  std::string name_;
};

/// The folder of the file that holds kjit's code: libkjit.so's (installed or built), or the
/// program's when kjit is linked into it. Where kjit looks for its helper and plug-ins.
std::filesystem::path kjit_code_directory();

/// Loads a table of function pointers from `library`. Each entry names its symbol (and an
/// older spelling tried second, or nullptr); a missing required symbol makes the load fail and
/// `why` says which. Optional ones stay null.
struct SymbolEntry {
  const char* symbol;
  const char* fallback;
  void** slot;
  bool required;
};
bool load_symbols(const DynamicLibrary& library, const std::vector<SymbolEntry>& entries,
                  std::string& why);

}  // namespace kjit::backend
