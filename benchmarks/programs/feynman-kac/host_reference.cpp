// How expected-nj16-paths100.bin (cpu_check.cmake's expected outputs) was made: the shipped
// kernel (upstream/util.h, upstream/kernel.h) run serially on the host, each thread of each block
// in turn, under host stand-ins for __global__, blockIdx and atomicAdd. Not built by CMake:
//   g++ -O3 -std=c++20 -o host_reference host_reference.cpp
//   ./host_reference 16 100 expected-nj16-paths100.bin
#include <cmath>
#include <cstdio>
#include <cstdlib>
using std::exp;
using std::pow;
struct Dim {
  unsigned x, y, z;
};
static Dim blockIdx, threadIdx, blockDim{16, 16, 1};
#define __global__
#define __device__
#define __restrict__
static int atomicAdd(int* p, int v) {
  const int old = *p;
  *p += v;
  return old;
}
static double atomicAdd(double* p, double v) {
  const double old = *p;
  *p += v;
  return old;
}
// upstream/main.cu's order
#include "upstream/util.h"
//
#include "upstream/kernel.h"
int main(int argc, char** argv) {
  if (argc != 4) {
    std::printf("usage: %s <nj> <paths> <output file>\n", argv[0]);
    return 2;
  }
  const int nj = std::atoi(argv[1]);
  const int N = std::atoi(argv[2]);
  const double a = 2, b = 1, h = 0.001, rth = std::sqrt(2 * h);
  const int ni = 1 + i4_ceiling(a / b) * (nj - 1);
  int n_inside = 0;
  double err = 0;
  for (unsigned by = 0; by < unsigned(nj + 15) / 16; by++) {
    for (unsigned bx = 0; bx < unsigned(ni + 15) / 16; bx++) {
      for (unsigned ty = 0; ty < 16; ty++) {
        for (unsigned tx = 0; tx < 16; tx++) {
          blockIdx = {bx, by, 0};
          threadIdx = {tx, ty, 0};
          fk(ni, nj, 123456789, N, a, b, h, rth, &n_inside, &err);
        }
      }
    }
  }
  std::printf("n_inside %d, err %.17g, RMS %e\n", n_inside, err, std::sqrt(err / n_inside));
  std::FILE* file = std::fopen(argv[3], "wb");
  std::fwrite(&n_inside, sizeof n_inside, 1, file);
  std::fwrite(&err, sizeof err, 1, file);
  std::fclose(file);
  return 0;
}
