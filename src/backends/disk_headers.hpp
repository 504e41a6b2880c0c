// The headers a program includes from disk, read before compiling so that their host code is
// erased as the program's own is (host_code.hpp): for GPU compilers that take named in-memory
// headers (NVRTC, hipRTC) and find those before their search path. The CPU backend's compiler
// reads files through a filter instead (cpu_frontend.cpp).
#pragma once

#include "backends/backend.hpp"

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace kjit::backend {

struct DiskHeader {
  std::string name;  // as the #include spells it: "helper_cuda.h", "../common/vec.h"
  std::filesystem::path path;
  std::string text;  // with host functions' bodies erased
};

/// Every header such a compiler gets, as the parallel arrays of texts and names its API takes:
/// the request's in-memory headers; each include name of the program (its source, its headers,
/// the files they include) that a file beside the including file or in an include dir answers
/// but none of those nor kjit's own answer; both with their host code erased; then kjit's own. The
/// pointers stay valid as long as this object and the request do.
class NamedHeaders {
 public:
  explicit NamedHeaders(const CompileRequest& request);
  NamedHeaders(const NamedHeaders&) = delete;
  NamedHeaders& operator=(const NamedHeaders&) = delete;

  [[nodiscard]] const std::vector<const char*>& texts() const noexcept { return texts_; }
  [[nodiscard]] const std::vector<const char*>& names() const noexcept { return names_; }
  /// The file on disk that a header named `file` in a compiler's diagnostic came from (NVRTC
  /// names it as included, hipRTC by its temporary copy), so that diagnostics name the user's
  /// file; nullopt for any other.
  [[nodiscard]] std::optional<std::filesystem::path> disk_path(std::string_view file) const;

 private:
  std::vector<std::string> erased_;  // the request's headers, host code erased
  std::vector<DiskHeader> disk_;
  std::vector<const char*> texts_;
  std::vector<const char*> names_;
};

}  // namespace kjit::backend
