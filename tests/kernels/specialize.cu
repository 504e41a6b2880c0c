// Kernels for runtime specialisation (Kernel::specialize): scalar parameters that a variant fixes,
// a template asked for by its plain name, a block-size-dependent reduction, launch bounds of its
// own, a __constant__ table, and one parameter of every kind a variant can fix.
#include <cuda_runtime.h>

__constant__ float c_weights[4];

// y = a * x + y over n elements, with a stride: every operand a candidate for folding.
__global__ void saxpy(int n, float a, int stride, const float* x, float* y) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    y[i * stride] = a * x[i * stride] + y[i * stride];
  }
}

// A template, asked for by its plain name with Params <T, const T*, T*, int>.
template <class T>
__global__ void scale_add(T factor, const T* x, T* y, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    y[i] = factor * x[i] + static_cast<T>(i % 7);
  }
}

// Per-block sums of x weighted by c_weights[i % 4]; the tree over shared memory follows blockDim.
__global__ void __launch_bounds__(256) block_sums(const long long* x, long long* sums, int n) {
  __shared__ long long tile[256];
  const unsigned t = threadIdx.x;
  long long acc = 0;
  for (int i = blockIdx.x * blockDim.x + t; i < n; i += blockDim.x * gridDim.x) {
    acc += x[i] * static_cast<long long>(c_weights[i % 4]);
  }
  tile[t] = acc;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (t < s) {
      tile[t] += tile[t + s];
    }
    __syncthreads();
  }
  if (t == 0) {
    sums[blockIdx.x] = tile[0];
  }
}

enum Mode : short { kMinus = -3, kPlus = 5 };

// Stores each parameter's bytes, so that a fixed value can be compared bit for bit.
__global__ void echo(bool b, signed char c, unsigned short us, int i, unsigned int u, long long ll,
                     unsigned long long ull, float f, double d, Mode m, unsigned long long* out) {
  if (threadIdx.x != 0 || blockIdx.x != 0) {
    return;
  }
  out[0] = b ? 1 : 0;
  out[1] = static_cast<unsigned long long>(static_cast<long long>(c));
  out[2] = us;
  out[3] = static_cast<unsigned long long>(static_cast<long long>(i));
  out[4] = u;
  out[5] = static_cast<unsigned long long>(ll);
  out[6] = ull;
  out[7] = __float_as_uint(f);
  out[8] = static_cast<unsigned long long>(__double_as_longlong(d));
  out[9] = static_cast<unsigned long long>(static_cast<long long>(m));
}
