#include "openmp_baselines.hpp"

#include "openmp_sum.hpp"

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

void omp_nbody(const double* bodies, double* velocity, double* next, int n, double dt,
               double eps2) {
#pragma omp parallel for schedule(static)
  for (int i = 0; i < n; ++i) {
    const double* self = bodies + 4 * i;
    double ax = 0;
    double ay = 0;
    double az = 0;
#pragma omp simd reduction(+ : ax, ay, az)
    for (int j = 0; j < n; ++j) {
      const double* other = bodies + 4 * j;
      const double dx = other[0] - self[0];
      const double dy = other[1] - self[1];
      const double dz = other[2] - self[2];
      const double inv = 1.0 / std::sqrt(dx * dx + dy * dy + dz * dz + eps2);
      const double s = other[3] * inv * inv * inv;
      ax += dx * s;
      ay += dy * s;
      az += dz * s;
    }
    double* v = velocity + 3 * i;
    v[0] += ax * dt;
    v[1] += ay * dt;
    v[2] += az * dt;
    double* out = next + 4 * i;
    out[0] = self[0] + v[0] * dt;
    out[1] = self[1] + v[1] * dt;
    out[2] = self[2] + v[2] * dt;
    out[3] = self[3];
  }
}

void omp_empty() {
  const int threads = omp_get_max_threads();
#pragma omp parallel for schedule(static)
  for (int i = 0; i < threads; ++i) {
    asm volatile("" ::: "memory");  // an iteration the compiler must keep
  }
}

void omp_empty_loop(int iterations) {
#pragma omp parallel for schedule(static)
  for (int i = 0; i < iterations; ++i) {
    asm volatile("" ::: "memory");
  }
}

int omp_sum_ints(const int* x, int n) {
  return static_cast<int>(omp_sum<unsigned>(x, n));
}

float omp_sum_floats(const float* x, int n) {
  return omp_sum<float>(x, n);
}

int omp_threads() {
  return omp_get_max_threads();
}

}  // namespace kjit::bench
