// The repository's kernel files with the kernels each holds, as compile requests: what the
// compile-only tests of each GPU compiler (NVRTC, hipRTC) build without a GPU.
#pragma once

#include "backends/kit/backend.hpp"

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace kjit::test {

struct KernelFile {
  const char* file;  // relative to the repository
  std::vector<std::string> names;
};

inline const std::vector<KernelFile>& kernel_files() {
  static const std::vector<KernelFile> files{
      {"kernels/vadd.cu", {"vadd"}},
      {"kernels/saxpy.cu", {"saxpy<float>", "saxpy<double>"}},
      {"kernels/mandelbrot.cu", {"mandelbrot"}},
      {"kernels/reduction.cu", {"reduce_sum<int>", "reduce_sum<float>", "histogram256"}},
      {"kernels/matmul.cu", {"matmul_tiled"}},
      {"kernels/transpose.cu", {"transpose"}},
      {"kernels/stencil2d.cu", {"jacobi2d"}},
      {"kernels/bitonic_sort.cu", {"bitonic_step"}},
      {"kernels/rajaperf.cu",
       {"daxpy", "triad", "energy1", "energy2", "energy3", "energy4", "energy5", "energy6",
        "pi_atomic", "fir", "jacobi_2d", "mat_mat_shared"}},
      {"tests/kernels/atomics.cu", {"all_atomics"}},
      {"tests/kernels/host_code/scan_with_host_code.cu", {"scanExclusiveShared"}},
      {"tests/kernels/cg_block.cu", {"block_sum"}},
      {"tests/kernels/cg_tiles.cu", {"tile_ops"}},
      {"tests/kernels/symbols.cu", {"convolve", "read_count", "store"}},
      {"tests/kernels/half_ops.cu",
       {"float_to_half", "half_to_float", "half_arithmetic", "half_atomics", "bfloat16_ops"}},
      {"tests/kernels/jit_annotated.cu", {"window", "window_plain"}},
  };
  return files;
}

/// A request for kernel `check` of one of kernel_header_cases.hpp's sources.
inline backend::CompileRequest request_for_text(const std::string& name, const std::string& text,
                                                const std::string& kernel) {
  backend::CompileRequest r;
  r.program_name = name;
  r.source = text;
  r.kernel_names = {kernel};
  r.kernel_signatures.resize(1);
  return r;
}

inline backend::CompileRequest request_for(const KernelFile& k) {
  const std::filesystem::path path = std::filesystem::path(KJIT_SOURCE_DIR) / k.file;
  std::ifstream in(path);
  std::ostringstream text;
  text << in.rdbuf();
  backend::CompileRequest r;
  r.program_name = k.file;
  r.source = text.str();
  r.source_path = path;
  r.kernel_names = k.names;
  return r;
}

}  // namespace kjit::test
