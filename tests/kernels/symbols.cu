// Device variables that the host reads and writes by name (Program::symbol), as an nvcc program
// would with cudaMemcpyToSymbol: a __constant__ array, struct and static, and __device__ ones.
#include <cuda_runtime.h>

#define TAPS 17

struct Scale {
  float mul;
  int add;
};

__constant__ float c_taps[TAPS];
__constant__ Scale c_scale;
static __constant__ int s_offset;
__device__ unsigned int d_count;
namespace filters {
__device__ float bias;
}

__global__ void convolve(const float* in, float* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) {
    return;
  }
  float sum = 0.0f;
  for (int t = 0; t < TAPS; ++t) {
    const int j = i + t - TAPS / 2;
    if (j >= 0 && j < n) {
      sum += c_taps[t] * in[j];
    }
  }
  out[i] = (sum + filters::bias) * c_scale.mul + static_cast<float>(c_scale.add + s_offset);
  atomicAdd(&d_count, 1u);
}

__global__ void read_count(unsigned int* out) {
  out[0] = d_count;
}

__global__ void store(unsigned int* where, unsigned int value) {
  *where = value;
}
