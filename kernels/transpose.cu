// out = transpose(in), in being rows x cols row-major. 32 x 32 tiles through static shared
// memory (one padding column against bank conflicts on GPUs); launch with 32 x 8 threads.
#define TRANSPOSE_TILE 32
#define TRANSPOSE_ROWS 8

__global__ void transpose(const float* in, float* out, int rows, int cols) {
  __shared__ float tile[TRANSPOSE_TILE][TRANSPOSE_TILE + 1];
  const int x = blockIdx.x * TRANSPOSE_TILE + threadIdx.x;
  const int y = blockIdx.y * TRANSPOSE_TILE + threadIdx.y;
  for (int j = 0; j < TRANSPOSE_TILE; j += TRANSPOSE_ROWS) {
    if (x < cols && y + j < rows) {
      tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * cols + x];
    }
  }
  __syncthreads();
  const int tx = blockIdx.y * TRANSPOSE_TILE + threadIdx.x;
  const int ty = blockIdx.x * TRANSPOSE_TILE + threadIdx.y;
  for (int j = 0; j < TRANSPOSE_TILE; j += TRANSPOSE_ROWS) {
    if (tx < rows && ty + j < cols) {
      out[(ty + j) * rows + tx] = tile[threadIdx.x][threadIdx.y + j];
    }
  }
}
