#include "openmp_baselines.hpp"

#include <omp.h>

#include <cmath>

#include "mandelbrot.h"

namespace kjit::bench {

void omp_vadd(const float* a, const float* b, float* c, int n) {
#pragma omp parallel for simd schedule(static)
  for (int i = 0; i < n; ++i) {
    c[i] = a[i] + b[i];
  }
}

void omp_saxpy(float a, const float* x, float* y, int n) {
#pragma omp parallel for simd schedule(static)
  for (int i = 0; i < n; ++i) {
    y[i] = a * x[i] + y[i];
  }
}

void omp_mandelbrot(const MandelbrotView& view, int* iterations) {
#pragma omp parallel for schedule(dynamic, 4)
  for (int y = 0; y < view.height; ++y) {
    for (int x = 0; x < view.width; ++x) {
      iterations[y * view.width + x] = mandelbrot_iterations(view, x, y);
    }
  }
}

void omp_empty() {
  const int threads = omp_get_max_threads();
#pragma omp parallel for schedule(static)
  for (int i = 0; i < threads; ++i) {
    asm volatile("" ::: "memory");  // an iteration the compiler must keep
  }
}

int omp_threads() {
  return omp_get_max_threads();
}

}  // namespace kjit::bench
