// The program the NVRTC probes compile: a small kernel salted by a number, with kjit's CUDA
// prelude, for sm_90, as kjit compiles it. Needs CUDA_INCLUDE (CUDA's include folder) defined.
#pragma once

#include <nvrtc.h>

#include <cstdio>
#include <cstdlib>
#include <string>

/// Compiles the program salted by `salt`; prints NVRTC's log and exits on failure.
inline void compile_probe_program(const std::string& prelude, int salt) {
  const std::string source =
      "extern \"C\" __global__ void k(float* x, int n) {\n"
      "  const int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
      "  if (i < n) x[i] = x[i] * " +
      std::to_string(salt) + ".0f + 1.0f;\n}\n";
  const char* headers[] = {prelude.c_str()};
  const char* names[] = {"kjit_cuda_prelude.h"};
  nvrtcProgram p = nullptr;
  if (nvrtcCreateProgram(&p, source.c_str(), "k.cu", 1, headers, names) != NVRTC_SUCCESS) {
    std::fprintf(stderr, "nvrtcCreateProgram failed\n");
    std::exit(1);
  }
  const char* options[] = {"--gpu-architecture=sm_90", "-std=c++20",
                           "--pre-include=kjit_cuda_prelude.h", "-lineinfo",
                           "--include-path=" CUDA_INCLUDE};
  if (nvrtcCompileProgram(p, 5, options) != NVRTC_SUCCESS) {
    std::size_t size = 0;
    nvrtcGetProgramLogSize(p, &size);
    std::string log(size, '\0');
    nvrtcGetProgramLog(p, log.data());
    std::fprintf(stderr, "nvrtcCompileProgram failed:\n%s\n", log.c_str());
    std::exit(1);
  }
  nvrtcDestroyProgram(&p);
}
