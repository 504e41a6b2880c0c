// Manifests: JSON lists of the builds a run made (KJIT_RECORD_MANIFEST) that kjit-warm compiles
// into a cache, so that production starts warm with exactly what it uses.
//
// {"kjit_manifest": 1, "builds": [{"name": "saxpy.cu", "file": "/abs/saxpy.cu",
//   "include_dirs": [], "headers": {}, "defines": {}, "fast_math": false,
//   "kernels": [{"name": "saxpy", "signature": "float, const float*, float*, int"}],
//   "target": "cuda:sm_90", "not_found": false}]}
// A build without "file" carries its "source". "not_found" records a kernel name that the
// compiler did not find (a plain template name, resolved by type next), so that the warm run
// does not compile to find that out again.
#pragma once

#include "backends/kit/backend.hpp"

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace kjit::detail {

struct ManifestBuild {
  backend::CompileRequest request;
  std::string target;
  bool not_found = false;
};

/// Parses a manifest; Error naming the file and the problem when it is malformed or a program
/// file it names cannot be read.
std::vector<ManifestBuild> read_manifest(const std::filesystem::path& path);
/// The same for a manifest's text; `path` names it in messages (and the fuzzer's entry point).
std::vector<ManifestBuild> parse_manifest(const std::string& text,
                                          const std::filesystem::path& path);

/// A manifest holding `builds`, as JSON text.
std::string manifest_text(const std::vector<ManifestBuild>& builds);

/// True when KJIT_RECORD_MANIFEST is set.
bool recording_manifest();
/// Adds a build to KJIT_RECORD_MANIFEST's file (merged with what is there, under a lock, written
/// atomically). Problems are logged, never thrown: recording must not break the run.
void record_build(const ManifestBuild& build);

}  // namespace kjit::detail
