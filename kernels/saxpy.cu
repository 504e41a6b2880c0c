// y[i] = a * x[i] + y[i], for any arithmetic T: ask for "saxpy<float>", "saxpy<double>", ...
template <typename T>
__global__ void saxpy(T a, const T* x, T* y, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    y[i] = a * x[i] + y[i];
  }
}

// The same as a grid-stride loop, the way CUDA code often launches a fixed grid (a few blocks
// per multiprocessor) for any n.
template <typename T>
__global__ void saxpy_grid_stride(T a, const T* x, T* y, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    y[i] = a * x[i] + y[i];
  }
}
