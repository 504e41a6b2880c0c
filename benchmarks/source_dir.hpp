// Where the benchmarks find kernels/ and the corpus: KJIT_BENCH_SOURCE_DIR when set (a build
// carried to another machine, where the checkout lies elsewhere), else the source tree they were
// built from.
#pragma once

#include <cstdlib>
#include <filesystem>
#include <string>

namespace kjit::bench {

inline std::filesystem::path source_root() {
  const char* moved = std::getenv("KJIT_BENCH_SOURCE_DIR");
  return moved != nullptr && *moved != '\0' ? moved : KJIT_SOURCE_DIR;
}

inline std::filesystem::path kernel_file(const std::string& name) {
  return source_root() / "kernels" / name;
}

/// cuda-samples as the test corpus holds them (tests/corpus/cuda-samples).
inline std::filesystem::path samples_dir() {
  return source_root() / "tests" / "corpus" / "cuda-samples";
}

}  // namespace kjit::bench
