// A kernel whose arrays are declared __restrict__, as HeCBench's are, and the same kernel without
// the promise: a variant must promise nothing its kernel does not.
__global__ void scaled_sum(const float* __restrict__ x, const float* __restrict__ w,
                           float* __restrict__ y, float scale, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    y[i] = x[i] * w[i % 16] * scale;
  }
}

__global__ void scaled_sum_aliased(const float* x, const float* w, float* y, float scale, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    y[i] = x[i] * w[i % 16] * scale;
  }
}
