// C = A * B for row-major A (m x k), B (k x n), C (m x n), with square tiles of blockDim.x
// threads in dynamic shared memory: launch with shared_bytes = 2 * tile * tile * sizeof(float).
__global__ void matmul_tiled(const float* a, const float* b, float* c, int m, int n, int k) {
  extern __shared__ float tiles[];
  const int tile = blockDim.x;
  float* ta = tiles;
  float* tb = tiles + tile * tile;
  const int tx = threadIdx.x;
  const int ty = threadIdx.y;
  const int row = blockIdx.y * tile + ty;
  const int col = blockIdx.x * tile + tx;
  float acc = 0.0f;
  for (int k0 = 0; k0 < k; k0 += tile) {
    ta[ty * tile + tx] = (row < m && k0 + tx < k) ? a[row * k + k0 + tx] : 0.0f;
    tb[ty * tile + tx] = (k0 + ty < k && col < n) ? b[(k0 + ty) * n + col] : 0.0f;
    __syncthreads();
    for (int i = 0; i < tile; ++i) {
      acc += ta[ty * tile + i] * tb[i * tile + tx];
    }
    __syncthreads();
  }
  if (row < m && col < n) {
    c[row * n + col] = acc;
  }
}
