// A kernel that declares its launch bounds with a minimum of blocks per multiprocessor, as
// LULESH's do: a specialised variant of it keeps them, and with them the registers a thread may
// use.
__global__ void __launch_bounds__(64, 8) scale_bounded(float* y, const float* x, float a, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    y[i] = a * x[i];
  }
}
