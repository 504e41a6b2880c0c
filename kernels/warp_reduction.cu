// A sum in the style of CUDA's samples since Kepler: shuffles within each warp, the warps' sums
// through shared memory, a last shuffle reduction in the first warp, one atomic per block. Any
// block size that is a multiple of 32, up to 1024. (Apart from reduction.cu: ROCm 5's hipRTC has
// no _sync shuffles.)
template <typename T>
__global__ void reduce_sum_shfl(const T* in, T* sum, int n) {
  __shared__ T warp_sums[32];
  const unsigned t = threadIdx.x;
  T acc = 0;
  for (int i = blockIdx.x * blockDim.x + t; i < n; i += gridDim.x * blockDim.x) {
    acc += in[i];
  }
  for (int offset = 16; offset > 0; offset /= 2) {
    acc += __shfl_down_sync(0xffffffffu, acc, offset);
  }
  if (t % 32 == 0) {
    warp_sums[t / 32] = acc;
  }
  __syncthreads();
  if (t < 32) {
    acc = t < blockDim.x / 32 ? warp_sums[t] : T(0);
    for (int offset = 16; offset > 0; offset /= 2) {
      acc += __shfl_down_sync(0xffffffffu, acc, offset);
    }
    if (t == 0) {
      atomicAdd(sum, acc);
    }
  }
}
