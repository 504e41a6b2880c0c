// A program's text as a device compiler sees it, the same on every backend: the main file and
// every header of the user's that it includes (in memory, or from disk beside the including file
// and in the include dirs), with host code erased across all of them as one program
// (source/host_code.hpp); and an empty stand-in for each include that nothing answers (a header
// of the host's, such as <chrono>, <unistd.h> or <cublas_v2.h>), so that host code's includes
// never stop a file. A failed compile names each stand-in (missing_notes), in case the device
// code did need it.
#pragma once

#include "backends/kit/backend.hpp"
#include "source/host_code.hpp"
#include "source/include_scan.hpp"
#include "source/kernel_headers.hpp"

#include <kjit/error.hpp>

#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace kjit::backend {

class ProgramSources {
 public:
  /// The text of an include's stand-in (hipRTC refuses an empty header).
  static constexpr const char* kStandIn = "// kjit: no such file was found: compiled as empty\n";
  /// The stand-in for a header of the C++ standard library that kjit does not ship (<chrono>,
  /// <random>): the library's common core, which every real one brings in with it.
  static constexpr const char* kStandardStandIn =
      "// kjit: no such file was found: the standard library's common core instead\n"
      "#include <cstddef>\n#include <cstdint>\n#include <cstdlib>\n#include <cstring>\n"
      "#include <cmath>\n#include <limits>\n#include <type_traits>\n#include <utility>\n"
      "#include <algorithm>\n";

  /// `compiler_has`: include names the backend's compiler answers itself (hipRTC's
  /// <hip/hip_runtime.h>), which get no stand-in.
  explicit ProgramSources(const CompileRequest& request,
                          const std::function<bool(std::string_view)>& compiler_has = {});
  ProgramSources(const ProgramSources&) = delete;
  ProgramSources& operator=(const ProgramSources&) = delete;

  /// The main file's text, host code erased.
  [[nodiscard]] const std::string& main() const noexcept { return main_; }
  /// The request's in-memory headers, host code erased: (include name, text).
  [[nodiscard]] const std::vector<std::pair<std::string, std::string>>& memory_headers()
      const noexcept {
    return memory_;
  }
  /// Include names that nothing answers, each given a stand-in: (name, text).
  [[nodiscard]] const std::vector<std::pair<std::string, const char*>>& stand_ins() const noexcept {
    return stand_ins_;
  }
  /// A file the compiler reads from disk itself (the CPU backend's), host code erased.
  [[nodiscard]] std::string erase(std::string_view text) const { return filter_.erase(text); }

  /// For a GPU compiler that takes named in-memory headers (NVRTC, hipRTC) and finds those
  /// before its search path: the request's headers, each header found on disk, the stand-ins,
  /// then kjit's own (<stdio.h>, <cuda_fp16.h> ...), as parallel arrays of texts and names. The
  /// pointers stay valid as long as this object does.
  [[nodiscard]] const std::vector<const char*>& header_texts() const noexcept { return texts_; }
  [[nodiscard]] const std::vector<const char*>& header_names() const noexcept { return names_; }
  /// The file on disk that a header named `file` in a GPU compiler's diagnostic came from (NVRTC
  /// names it as included, hipRTC by its temporary copy), so that diagnostics name the user's
  /// file; nullopt for any other.
  [[nodiscard]] std::optional<std::filesystem::path> disk_path(std::string_view file) const;

  /// One note per stand-in, at the include, for the error of a compile that failed.
  [[nodiscard]] std::vector<Diagnostic> missing_notes() const;

 private:
  ProgramSources(const CompileRequest& request,
                 const std::function<bool(std::string_view)>& compiler_has,
                 const source::IncludeScan& scan);

  struct DiskHeader {
    std::string name;  // as the #include spells it: "helper_cuda.h", "../common/vec.h"
    std::filesystem::path path;
    std::string text;  // host code erased
  };
  static std::vector<DiskHeader> read_disk_headers(const CompileRequest& request,
                                                   const source::IncludeScan& scan);
  static std::vector<std::string_view> texts_of(const CompileRequest& request,
                                                const std::vector<DiskHeader>& disk);

  std::vector<DiskHeader> disk_;  // read first: the filter reads them
  source::HostCodeFilter filter_;
  std::string main_;
  std::vector<std::pair<std::string, std::string>> memory_;
  std::vector<std::pair<std::string, const char*>> stand_ins_;
  std::vector<source::IncludeScan::Missing> stand_in_places_;
  std::vector<const char*> texts_;
  std::vector<const char*> names_;
};

}  // namespace kjit::backend
