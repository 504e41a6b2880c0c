// Which kernels get a range entry (cpu_thread_ranges.hpp): grid-stride loops and one
// element per thread (`if (i < n)`) in the forms CUDA code writes them do; work that reads the
// thread's identity other than through its index, kernels with work outside the loop or element
// and loops that are not over the grid's linear index do not (they run by blocks, as before).
#include "backends/cpu/compile/cpu_compiler.hpp"
#include "binary_symbols.hpp"

#include <gtest/gtest.h>

#include <string>

namespace kjit {
namespace {

/// Whether kernel `k` of `source` (which declares it) gets a range entry.
bool ranges(const std::string& source) {
  backend::CompileRequest r;
  r.program_name = "ranges.cu";
  r.source = source;
  r.kernel_names = {"k"};
  r.kernel_signatures.resize(1);
  const backend::Binary b = cpu::CpuCompiler("cpu").compile(r);
  EXPECT_TRUE(has_symbol(b, "__kjit_block_0"));
  return has_symbol(b, "__kjit_range_0");
}

TEST(CpuThreadRanges, TheFormsCudaCodeWritesRunOverRanges) {
  EXPECT_TRUE(ranges(R"(__global__ void k(const float* in, float* out, int n) {
      for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        out[i] = 2 * in[i];
    })"));
  EXPECT_TRUE(ranges(R"(__global__ void k(const float* in, float* out, size_t n) {
      for (size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
           i += (size_t)blockDim.x * gridDim.x)
        out[i] = 2 * in[i];
    })"));
  EXPECT_TRUE(ranges(R"(__global__ void k(const float* in, float* out, long long n) {
      for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n;
           i += (long long)gridDim.x * blockDim.x)
        out[i] = 2 * in[i];
    })"));
  EXPECT_TRUE(ranges(R"(__global__ void k(const int* in, int* out, unsigned first, unsigned last) {
      const unsigned stride = gridDim.x * blockDim.x;
      for (unsigned i = threadIdx.x + blockDim.x * blockIdx.x + first; i <= last; i += stride)
        out[i - first] = in[i];
    })"));
  // Atomics, an inner loop and branches in the body.
  EXPECT_TRUE(ranges(R"(__global__ void k(const int* in, unsigned* histogram, int n, int bins) {
      for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        int v = in[i];
        for (int r = 0; r < 3; ++r) v = (v * 31 + r) % 1000;
        if (v >= 0) atomicAdd(&histogram[v % bins], 1U);
      }
    })"));
}

TEST(CpuThreadRanges, OneElementPerThreadRunsOverRanges) {
  EXPECT_TRUE(ranges(R"(__global__ void k(const float* a, const float* b, float* c, int n) {
      const int i = blockIdx.x * blockDim.x + threadIdx.x;
      if (i < n) c[i] = a[i] + b[i];
    })"));
  // An early return, an inclusive bound, a loop of the element's own.
  EXPECT_TRUE(ranges(R"(__global__ void k(const float* x, float* out, unsigned last, int terms) {
      const unsigned i = threadIdx.x + blockIdx.x * blockDim.x;
      if (i > last) return;
      float acc = 0;
      for (int t = 0; t < terms; ++t) acc = acc * x[i] + t;
      out[i] = acc;
    })"));
  // Reads threadIdx.x apart from the index: by blocks.
  EXPECT_FALSE(ranges(R"(__global__ void k(int* out, int n) {
      const int i = blockIdx.x * blockDim.x + threadIdx.x;
      if (i < n) out[i] = threadIdx.x;
    })"));
  // Work on both sides of the bound: by blocks.
  EXPECT_FALSE(ranges(R"(__global__ void k(int* out, int* spare, int n) {
      const int i = blockIdx.x * blockDim.x + threadIdx.x;
      if (i < n) out[i] = 1; else spare[i - n] = 2;
    })"));
  // No bound at all (a grid exactly as large as the data): by blocks.
  EXPECT_FALSE(ranges(R"(__global__ void k(int* out) {
      out[blockIdx.x * blockDim.x + threadIdx.x] = 1;
    })"));
}

TEST(CpuThreadRanges, TwoDimensionalWorkRunsOverRowsOfThreads) {
  // y is the same for every thread of a row: a grid-stride loop along a row, a stencil with a
  // bound on each index (`i < n - 1 && j < m - 1`, one `&&`).
  EXPECT_TRUE(ranges(R"(__global__ void k(const float* in, float* out, int n) {
      const int row = blockIdx.y * blockDim.y + threadIdx.y;
      for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        out[row * n + i] = in[i];
    })"));
  EXPECT_TRUE(ranges(R"(__global__ void k(double* b, const double* a, int n) {
      const int j = blockIdx.x * blockDim.x + threadIdx.x + 1;
      const int i = blockIdx.y * blockDim.y + threadIdx.y + 1;
      if (i < n - 1 && j < n - 1)
        b[i * n + j] = 0.25 * (a[i * n + j - 1] + a[i * n + j + 1] + a[(i - 1) * n + j] +
                               a[(i + 1) * n + j]);
    })"));
  // A bound on the row that differs within a row (it reads threadIdx.x): by blocks.
  EXPECT_FALSE(ranges(R"(__global__ void k(float* out, int n) {
      const int j = blockIdx.x * blockDim.x + threadIdx.x;
      const int i = blockIdx.y * blockDim.y + threadIdx.y;
      if (j < n && i < threadIdx.x) out[i * n + j] = 1;
    })"));
}

TEST(CpuThreadRanges, LoopsThatNeedTheirThreadRunByBlocks) {
  // threadIdx.x in the body.
  EXPECT_FALSE(ranges(R"(__global__ void k(int* out, int n) {
      for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        out[i] = threadIdx.x;
    })"));
  // Work after the loop: a per-thread sum written out.
  EXPECT_FALSE(ranges(R"(__global__ void k(const float* in, float* sums, int n) {
      float acc = 0;
      for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        acc += in[i];
      sums[blockIdx.x * blockDim.x + threadIdx.x] = acc;
    })"));
  // Each block walks the whole array (a block-stride loop).
  EXPECT_FALSE(ranges(R"(__global__ void k(const float* in, float* out, int n) {
      for (int i = threadIdx.x; i < n; i += blockDim.x)
        out[blockIdx.x * n + i] = in[i];
    })"));
  // The x index read as a row (a transpose).
  EXPECT_FALSE(ranges(R"(__global__ void k(const float* in, float* out, int n) {
      const int i = blockIdx.x * blockDim.x + threadIdx.x;
      if (i < n) out[threadIdx.x * n + blockIdx.x] = in[i];
    })"));
  // A loop with a barrier in it.
  EXPECT_FALSE(ranges(R"(__global__ void k(const float* in, float* out, int n) {
      __shared__ float s[256];
      for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        s[threadIdx.x] = in[i];
        __syncthreads();
        out[i] = s[255 - threadIdx.x];
        __syncthreads();
      }
    })"));
}

}  // namespace
}  // namespace kjit
