// Where the benchmarks find kernels/: KJIT_BENCH_SOURCE_DIR when set (a build carried to another
// machine, where the checkout lies elsewhere), else the source tree they were built from.
#pragma once

#include <cstdlib>
#include <filesystem>
#include <string>

namespace kjit::bench {

inline std::filesystem::path kernel_file(const std::string& name) {
  const char* moved = std::getenv("KJIT_BENCH_SOURCE_DIR");
  const std::filesystem::path root = moved != nullptr && *moved != '\0' ? moved : KJIT_SOURCE_DIR;
  return root / "kernels" / name;
}

}  // namespace kjit::bench
