// A kernel file as real projects have them: the kernels, and host code that launches them,
// calls the CUDA runtime, has a main(), host variables and a helper for both sides.
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <cuda_runtime.h>

#include "scan_common.h"

#define CHECK(call)                                                          \
  do {                                                                       \
    cudaError_t e = (call);                                                  \
    if (e != cudaSuccess) {                                                  \
      fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e)); \
      exit(EXIT_FAILURE);                                                    \
    }                                                                        \
  } while (0)

static float host_scale = 2.0f;

inline __host__ __device__ uint twice(uint x) { return 2 * x; }

uint plus_one(uint x) { return x + 1; }  // unannotated: compiled for the device too

#ifdef __CUDA_ARCH__
#define WHERE 1u
#else
#define WHERE 100u
#endif

// Exclusive scan of each block's THREADBLOCK_SIZE values (Hillis-Steele in shared memory).
__global__ void scanExclusiveShared(uint* d_Dst, const uint* d_Src) {
  __shared__ uint s[2 * THREADBLOCK_SIZE];
  const uint t = threadIdx.x;
  const uint pos = blockIdx.x * blockDim.x + t;
  uint* in = s;
  uint* out = s + THREADBLOCK_SIZE;
  in[t] = t > 0 ? d_Src[pos - 1] : 0;
  __syncthreads();
  for (uint offset = 1; offset < THREADBLOCK_SIZE; offset *= 2) {
    out[t] = in[t] + (t >= offset ? in[t - offset] : 0);
    __syncthreads();
    uint* swap = in;
    in = out;
    out = swap;
  }
  d_Dst[pos] = twice(in[t]) + plus_one(WHERE) - 2;  // = 2 * scan: the device path of WHERE
}

extern "C" size_t scanExclusiveShort(uint* d_Dst, uint* d_Src, uint batchSize,
                                     uint arrayLength) {
  assert(arrayLength == THREADBLOCK_SIZE);
  scanExclusiveShared<<<batchSize, THREADBLOCK_SIZE>>>(d_Dst, d_Src);
  CHECK(cudaGetLastError());
  ++scan_calls;
  return THREADBLOCK_SIZE;
}

extern "C" void initScan(void) { CHECK(cudaMalloc((void**)&d_Buf, 1024 * sizeof(uint))); }
extern "C" void closeScan(void) { CHECK(cudaFree(d_Buf)); }

__host__ void report(const uint* h, int n) {
  for (int i = 0; i < n; ++i) {
    printf("%u ", h[i]);
  }
  printf("(scale %f)\n", host_scale);
}

int main(int argc, char** argv) {
  uint* d = 0;
  initScan();
  scanExclusiveShort(d, d, 1, THREADBLOCK_SIZE);
  closeScan();
  return argc > 5 ? EXIT_FAILURE : EXIT_SUCCESS;
}
