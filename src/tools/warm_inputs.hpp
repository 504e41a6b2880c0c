// What kjit-warm compiles: builds from kernel files, folders of them and manifests, each for the
// targets asked for.
#pragma once

#include "core/tooling/manifest.hpp"

#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace kjit::warm {

/// Options that apply to kernel files given on the command line (manifests carry their own).
struct FileOptions {
  std::vector<std::filesystem::path> include_dirs;
  std::vector<std::pair<std::string, std::string>> defines;
  std::vector<std::string> kernels;  // compile these together; empty: each __global__ alone
  bool fast_math = false;
  bool debug = false;
  /// Set: compile each file as Program::from_embedded() does after kjit_add_kernels(): named by
  /// its path relative to this folder, from its text alone, with `embedded_headers` in memory.
  std::optional<std::filesystem::path> embed_base;
  std::vector<std::filesystem::path> embedded_headers;  // named relative to embed_base too
};

struct Inputs {
  std::vector<detail::ManifestBuild> builds;  // target empty: "for every target asked for"
  std::vector<std::string> notes;             // what was left out, and why
};

/// Expands FILES|DIRS|MANIFESTs (a folder: its *.cu files, recursively; *.json: a manifest).
/// Throws kjit::Error for an input that cannot be read.
Inputs collect_inputs(const std::vector<std::string>& paths, const FileOptions& options);

}  // namespace kjit::warm
