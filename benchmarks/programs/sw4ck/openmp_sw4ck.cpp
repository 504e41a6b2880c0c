// SPDX-License-Identifier: GPL-2.0-only
// sw4ck's baseline on the CPU, and its host reference: the shipped kernels (upstream/kernel1.cpp
// to kernel5.cpp) compiled as host C++ under stand-ins for threadIdx, blockIdx and blockDim, one
// call per GPU thread, for every thread of every block of each launch that
// upstream/curvilinear4sg.cu's curvilinear4sg_ci makes, on the inputs and with the arguments of
// kjit_sw4ck.cpp. A launch's blocks are shared among the cores by OpenMP's `parallel for` with a
// static schedule, the threads of a block run in order. HeCBench's own sw4ck-omp offloads with
// `omp target`, which g++ without an offload target runs on one thread, so this runs the very
// loops kjit runs, on every core. Same report lines as kjit_sw4ck; --out writes a_Uacc of both
// data sets after the last repeat, what kjit_sw4ck's --expect reads. Built without OpenMP, it
// runs the blocks serially: cpu.program.sw4ck's host reference (sw4ck_host_reference).
// GPL-2.0-only, as the program it follows (this folder's LICENSE.md).
//   g++ -O3 -march=native -fopenmp -std=c++20 -o openmp_sw4ck openmp_sw4ck.cpp
//   openmp_sw4ck <input file> <repeat> [--out FILE]

// First: curvilinear4sg.h's macros (ni, base, mu(...), ...) would rename what this uses.
#include "sw4ck_input.h"

#include "../expected_output.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <iostream>
#include <string>
#include <vector>
#ifdef _OPENMP
#include <omp.h>
#endif

namespace sw4ck_host {
struct Dim {
  unsigned x, y, z;
};
}  // namespace sw4ck_host

// What the kernels read of CUDA: the position of the thread that runs now, each OpenMP thread's
// own. They use nothing else (no __syncthreads, shared memory, __ldg or math functions, nor
// gridDim); __restrict__ is GCC's.
static thread_local sw4ck_host::Dim threadIdx;
static thread_local sw4ck_host::Dim blockIdx;
static sw4ck_host::Dim blockDim;
#define __global__  // NOLINT(bugprone-reserved-identifier): CUDA's name

// upstream/utils.h (which curvilinear4sg.h includes) kept out: its <cuda.h> gives the kernels
// nothing they use, its declaration of curvilinear4sg_ci is for the host launcher not built here,
// and float_sw4 is all they take from it.
#define __UTILS_H  // NOLINT(bugprone-reserved-identifier): utils.h's guard
#define float_sw4 double

// As upstream/curvilinear4sg.cu includes them, kernel files and all.
#include "upstream/curvilinear4sg.h"
#include "upstream/kernel1.cpp"  // NOLINT(bugprone-suspicious-include)
#include "upstream/kernel2.cpp"  // NOLINT(bugprone-suspicious-include)
#include "upstream/kernel3.cpp"  // NOLINT(bugprone-suspicious-include)
#include "upstream/kernel4.cpp"  // NOLINT(bugprone-suspicious-include)
#include "upstream/kernel5.cpp"  // NOLINT(bugprone-suspicious-include)

// curvilinear4sg.h's short names, undone so that those below are this file's own.
#undef ni
#undef nij
#undef nijk
#undef base
#undef base3
#undef base4
#undef ifirst0
#undef jfirst0
#undef mu
#undef la
#undef jac
#undef u
#undef lu
#undef met
#undef strx
#undef stry
#undef acof
#undef bope
#undef ghcof
#undef acof_no_gp
#undef ghcof_no_gp
#undef i6
#undef tf
#undef c1
#undef c2

namespace {

using In = const double*;
// kernel1 to kernel4: the bounds of the points (6), of the arrays (6), a1 and sgn, then the
// arrays (a_lu, the one written, sixth); kernel5 takes nk after the arrays' bounds.
using Kernel14 = void (*)(int, int, int, int, int, int, int, int, int, int, int, int, double,
                          double, In, In, In, In, In, double*, In, In, In, In, In, In, In);
using Kernel15 = void (*)(int, int, int, int, int, int, int, int, int, int, int, int, int, double,
                          double, In, In, In, In, In, double*, In, In, In, In, In, In, In);

/// Runs `body` once for every thread of every block of `l`'s grid, with threadIdx, blockIdx and
/// blockDim set as that thread's: the blocks in a `parallel for` over the whole grid (one after
/// another without OpenMP), the threads of a block one after another.
template <class Body>
void run_launch(const sw4ck::Launch& l, Body body) {
  blockDim = {static_cast<unsigned>(l.block[0]), static_cast<unsigned>(l.block[1]),
              static_cast<unsigned>(l.block[2])};
  const int grid_x = l.grid[0];
  const int grid_y = l.grid[1];
  const int grid_z = l.grid[2];
#pragma omp parallel for collapse(3) schedule(static)
  for (int bz = 0; bz < grid_z; bz++) {
    for (int by = 0; by < grid_y; by++) {
      for (int bx = 0; bx < grid_x; bx++) {
        blockIdx = {static_cast<unsigned>(bx), static_cast<unsigned>(by),
                    static_cast<unsigned>(bz)};
        for (int tz = 0; tz < l.block[2]; tz++) {
          for (int ty = 0; ty < l.block[1]; ty++) {
            for (int tx = 0; tx < l.block[0]; tx++) {
              threadIdx = {static_cast<unsigned>(tx), static_cast<unsigned>(ty),
                           static_cast<unsigned>(tz)};
              body();
            }
          }
        }
      }
    }
  }
}

}  // namespace

