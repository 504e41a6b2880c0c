// A row softmax as textbooks write it, one block per row: a strided maximum over the row, a
// warp's maximum by five __shfl_down_sync, the warps' maxima through shared memory and a barrier,
// thread 0 combining them; then exp(x - max) written out and summed the same way with
// __shfl_xor_sync; then every element divided by the sum. Blocks of whole warps, up to 1024
// threads. (Apart from reduction.cu: ROCm 5's hipRTC has no _sync shuffles.)
__global__ void softmax_rows(const float* in, float* out, int rows, int cols) {
  __shared__ float warp_values[32];
  __shared__ float row_value;
  const int row = blockIdx.x;
  if (row >= rows) {
    return;  // the whole block: every thread has the same row
  }
  const float* x = in + static_cast<size_t>(row) * cols;
  float* y = out + static_cast<size_t>(row) * cols;
  const unsigned lane = threadIdx.x % 32;
  const unsigned warp = threadIdx.x / 32;
  const unsigned warps = blockDim.x / 32;

  float m = -INFINITY;
  for (int i = threadIdx.x; i < cols; i += blockDim.x) {
    m = fmaxf(m, x[i]);
  }
  for (int offset = 16; offset > 0; offset /= 2) {
    m = fmaxf(m, __shfl_down_sync(0xffffffffu, m, offset));
  }
  if (lane == 0) {
    warp_values[warp] = m;
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    float t = warp_values[0];
    for (unsigned w = 1; w < warps; ++w) {
      t = fmaxf(t, warp_values[w]);
    }
    row_value = t;
  }
  __syncthreads();
  const float row_max = row_value;

  float s = 0.0f;
  for (int i = threadIdx.x; i < cols; i += blockDim.x) {
    const float e = expf(x[i] - row_max);
    y[i] = e;
    s += e;
  }
  for (int offset = 16; offset > 0; offset /= 2) {
    s += __shfl_xor_sync(0xffffffffu, s, offset);
  }
  if (lane == 0) {
    warp_values[warp] = s;
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    float t = 0.0f;
    for (unsigned w = 0; w < warps; ++w) {
      t += warp_values[w];
    }
    row_value = t;
  }
  __syncthreads();
  const float inverse = 1.0f / row_value;
  for (int i = threadIdx.x; i < cols; i += blockDim.x) {
    y[i] *= inverse;
  }
}
