// Reductions with shared memory, barriers and atomics.

// Adds every in[i] into *sum: each block reduces its part in shared memory (a tree with a
// barrier per level), then one thread adds the block's total atomically. Any block size that is
// a power of two, up to 1024.
template <typename T>
__global__ void reduce_sum(const T* in, T* sum, int n) {
  __shared__ T partial[1024];
  const unsigned t = threadIdx.x;
  T acc = 0;
  for (int i = blockIdx.x * blockDim.x + t; i < n; i += gridDim.x * blockDim.x) {
    acc += in[i];
  }
  partial[t] = acc;
  __syncthreads();
  for (unsigned stride = blockDim.x / 2; stride > 0; stride /= 2) {
    if (t < stride) {
      partial[t] += partial[t + stride];
    }
    __syncthreads();
  }
  if (t == 0) {
    atomicAdd(sum, partial[0]);
  }
}

// 256-bin histogram of bytes: per-block counts in shared memory, then merged into the result.
__global__ void histogram256(const unsigned char* data, int n, unsigned int* bins) {
  __shared__ unsigned int local[256];
  for (unsigned b = threadIdx.x; b < 256; b += blockDim.x) {
    local[b] = 0;
  }
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    atomicAdd(&local[data[i]], 1u);
  }
  __syncthreads();
  for (unsigned b = threadIdx.x; b < 256; b += blockDim.x) {
    atomicAdd(&bins[b], local[b]);
  }
}
