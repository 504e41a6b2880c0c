// The optimised IR of one kernel, as the CPU backend compiles it: read from what KJIT_DUMP_DIR
// leaves, for tests of what the backend makes of a loop.
#pragma once

#include "backends/cpu/compile/cpu_compiler.hpp"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>

#include <unistd.h>

namespace kjit::test {

/// The IR that the compiler dumped, in the file ending in `suffix`, for `source`'s kernel `name`:
/// ".opt.ll" after O3, ".lowered.ll" after kjit's lowering; empty if it dumped none.
inline std::string dumped_ir(const std::string& source, const std::string& name,
                             const std::string& suffix) {
  const auto dir = std::filesystem::temp_directory_path() /
                   ("kjit_dumped_ir_" + std::to_string(::getpid()) + "_" + name);
  std::filesystem::remove_all(dir);
  setenv("KJIT_DUMP_DIR", dir.c_str(), 1);  // NOLINT(concurrency-mt-unsafe): one thread
  backend::CompileRequest r;
  r.program_name = name + ".cu";
  r.source = source;
  r.kernel_names = {name};
  r.kernel_signatures.resize(1);
  cpu::CpuCompiler("cpu").compile(r);
  unsetenv("KJIT_DUMP_DIR");  // NOLINT(concurrency-mt-unsafe)
  std::string text;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (entry.path().string().ends_with(suffix)) {
      std::stringstream s;
      s << std::ifstream(entry.path()).rdbuf();
      text = s.str();
    }
  }
  std::filesystem::remove_all(dir);
  return text;
}

/// The IR after O3 of `source`'s kernel `name`; empty if the compiler dumped none.
inline std::string optimised_ir(const std::string& source, const std::string& name) {
  return dumped_ir(source, name, ".opt.ll");
}

/// A kernel `block_sums(in, sums, n, c)`: each thread runs `body` (which adds to `acc`, from
/// in[i] and c) for each i of a grid-stride loop, which runs in step (its reads jump by the
/// grid); then thread 0 adds the block's sums, through shared memory after a barrier.
inline std::string grid_stride_block_sums(const std::string& body) {
  return R"(
    __global__ void block_sums(const double* in, double* sums, int n, double c) {
      __shared__ double partial[256];
      double acc = 0;
      for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        )" +
         body + R"(
      }
      partial[threadIdx.x] = acc;
      __syncthreads();
      if (threadIdx.x == 0) {
        double s = 0;
        for (int t = 0; t < 256; ++t) s += partial[t];
        sums[blockIdx.x] = s;
      }
    })";
}

/// Whether `ir` loads vectors of doubles, of any width: the host's CPU model decides it (8 on
/// Zen 4, 4 where LLVM prefers 256-bit vectors, as on Intel's AVX-512 parts).
inline bool loads_vectors_of_double(const std::string& ir) {
  return std::regex_search(ir, std::regex(R"(load <([2-9]|[1-9][0-9]+) x double>)"));
}

}  // namespace kjit::test
