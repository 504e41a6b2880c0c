// Kernels of the RAJA Performance Suite (LLNL's RAJAPerf), written in kjit's CUDA dialect after
// its CUDA variants, in double precision as RAJAPerf runs them. benchmarks/ times them against
// the same loops compiled ahead of time (OpenMP on the CPU, nvcc on NVIDIA GPUs); the tests check
// them against host references.

// Stream_DAXPY: y += a * x.
__global__ void daxpy(double* y, const double* x, double a, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    y[i] += a * x[i];
  }
}

// Stream_TRIAD: a = b + alpha * c.
__global__ void triad(double* a, const double* b, const double* c, double alpha, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    a[i] = b[i] + alpha * c[i];
  }
}

// Apps_ENERGY: six kernels, run in order, updating energy and artificial viscosity arrays. The
// arithmetic of each point is in rajaperf.h, shared with the host's baselines and references.
#include "rajaperf.h"

__global__ void energy1(EnergyArrays v, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    energy1_at(v, i);
  }
}

__global__ void energy2(EnergyArrays v, EnergyConstants k, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    energy2_at(v, k, i);
  }
}

__global__ void energy3(EnergyArrays v, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    energy3_at(v, i);
  }
}

__global__ void energy4(EnergyArrays v, EnergyConstants k, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    energy4_at(v, k, i);
  }
}

__global__ void energy5(EnergyArrays v, EnergyConstants k, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    energy5_at(v, k, i);
  }
}

__global__ void energy6(EnergyArrays v, EnergyConstants k, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    energy6_at(v, k, i);
  }
}

// Basic_PI_ATOMIC: pi by the midpoint rule, one atomic add per point.
__global__ void pi_atomic(double* pi, double dx, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    const double x = (i + 0.5) * dx;
    atomicAdd(pi, dx / (1.0 + x * x));
  }
}

// Apps_FIR: a 16-tap filter; out has n - 15 points.
__global__ void fir(double* out, const double* in, const double* coeff, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n - 15) {
    double sum = 0.0;
    for (int j = 0; j < 16; ++j) {
      sum += coeff[j] * in[i + j];
    }
    out[i] = sum;
  }
}

// Polybench_JACOBI_2D: one half-step, b from a over the interior of an n x n grid.
__global__ void jacobi_2d(double* b, const double* a, int n) {
  const int j = blockIdx.x * blockDim.x + threadIdx.x + 1;
  const int i = blockIdx.y * blockDim.y + threadIdx.y + 1;
  if (i < n - 1 && j < n - 1) {
    b[i * n + j] =
        0.2 * (a[i * n + j] + a[i * n + j - 1] + a[i * n + j + 1] + a[(i + 1) * n + j] +
               a[(i - 1) * n + j]);
  }
}

// Basic_MAT_MAT_SHARED: c = a * b for n x n matrices, 16 x 16 tiles in static shared memory;
// launch with 16 x 16 blocks.
__global__ void mat_mat_shared(const double* a, const double* b, double* c, int n) {
  __shared__ double as[16][16];
  __shared__ double bs[16][16];
  const int tx = threadIdx.x;
  const int ty = threadIdx.y;
  const int row = blockIdx.y * 16 + ty;
  const int col = blockIdx.x * 16 + tx;
  double acc = 0.0;
  for (int k0 = 0; k0 < n; k0 += 16) {
    as[ty][tx] = row < n && k0 + tx < n ? a[row * n + k0 + tx] : 0.0;
    bs[ty][tx] = k0 + ty < n && col < n ? b[(k0 + ty) * n + col] : 0.0;
    __syncthreads();
    for (int k = 0; k < 16; ++k) {
      acc += as[ty][k] * bs[k][tx];
    }
    __syncthreads();
  }
  if (row < n && col < n) {
    c[row * n + col] = acc;
  }
}
