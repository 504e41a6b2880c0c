// feynman-kac's baseline on the CPU: the shipped kernel (upstream/util.h, upstream/kernel.h)
// compiled as host C++ under stand-ins for threadIdx, blockIdx and atomicAdd, one call per GPU
// thread, for every thread of every block of the launch kjit_feynman-kac.cpp makes, with its
// inputs. The blocks are shared among the cores by OpenMP's `parallel for` with a dynamic
// schedule (a point's walks take as long as they take to leave the ellipse, and points outside it
// take none), the threads of a block run in order; the atomics are OpenMP's. HeCBench's own
// feynman-kac-omp offloads with `omp target` (its Makefile builds for an Intel GPU), so this runs
// the very loop kjit runs, on every core. Same report lines as kjit_feynman-kac; --out writes
// n_inside (int32) and err (a double), what kjit_feynman-kac's --expect reads.
//   g++ -O3 -march=native -fopenmp -std=c++20 -o openmp_feynman-kac openmp_feynman-kac.cpp
//   openmp_feynman-kac <iterations> [--nj N (128)] [--paths N (1000)] [--out FILE]
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#ifdef _OPENMP
#include <omp.h>
#endif

using std::exp;
using std::pow;

namespace fk_host {
struct Dim {
  unsigned x, y, z;
};
}  // namespace fk_host

// What the kernel reads of CUDA: the position of the thread that runs now, each OpenMP thread's
// own, and the block's size; two atomic additions.
static thread_local fk_host::Dim threadIdx;
static thread_local fk_host::Dim blockIdx;
static constexpr fk_host::Dim blockDim{16, 16, 1};
#define __global__    // NOLINT(bugprone-reserved-identifier): CUDA's name
#define __device__    // NOLINT(bugprone-reserved-identifier): CUDA's name
#define __restrict__  // NOLINT(bugprone-reserved-identifier): CUDA's name
static int atomicAdd(int* p, int v) {
  int old = 0;
#pragma omp atomic capture
  {
    old = *p;
    *p += v;
  }
  return old;
}
static double atomicAdd(double* p, double v) {
  double old = 0;
#pragma omp atomic capture
  {
    old = *p;
    *p += v;
  }
  return old;
}

// upstream/main.cu's order: kernel.h calls util.h's functions.
#include "upstream/util.h"
// (apart, so that include sorting keeps the order)
#include "upstream/kernel.h"

namespace {

int usage(const char* self) {
  std::fprintf(stderr, "usage: %s <iterations> [--nj N (128)] [--paths N (1000)] [--out FILE]\n",
               self);
  return 2;
}

}  // namespace

int main(int argc, char* argv[]) {
  if (argc < 2) {
    return usage(argv[0]);
  }
  const int repeat = std::atoi(argv[1]);
  const char* out = nullptr;
  int nj = 128;
  int N = 1000;  // NOLINT(readability-identifier-naming): upstream's name
  for (int i = 2; i < argc; ++i) {
    if (std::strcmp(argv[i], "--out") == 0 && i + 1 < argc) {
      out = argv[++i];
    } else if (std::strcmp(argv[i], "--nj") == 0 && i + 1 < argc) {
      nj = std::atoi(argv[++i]);
    } else if (std::strcmp(argv[i], "--paths") == 0 && i + 1 < argc) {
      N = std::atoi(argv[++i]);
    } else {
      return usage(argv[0]);
    }
  }
  if (repeat <= 0 || nj < 2 || N <= 0) {
    return usage(argv[0]);
  }
  // kjit_feynman-kac.cpp's (upstream main.cu's) parameters.
  const double a = 2.0;
  const double b = 1.0;
  const int dim = 2;
  const double h = 0.001;
  const int seed = 123456789;
  const double rth = std::sqrt(static_cast<double>(dim) * h);
  const int ni = 1 + i4_ceiling(a / b) * (nj - 1);
  const unsigned blocks_x = (static_cast<unsigned>(ni) + 15) / 16;
  const unsigned blocks_y = (static_cast<unsigned>(nj) + 15) / 16;
  const long blocks = static_cast<long>(blocks_x) * blocks_y;
#ifdef _OPENMP
  std::printf("OpenMP threads %d\n", omp_get_max_threads());
#endif

  int n_inside = 0;
  double err = 0.0;
  std::int64_t time = 0;
  for (int r = 0; r < repeat; r++) {
    n_inside = 0;
    err = 0.0;
    const auto start = std::chrono::steady_clock::now();
#pragma omp parallel for schedule(dynamic)
    for (long block = 0; block < blocks; ++block) {
      blockIdx = {static_cast<unsigned>(block % blocks_x), static_cast<unsigned>(block / blocks_x),
                  0};
      for (unsigned ty = 0; ty < blockDim.y; ty++) {
        for (unsigned tx = 0; tx < blockDim.x; tx++) {
          threadIdx = {tx, ty, 0};
          fk(ni, nj, seed, N, a, b, h, rth, &n_inside, &err);
        }
      }
    }
    const auto end = std::chrono::steady_clock::now();
    if (r > 0 || repeat == 1) {  // as kjit_feynman-kac: the first of several launches apart
      time += std::chrono::duration_cast<std::chrono::nanoseconds>(end - start).count();
    }
  }
  std::printf("Average kernel execution time %f (ms)\n",
              static_cast<double>(time) * 1e-6 / (repeat > 1 ? repeat - 1 : 1));
  std::printf("  RMS absolute error in solution = %e\n",
              std::sqrt(err / static_cast<double>(n_inside)));
  if (out != nullptr) {
    std::ofstream file(out, std::ios::binary);
    file.write(reinterpret_cast<const char*>(&n_inside), sizeof n_inside);
    file.write(reinterpret_cast<const char*>(&err), sizeof err);
  }
  return 0;
}
