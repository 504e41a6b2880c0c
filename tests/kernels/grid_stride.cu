// Grid-stride loops in the forms CUDA code writes them (tests/api/grid_stride_test.cpp). On the
// CPU, those whose iterations read the thread's identity only through the loop's index run over
// ranges of threads, row by row, on 1-D launches; the others by blocks.

// Counts how often each element is visited: once each on a 1-D launch, whatever the grid.
__global__ void count_visits(unsigned* visits, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    atomicAdd(&visits[i], 1U);
  }
}

// A size_t index: the 32-bit linear index widened, and an unsigned bound.
__global__ void add_size_t(const int* a, const int* b, int* c, size_t n) {
  for (size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += static_cast<size_t>(blockDim.x) * gridDim.x) {
    c[i] = a[i] + b[i];
  }
}

// An unsigned index from an offset, an inclusive bound, threadIdx.x first, the stride computed
// before the loop.
__global__ void copy_window(const int* in, int* out, unsigned first, unsigned last) {
  const unsigned stride = gridDim.x * blockDim.x;
  for (unsigned i = threadIdx.x + blockDim.x * blockIdx.x + first; i <= last; i += stride) {
    out[i - first] = in[i];
  }
}

// Each thread's iterations depend on each other: every element ends as the sum of its thread's
// elements up to it. Run out of order within a thread, the sums are wrong.
__global__ void running_sums(long long* y, int n) {
  const int stride = static_cast<int>(blockDim.x * gridDim.x);
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
    if (i >= stride) {
      y[i] += y[i - stride];
    }
  }
}

// A body with a loop of its own and a branch; a 64-bit linear index.
__global__ void horner(const float* x, const float* coeffs, int degree, float* out, long long n) {
  for (long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += static_cast<long long>(gridDim.x) * blockDim.x) {
    float acc = 0.0f;
    for (int k = degree; k >= 0; --k) {
      acc = acc * x[i] + coeffs[k];
    }
    out[i] = x[i] < 0.0f ? -acc : acc;
  }
}

// Reads threadIdx.x in the body: runs by blocks on the CPU.
__global__ void tag_with_thread(int* out, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    out[i] = i * 1024 + static_cast<int>(threadIdx.x);
  }
}

// One element per thread, with an early return: counts visits as count_visits does.
__global__ void visit_element(unsigned* visits, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) {
    return;
  }
  atomicAdd(&visits[i], 1U);
}

// A five-point stencil over the interior of an m x n grid (x along a row): one `&&` of a bound on
// each index, an index read with offsets. On the CPU, 2-D launches run as rows of threads.
__global__ void stencil_interior(const double* a, double* b, int m, int n) {
  const int j = blockIdx.x * blockDim.x + threadIdx.x + 1;
  const int i = blockIdx.y * blockDim.y + threadIdx.y + 1;
  if (i < m - 1 && j < n - 1) {
    b[i * n + j] = 0.5 * a[i * n + j] + 0.125 * (a[i * n + j - 1] + a[i * n + j + 1] +
                                                 a[(i - 1) * n + j] + a[(i + 1) * n + j]);
  }
}

// y[i] = x[i] + 1. With x pointing one grid's width of threads into y, iteration i reads what
// the same thread writes at its next iteration: only the threads' own order gives y[i] the old
// y[i + stride] + 1. With separate arrays, any order gives the same result.
__global__ void add_one(const float* x, float* y, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    y[i] = x[i] + 1.0f;
  }
}
