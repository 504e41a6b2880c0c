// wsm5's baseline on the CPU: the kernel of upstream/kernel.h compiled as host C++ under
// stand-ins for blockIdx, threadIdx and blockDim, one call per column (a GPU thread) under
// OpenMP's `parallel for` over every column of the grid. HeCBench's own wsm5-omp runs the same
// body per column but offloads it with `omp target teams`, so this runs the very loops kjit runs,
// on the host's cores instead. Same inputs, launches and report lines as kjit_wsm5; --out writes
// th, q, qc, qi, qr and qs (kjit_wsm5.cpp says why those). Built without OpenMP, it runs the
// columns serially: cpu.program.wsm5's host reference.
//   g++ -O3 -march=native -fopenmp -DMKX=4 -o openmp_wsm5 openmp_wsm5.cpp
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <initializer_list>
#include <vector>
// Included as upstream/main.cu includes them: through these the global abs takes a float (with
// <cstdlib> alone, the kernel's abs(vt2s - vt2i) would be C's abs(int)).
#include <math.h>    // NOLINT(modernize-deprecated-headers)
#include <stdlib.h>  // NOLINT(modernize-deprecated-headers)
#ifdef _OPENMP
#include <omp.h>
#endif

namespace wsm5_host {
struct Dim {
  unsigned x, y, z;
};
}  // namespace wsm5_host

// What the kernel reads of CUDA: each OpenMP thread runs one column at a time.
static thread_local wsm5_host::Dim blockIdx;
static thread_local wsm5_host::Dim threadIdx;
#define __global__
#define __restrict__ __restrict
static inline float rsqrtf(float x) {
  return 1.0f / std::sqrt(x);
}

// upstream/main.cu's order; utils.h gives the block's size (XXX, YYY).
#include "upstream/utils.h"
static constexpr wsm5_host::Dim blockDim{XXX, YYY, 1};
#include "upstream/kernel.h"
// The upstream headers define short macros (g, pi, bx, ti, ...): nothing below uses such names.

int main(int argc, char* argv[]) {
  const int repeat = argc > 1 ? std::atoi(argv[1]) : 0;
  const char* out = nullptr;
  int nx = 60;
  int ny = 46;
  for (int i = 2; i < argc; i++) {
    if (std::strcmp(argv[i], "--out") == 0 && i + 1 < argc) {
      out = argv[++i];
    } else if (std::strcmp(argv[i], "--nx") == 0 && i + 1 < argc) {
      nx = std::atoi(argv[++i]);
    } else if (std::strcmp(argv[i], "--ny") == 0 && i + 1 < argc) {
      ny = std::atoi(argv[++i]);
    } else {
      nx = 0;
    }
  }
  if (repeat <= 0 || nx <= 0 || ny <= 0) {
    std::fprintf(stderr, "usage: %s <repeat> [--out FILE] [--nx N (60)] [--ny N (46)]\n", argv[0]);
    return 2;
  }
  // upstream/main.cu's patch (kjit_wsm5.cpp says more), the kernel's bounds 1-based
  const float delt = 10.f;
  const int kpe = 2;
  const int d3 = nx * ny * (kpe + 1);
  const int d2 = nx * ny;
  const int dipe = nx, djpe = ny, dkpe = kpe + 1;
  const int grid_x = dipe / XXX + (dipe % XXX != 0 ? 1 : 0);
  const int grid_y = djpe / YYY + (djpe % YYY != 0 ? 1 : 0);

  std::vector<std::vector<float>> arrays(15);  // th .. delz: d3 each; rain .. snowncv: d2 each
  float rain_sum = 0, snow_sum = 0;
  long time = 0;
  for (int it = 0; it < repeat; it++) {
    for (int a = 0; a < 15; a++) {
      arrays[a].assign(a < 10 ? d3 : d2, 0.001f);  // utils.h's TODEV: every value 0.001
    }
    std::vector<float*> ptr(15);
    for (int a = 0; a < 15; a++) {
      ptr[a] = arrays[a].data();
    }
    float* const* v = ptr.data();
    const auto start = std::chrono::steady_clock::now();
#pragma omp parallel for collapse(2) schedule(static)
    for (int col_y = 0; col_y < grid_y * YYY; col_y++) {
      for (int col_x = 0; col_x < grid_x * XXX; col_x++) {
        blockIdx = {unsigned(col_x / XXX), unsigned(col_y / YYY), 0};
        threadIdx = {unsigned(col_x % XXX), unsigned(col_y % YYY), 0};
        wsm(v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8], v[9], v[10], v[11], v[12], v[13],
            v[14], delt, 1, dipe, 1, djpe, 1, dkpe, 1, dipe, 1, djpe, 1, dkpe, 1, dipe, 1, djpe, 1,
            dkpe);
      }
    }
    const auto end = std::chrono::steady_clock::now();
    time += std::chrono::duration_cast<std::chrono::nanoseconds>(end - start).count();
    rain_sum = snow_sum = 0;
    for (int i = 0; i < d2; i++) {
      rain_sum += v[10][i];
      snow_sum += v[13][i];
    }
  }
  std::printf("Average kernel execution time %f (ms)\n", (time * 1e-6) / repeat);
  std::printf("Checksum: rain = %f snow = %f\n", rain_sum, snow_sum);
#ifdef _OPENMP
  std::printf("OpenMP threads %d\n", omp_get_max_threads());
#endif
  if (out != nullptr) {  // th, q, qc, qi, qr, qs: the kernel's parameters 0, 2, 3, 4, 5, 6
    std::ofstream file(out, std::ios::binary);
    for (const int a : {0, 2, 3, 4, 5, 6}) {
      file.write(reinterpret_cast<const char*>(arrays[a].data()),
                 static_cast<std::streamsize>(arrays[a].size() * sizeof(float)));
    }
  }
  return 0;
}
