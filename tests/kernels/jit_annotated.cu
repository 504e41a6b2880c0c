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

// A grid-stride loop whose result shows the block and grid it ran with, annotated at `scale`:
// each launch folds its block and grid too (CompileOptions::fold_launch_geometry).
__global__ __attribute__((annotate("jit", 3))) void strided(const float* x, float* y, float scale,
                                                            int n) {
  const float shape = float(blockDim.x) + float(gridDim.x) / 1024.0f;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    y[i] = x[i] * scale + shape;
  }
}
