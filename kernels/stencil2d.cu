// One Jacobi step of the 2-D Laplace equation on a width x height grid: every interior point
// becomes the mean of its four neighbours; boundary points are copied.
__global__ void jacobi2d(const float* in, float* out, int width, int height) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= width || y >= height) {
    return;
  }
  const int i = y * width + x;
  if (x == 0 || y == 0 || x == width - 1 || y == height - 1) {
    out[i] = in[i];
  } else {
    out[i] = 0.25f * (in[i - 1] + in[i + 1] + in[i - width] + in[i + width]);
  }
}
