// Kernels that ask to be specialised on their own arguments, as LLNL's Proteus spells it
// (annotate("jit", ...), 1-based positions): a loop bound and a scale that each launch folds, and
// the same kernel without the annotation to compare with. Each counts its launches in a
// __device__ variable: a variant is a module of its own, so the program's copy counts only the
// launches that ran the kernel itself.
#include <cuda_runtime.h>

__device__ unsigned long long launches;

// y[i] = the sum over k < steps of x[(i + k) % n] * scale.
__global__ __attribute__((annotate("jit", 3, 4))) void window(const float* x, float* y, int steps,
                                                              float scale, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i == 0) {
    atomicAdd(&launches, 1ULL);
  }
  if (i < n) {
    float acc = 0.0f;
    for (int k = 0; k < steps; ++k) {
      acc += x[(i + k) % n] * scale;
    }
    y[i] = acc;
  }
}

__global__ void window_plain(const float* x, float* y, int steps, float scale, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i == 0) {
    atomicAdd(&launches, 1ULL);
  }
  if (i < n) {
    float acc = 0.0f;
    for (int k = 0; k < steps; ++k) {
      acc += x[(i + k) % n] * scale;
    }
    y[i] = acc;
  }
}
