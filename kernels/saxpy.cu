// y[i] = a * x[i] + y[i], for any arithmetic T: ask for "saxpy<float>", "saxpy<double>", ...
template <typename T>
__global__ void saxpy(T a, const T* x, T* y, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    y[i] = a * x[i] + y[i];
  }
}
