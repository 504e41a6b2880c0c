#include "rajaperf_openmp.hpp"

#include "openmp_sum.hpp"

#include <algorithm>
#include <cmath>

#include "rajaperf.h"

namespace kjit::bench {

void omp_daxpy(double* y, const double* x, double a, int n) {
#pragma omp parallel for simd schedule(static)
  for (int i = 0; i < n; ++i) {
    y[i] += a * x[i];
  }
}

void omp_triad(double* a, const double* b, const double* c, double alpha, int n) {
#pragma omp parallel for simd schedule(static)
  for (int i = 0; i < n; ++i) {
    a[i] = b[i] + alpha * c[i];
  }
}

void omp_energy(const EnergyArrays& v, const EnergyConstants& k, int n) {
#pragma omp parallel
  {
#pragma omp for schedule(static)
    for (int i = 0; i < n; ++i) {
      energy1_at(v, i);
    }
#pragma omp for schedule(static)
    for (int i = 0; i < n; ++i) {
      energy2_at(v, k, i);
    }
#pragma omp for schedule(static)
    for (int i = 0; i < n; ++i) {
      energy3_at(v, i);
    }
#pragma omp for schedule(static)
    for (int i = 0; i < n; ++i) {
      energy4_at(v, k, i);
    }
#pragma omp for schedule(static)
    for (int i = 0; i < n; ++i) {
      energy5_at(v, k, i);
    }
#pragma omp for schedule(static)
    for (int i = 0; i < n; ++i) {
      energy6_at(v, k, i);
    }
  }
}

double omp_pi_atomic(int n) {
  const double dx = 1.0 / n;
  double pi = 0.0;
#pragma omp parallel for schedule(static)
  for (int i = 0; i < n; ++i) {
    const double x = (i + 0.5) * dx;
#pragma omp atomic
    pi += dx / (1.0 + x * x);
  }
  return 4.0 * pi;
}

double omp_reduce_sum(const double* x, int n) {
  return omp_sum<double>(x, n);
}

void omp_fir(double* out, const double* in, const double* coeff, int n) {
#pragma omp parallel for schedule(static)
  for (int i = 0; i < n - 15; ++i) {
    double sum = 0.0;
    for (int j = 0; j < 16; ++j) {
      sum += coeff[j] * in[i + j];
    }
    out[i] = sum;
  }
}

void omp_jacobi_2d(double* b, const double* a, int n) {
#pragma omp parallel for schedule(static)
  for (int i = 1; i < n - 1; ++i) {
#pragma omp simd
    for (int j = 1; j < n - 1; ++j) {
      b[i * n + j] = 0.2 * (a[i * n + j] + a[i * n + j - 1] + a[i * n + j + 1] +
                            a[(i + 1) * n + j] + a[(i - 1) * n + j]);
    }
  }
}

// RAJAPerf's Base_OpenMP MAT_MAT_SHARED tiles the loops as the GPU kernel does; 16 x 16 tiles
// here too, with the inner loop over the tile's columns so that it vectorises.
void omp_mat_mat(const double* a, const double* b, double* c, int n) {
  constexpr int kTile = 16;
  const int tiles = (n + kTile - 1) / kTile;
#pragma omp parallel for collapse(2) schedule(static)
  for (int ti = 0; ti < tiles; ++ti) {
    for (int tj = 0; tj < tiles; ++tj) {
      double acc[kTile][kTile] = {};
      for (int k0 = 0; k0 < n; k0 += kTile) {
        for (int i = ti * kTile; i < std::min(n, (ti + 1) * kTile); ++i) {
          for (int k = k0; k < std::min(n, k0 + kTile); ++k) {
            const double aik = a[i * n + k];
#pragma omp simd
            for (int j = tj * kTile; j < std::min(n, (tj + 1) * kTile); ++j) {
              acc[i - ti * kTile][j - tj * kTile] += aik * b[k * n + j];
            }
          }
        }
      }
      for (int i = ti * kTile; i < std::min(n, (ti + 1) * kTile); ++i) {
        for (int j = tj * kTile; j < std::min(n, (tj + 1) * kTile); ++j) {
          c[i * n + j] = acc[i - ti * kTile][j - tj * kTile];
        }
      }
    }
  }
}

}  // namespace kjit::bench