int main(int argc, char* argv[]) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: %s <input file> <repeat> [--out FILE]\n", argv[0]);
    return 2;
  }
  const std::string input = argv[1];
  const int repeat = std::atoi(argv[2]);
  std::string out;
  for (int i = 3; i < argc; ++i) {
    if (std::strcmp(argv[i], "--out") == 0 && i + 1 < argc) {
      out = argv[++i];
    } else {
      std::fprintf(stderr, "usage: %s <input file> <repeat> [--out FILE]\n", argv[0]);
      return 2;
    }
  }
  if (repeat <= 0) {
    std::fprintf(stderr, "%s: the repeat count must be positive\n", argv[0]);
    return 2;
  }
  try {
    std::cout << "Reading from file " << input << "\n";
    std::vector<sw4ck::Case> cases = sw4ck::read_input(input);
    const std::vector<double> cof = sw4ck::coefficients();
    const In acof_no_gp = cof.data() + sw4ck::kAcofNoGp;
    const In bope = cof.data() + sw4ck::kBope;
    const In ghcof_no_gp = cof.data() + sw4ck::kGhcofNoGp;
    // curvilinear4sg_ci's op is '-': a1 = 1, sgn = -1.
    const double a1 = 1;
    const double sgn = -1;
    const Kernel14 kernels14[] = {kernel1, kernel2, kernel3, kernel4};

    std::vector<double> outputs;  // a_Uacc of both data sets
    double later_ms = 0;          // the kernels of a repeat after the first, both data sets
    double copy_ms = 0;           // the copies of a_Uacc before each repeat
    for (std::size_t i = 0; i < 2; i++) {
      sw4ck::Case& c = cases[i];
      const In alpha = c.at("a_AlphaVE_0").data.data();
      const In mu = c.at("mMuVE_0").data.data();
      const In lambda = c.at("mLambdaVE_0").data.data();
      const In met = c.at("mMetric").data.data();
      const In jac = c.at("mJ").data.data();
      const std::vector<double> uacc_initial = c.at("a_Uacc").data;
      std::vector<double> uacc;
      const std::vector<double> strides = sw4ck::stretching(c);
      const In strx = strides.data();
      const In stry = strides.data() + sw4ck::stretching_y(c);
      const auto& o = c.onesided;
      const std::vector<sw4ck::Launch> launches = sw4ck::launches(c);

      sw4ck::RepeatTimes times;
      for (int p = 0; p < repeat; p++) {
        const auto copy = std::chrono::steady_clock::now();
        uacc = uacc_initial;
        const auto start = std::chrono::steady_clock::now();
        copy_ms += std::chrono::duration<double, std::milli>(start - copy).count();
        for (const sw4ck::Launch& l : launches) {
          const auto& r = l.range;
          if (l.kernel == 5) {
            const Kernel15 k = kernel5;
            run_launch(l, [&] {
              k(r[0], r[1], r[2], r[3], r[4], r[5], o[6], o[7], o[8], o[9], o[10], o[11], o[12], a1,
                sgn, alpha, mu, lambda, met, jac, uacc.data(), acof_no_gp, bope, ghcof_no_gp,
                acof_no_gp, ghcof_no_gp, strx, stry);
            });
          } else {
            const Kernel14 k = kernels14[l.kernel - 1];
            run_launch(l, [&] {
              k(r[0], r[1], r[2], r[3], r[4], r[5], o[6], o[7], o[8], o[9], o[10], o[11], a1, sgn,
                alpha, mu, lambda, met, jac, uacc.data(), acof_no_gp, bope, ghcof_no_gp, acof_no_gp,
                ghcof_no_gp, strx, stry);
            });
          }
        }
        times.stop(start);
      }
      later_ms += times.later_ms();
      times.report();
      sw4ck::Array& uacc_array = c.at("a_Uacc");
      uacc_array.data = uacc;
      std::cout << "Error = " << sw4ck::error_percent(i, uacc_array) << " %\n";
      outputs.insert(outputs.end(), uacc.begin(), uacc.end());
    }
    std::printf("Average kernel execution time %f (ms)\n", later_ms);
    std::printf("Copies of a_Uacc %f (ms in all)\n", copy_ms);
#ifdef _OPENMP
    std::printf("OpenMP threads %d\n", omp_get_max_threads());
#endif
    if (!out.empty()) {
      programs::write_values(out, outputs);
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 1;
  }
  return 0;
}
