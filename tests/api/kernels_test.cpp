// Every kernel of kernels/ against a host reference: fresh random inputs, poisoned outputs,
// several grid and block shapes, including sizes that are not multiples of the block.
#include "test_support.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "../../kernels/mandelbrot.h"  // shared with the kernel, as __host__ __device__ code

namespace kjit::test {
namespace {

class Kernels : public DeviceTest {};

TEST_F(Kernels, VaddMatchesHost) {
  KJIT_SEED_TRACE();
  auto vadd = Program::from_file(kernel_path("vadd.cu"))
                  .kernel<const float*, const float*, float*, int>("vadd", device);
  for (const auto& [n, block] :
       {std::pair{1, 1}, {777, 64}, {1000, 256}, {4097, 1024}, {1 << 20, 256}}) {
    const auto a = random_vector<float>(n, -100.0f, 100.0f);
    const auto b = random_vector<float>(n, -100.0f, 100.0f);
    auto da = device.upload(a);
    auto db = device.upload(b);
    auto dc = poisoned<float>(n);
    vadd.launch(LaunchConfig::for_elements(n, block), da, db, dc, n);
    const auto c = dc.download();
    for (int i = 0; i < n; ++i) {
      ASSERT_EQ(c[i], a[i] + b[i]) << "n=" << n << " block=" << block << " i=" << i;
    }
  }
}

TEST_F(Kernels, EveryLaunchOfASmallGridRunsEveryBlock) {
  // The CPU backend runs a small launch on the stream's thread alone once that has proved
  // faster than waking its workers, and now and then tries the other way again (every 256th
  // launch): 300 launches of one grid cross both ways and a retry, each checked.
  KJIT_SEED_TRACE();
  auto kernel = Program::from_source("small.cu", R"(
    __global__ void scale_and_mark(const int* in, int* out, int k) {
      const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
      out[i] = in[i] * k + (int)blockIdx.x;
    })")
                    .kernel<const int*, int*, int>("scale_and_mark", device);
  constexpr unsigned kBlocks = 8;
  constexpr unsigned kBlock = 32;
  const auto in = random_vector<int>(std::size_t{kBlocks} * kBlock, -1000, 1000);
  auto din = device.upload(in);
  auto out = poisoned<int>(in.size());
  for (int scale = 0; scale < 300; ++scale) {
    kernel.launch(LaunchConfig{.grid = {kBlocks}, .block = {kBlock}}, din, out, scale);
    const auto got = out.download();
    for (std::size_t i = 0; i < got.size(); ++i) {
      ASSERT_EQ(got[i], in[i] * scale + static_cast<int>(i / kBlock))
          << "launch " << scale << ", i=" << i;
    }
  }
}

TEST_F(Kernels, BoundsChecksGuardingSharedLoadsHoldWhereverTheyCut) {
  // The thread's index against bounds that cut a block anywhere, or no block, with loads of a
  // table every thread shares under the check (on the CPU such loops are split at the bound).
  // `u` is an unsigned index that wraps past 2^32 inside a block for one offset.
  KJIT_SEED_TRACE();
  auto k = Program::from_source("cut.cu", R"(
    __global__ void cut(const int* in, const int* table, int* out, int lo, int hi,
                        unsigned offset, unsigned ubound) {
      const int i = blockIdx.x * blockDim.x + threadIdx.x;
      int v = 0;
      if (i < hi) v += table[0] * in[i] + table[1];
      if (i >= lo) v -= table[2];
      const unsigned u = blockIdx.x * blockDim.x + threadIdx.x + offset;
      if (u < ubound) v += table[3] * 2;
      out[i] = v;
    })")
               .kernel<const int*, const int*, int*, int, int, unsigned, unsigned>("cut", device);
  const int n = 3200;  // a multiple of both block sizes: every thread writes its element
  const auto in = random_vector<int>(n, -1000, 1000);
  const auto table = random_vector<int>(4, -1000, 1000);
  const auto in_d = device.upload(in);
  const auto table_d = device.upload(table);
  for (const int block : {64, 200}) {
    for (const auto& [lo, hi] :
         {std::pair{-5, -1}, {0, 0}, {1, 3199}, {37, 523}, {600, 5000}, {3200, 2147483647}}) {
      for (const unsigned offset : {0U, 0xffffff9cU, 0x7fffffffU}) {
        const unsigned ubound = offset + 150U;  // may wrap, like the index
        SCOPED_TRACE(testing::Message() << "block " << block << ", lo " << lo << ", hi " << hi
                                        << ", offset " << offset);
        auto out = poisoned<int>(n);
        k.launch(LaunchConfig::for_elements(n, block), in_d, table_d, out, lo, hi, offset, ubound);
        const auto o = out.download();
        for (int i = 0; i < n; ++i) {
          int v = 0;
          if (i < hi) {
            v += table[0] * in[i] + table[1];
          }
          if (i >= lo) {
            v -= table[2];
          }
          if (static_cast<unsigned>(i) + offset < ubound) {
            v += table[3] * 2;
          }
          ASSERT_EQ(o[i], v) << "i=" << i;
        }
      }
    }
  }
}

template <class T>
void check_saxpy(DeviceTest& t, Device& device, const char* name) {
  auto saxpy =
      Program::from_file(kernel_path("saxpy.cu")).kernel<T, const T*, T*, int>(name, device);
  for (const auto& [n, block] : {std::pair{1, 32}, {1023, 128}, {100000, 256}}) {
    const T a = t.random_vector<T>(1, -4, 4)[0];
    const auto x = t.random_vector<T>(n, -1000, 1000);
    const auto y = t.random_vector<T>(n, -1000, 1000);
    auto dx = device.upload(x);
    auto dy = device.upload(y);
    saxpy.launch(LaunchConfig::for_elements(n, block), a, dx, dy, n);
    const auto out = dy.download();
    for (int i = 0; i < n; ++i) {
      // Either rounding is right: the multiply-add fused (as GPUs and FMA CPUs do) or not.
      const T fused = std::fma(a, x[i], y[i]);
      const T separate = a * x[i] + y[i];
      ASSERT_TRUE(out[i] == fused || out[i] == separate)
          << name << " n=" << n << " i=" << i << ": " << out[i] << " vs " << fused;
    }
  }
}

TEST_F(Kernels, StaticSharedMemoryIsEachKernelsOwn) {
  // Two kernels of 40 KB of __shared__ each, and one with none: each fits a block's 48 KB alone
  // (summed over the file, none would launch). The shared helper's array goes with both.
  const std::string source = R"(
#define N 10240
__shared__ float scratch[32];
__device__ void note(float* out) { scratch[threadIdx.x % 32] = threadIdx.x; __syncthreads();
  out[N + threadIdx.x] = scratch[(threadIdx.x + 1) % 32]; }
__global__ void big_a(float* out) {
  __shared__ float a[N];
  for (int i = threadIdx.x; i < N; i += blockDim.x) a[i] = i;
  __syncthreads();
  for (int i = threadIdx.x; i < N; i += blockDim.x) out[i] = a[N - 1 - i];
  note(out);
}
__global__ void big_b(float* out) {
  __shared__ float b[N];
  for (int i = threadIdx.x; i < N; i += blockDim.x) b[i] = 2.0f * i;
  __syncthreads();
  for (int i = threadIdx.x; i < N; i += blockDim.x) out[i] = b[N - 1 - i];
  note(out);
}
__global__ void none(float* out) { out[threadIdx.x] = 1.0f; }
)";
  if (device.info().max_shared_bytes < 10240 * sizeof(float) + 128) {
    GTEST_SKIP() << "a block of " << device.info().id()
                 << " holds less than 40 KB of shared memory";
  }
  CompileOptions options;
  options.kernels = {"big_a", "big_b", "none"};
  const Program p = Program::from_source("big_shared.cu", source, options);
  constexpr int kN = 10240;
  constexpr unsigned kThreads = 32;
  for (const float scale : {1.0f, 2.0f}) {
    auto out = poisoned<float>(kN + kThreads);
    p.kernel<float*>(scale == 1.0f ? "big_a" : "big_b", device)
        .launch(LaunchConfig{.grid = {1}, .block = {kThreads}}, out);
    const std::vector<float> got = out.download();
    for (int i = 0; i < kN; ++i) {
      ASSERT_EQ(got[i], scale * static_cast<float>(kN - 1 - i)) << i;
    }
    for (unsigned t = 0; t < kThreads; ++t) {
      ASSERT_EQ(got[kN + t], static_cast<float>((t + 1) % 32)) << t;
    }
  }
  auto ones = poisoned<float>(kThreads);
  p.kernel<float*>("none", device).launch(LaunchConfig{.grid = {4}, .block = {kThreads}}, ones);
  EXPECT_EQ(ones.download(), std::vector<float>(kThreads, 1.0f));
}

TEST_F(Kernels, SaxpyTemplatesMatchHost) {
  KJIT_SEED_TRACE();
  check_saxpy<float>(*this, device, "saxpy<float>");
  check_saxpy<double>(*this, device, "saxpy<double>");
}

TEST_F(Kernels, GridStrideSaxpyCoversEveryElementWhateverTheGrid) {
  // A fixed grid walks any n: one block, a grid smaller than a block's worth of elements, a
  // grid that leaves a tail, more threads than elements. On the CPU the loop runs in step
  // across the threads until the tail, where each thread finishes alone.
  KJIT_SEED_TRACE();
  auto saxpy = Program::from_file(kernel_path("saxpy.cu"))
                   .kernel<float, const float*, float*, int>("saxpy_grid_stride<float>", device);
  struct Shape {
    int n;
    unsigned grid;
    unsigned block;
  };
  for (const Shape& shape : {Shape{1000, 1, 1}, Shape{100000, 1, 256}, Shape{100000, 3, 96},
                             Shape{12345, 8, 256}, Shape{50, 4, 64}, Shape{0, 2, 32}}) {
    const float a = random_vector<float>(1, -4.0f, 4.0f)[0];
    const auto x = random_vector<float>(static_cast<std::size_t>(shape.n), -1000.0f, 1000.0f);
    const auto y = random_vector<float>(static_cast<std::size_t>(shape.n), -1000.0f, 1000.0f);
    auto dy = device.upload(y);
    saxpy.launch(LaunchConfig{.grid = {shape.grid}, .block = {shape.block}}, a, device.upload(x),
                 dy, shape.n);
    const auto out = dy.download();
    for (std::size_t i = 0; i < out.size(); ++i) {
      const float fused = std::fma(a, x[i], y[i]);
      const float separate = a * x[i] + y[i];
      ASSERT_TRUE(out[i] == fused || out[i] == separate)
          << "n=" << shape.n << " grid=" << shape.grid << " block=" << shape.block << " i=" << i
          << ": " << out[i] << " vs " << fused;
    }
  }
}

TEST_F(Kernels, MandelbrotEqualsTheHostImageExactly) {
  auto mandelbrot = Program::from_file(kernel_path("mandelbrot.cu"))
                        .kernel<MandelbrotView, int*>("mandelbrot", device);
  for (const auto& [w, h, bx, by] :
       {std::tuple{333, 217, 16U, 16U}, {64, 64, 8U, 4U}, {97, 5, 32U, 1U}}) {
    const MandelbrotView view{-2.2f, -1.3f, 2.6f / static_cast<float>(h), w, h, 300};
    auto out = poisoned<int>(static_cast<std::size_t>(w) * h);
    const LaunchConfig config{.grid = {(w + bx - 1) / bx, (h + by - 1) / by, 1},
                              .block = {bx, by, 1}};
    mandelbrot.launch(config, view, out);
    const auto image = out.download();
    int escaped = 0;
    for (int py = 0; py < h; ++py) {
      for (int px = 0; px < w; ++px) {
        const int expected = mandelbrot_iterations(view, px, py);
        ASSERT_EQ(image[py * w + px], expected) << w << "x" << h << " pixel " << px << "," << py;
        escaped += expected < view.max_iterations;
      }
    }
    EXPECT_GT(escaped, 0) << "the view must show both inside and outside points";
  }
}

TEST_F(Kernels, IntegerReductionIsExact) {
  KJIT_SEED_TRACE();
  auto reduce = Program::from_file(kernel_path("reduction.cu"))
                    .kernel<const int*, int*, int>("reduce_sum<int>", device);
  for (const auto& [n, grid, block] :
       {std::tuple{1, 1U, 64U}, {1000, 3U, 256U}, {123457, 16U, 1024U}, {65536, 64U, 128U}}) {
    const auto in = random_vector<int>(n, -1000, 1000);
    auto din = device.upload(in);
    auto sum = device.upload(std::vector<int>{0});
    reduce.launch(LaunchConfig{.grid = {grid}, .block = {block}}, din, sum, n);
    long long expected = 0;
    for (int v : in)
      expected += v;
    EXPECT_EQ(sum.download()[0], expected) << "n=" << n << " grid=" << grid << " block=" << block;
  }
}

TEST_F(Kernels, ShuffleReductionIsExact) {
  KJIT_SEED_TRACE();
  if (device.info().backend == BackendKind::hip) {
    GTEST_SKIP() << "ROCm 5's HIP has no _sync warp intrinsics";
  }
  auto reduce = Program::from_file(kernel_path("warp_reduction.cu"))
                    .kernel<const int*, int*, int>("reduce_sum_shfl<int>", device);
  for (const auto& [n, grid, block] :
       {std::tuple{1, 1U, 32U}, {1000, 3U, 96U}, {123457, 16U, 1024U}, {65536, 64U, 256U}}) {
    const auto in = random_vector<int>(n, -1000, 1000);
    auto sum = device.upload(std::vector<int>{0});
    reduce.launch(LaunchConfig{.grid = {grid}, .block = {block}}, device.upload(in), sum, n);
    long long expected = 0;
    for (int v : in)
      expected += v;
    EXPECT_EQ(sum.download()[0], expected) << "n=" << n << " grid=" << grid << " block=" << block;
  }
}

TEST_F(Kernels, RowSoftmaxMatchesHost) {
  KJIT_SEED_TRACE();
  if (device.info().backend == BackendKind::hip) {
    GTEST_SKIP() << "ROCm 5's HIP has no _sync warp intrinsics";
  }
  auto softmax = Program::from_file(kernel_path("softmax.cu"))
                     .kernel<const float*, float*, int, int>("softmax_rows", device);
  for (const auto& [rows, cols, block] :
       {std::tuple{1, 1, 32U}, {3, 1000, 96U}, {17, 4099, 256U}, {5, 70, 1024U}}) {
    // Rows of one sign and scale and others that overflow expf without the maximum taken off.
    std::vector<float> in = random_vector<float>(static_cast<std::size_t>(rows) * cols, -8.f, 8.f);
    for (int c = 0; c < cols; c += 7) {
      in[c] += 100.f;
    }
    // Poisoned, with a row more than the kernel is given: the block past the last row must
    // write nothing, there or anywhere.
    auto out = device.upload(std::vector<float>(in.size() + cols, std::nanf("")));
    softmax.launch(LaunchConfig{.grid = {static_cast<unsigned>(rows) + 1}, .block = {block}},
                   device.upload(in), out, rows, cols);
    const std::vector<float> got = out.download();
    for (int c = 0; c < cols; ++c) {
      ASSERT_TRUE(std::isnan(got[in.size() + c])) << "column " << c << " past the last row";
    }
    for (int r = 0; r < rows; ++r) {
      const float* x = in.data() + static_cast<std::size_t>(r) * cols;
      const double m = *std::max_element(x, x + cols);
      double sum = 0;
      for (int c = 0; c < cols; ++c) {
        sum += std::exp(static_cast<double>(x[c]) - m);
      }
      for (int c = 0; c < cols; ++c) {
        const double want = std::exp(static_cast<double>(x[c]) - m) / sum;
        const float have = got[static_cast<std::size_t>(r) * cols + c];
        ASSERT_NEAR(have, want, 2e-5 * want + 1e-12) << "row " << r << " of " << rows << ", column "
                                                     << c << " of " << cols << ", block " << block;
      }
    }
  }
}

TEST_F(Kernels, FloatingReductionsAreAccurate) {
  KJIT_SEED_TRACE();
  const Program program = Program::from_file(
      kernel_path("reduction.cu"), {.kernels = {"reduce_sum<float>", "reduce_sum<double>"}});
  auto reduce_f = program.kernel<const float*, float*, int>("reduce_sum<float>", device);
  auto reduce_d = program.kernel<const double*, double*, int>("reduce_sum<double>", device);
  const int n = 300001;
  const auto f = random_vector<float>(n, 0.0f, 1.0f);
  const auto d = random_vector<double>(n, 0.0, 1.0);
  auto sf = device.upload(std::vector<float>{0.0f});
  auto sd = device.upload(std::vector<double>{0.0});
  reduce_f.launch(LaunchConfig{.grid = {40}, .block = {256}}, device.upload(f), sf, n);
  reduce_d.launch(LaunchConfig{.grid = {40}, .block = {256}}, device.upload(d), sd, n);
  double ef = 0;
  double ed = 0;
  for (float v : f)
    ef += v;
  for (double v : d)
    ed += v;
  EXPECT_NEAR(sf.download()[0], ef, ef * 1e-5);
  EXPECT_NEAR(sd.download()[0], ed, ed * 1e-12);
}

TEST_F(Kernels, HistogramCountsEveryByte) {
  KJIT_SEED_TRACE();
  auto histogram = Program::from_file(kernel_path("reduction.cu"))
                       .kernel<const unsigned char*, int, unsigned*>("histogram256", device);
  for (const auto& [n, grid, block] :
       {std::tuple{1, 1U, 32U}, {100003, 7U, 256U}, {1 << 20, 32U, 1024U}}) {
    const auto data = random_vector<unsigned char>(n, 0, 255);
    auto bins = device.upload(std::vector<unsigned>(256, 0));
    histogram.launch(LaunchConfig{.grid = {grid}, .block = {block}}, device.upload(data), n, bins);
    std::vector<unsigned> expected(256, 0);
    for (unsigned char v : data)
      ++expected[v];
    EXPECT_EQ(bins.download(), expected) << "n=" << n;
  }
}

TEST_F(Kernels, TiledMatmulMatchesHost) {
  KJIT_SEED_TRACE();
  auto matmul =
      Program::from_file(kernel_path("matmul.cu"))
          .kernel<const float*, const float*, float*, int, int, int>("matmul_tiled", device);
  for (const auto& [m, n, k, tile] :
       {std::tuple{1, 1, 1, 8U}, {67, 45, 93, 16U}, {128, 128, 128, 32U}, {33, 70, 8, 8U}}) {
    const auto a = random_vector<float>(static_cast<std::size_t>(m) * k, -1.0f, 1.0f);
    const auto b = random_vector<float>(static_cast<std::size_t>(k) * n, -1.0f, 1.0f);
    auto c = poisoned<float>(static_cast<std::size_t>(m) * n);
    const LaunchConfig config{.grid = {(n + tile - 1) / tile, (m + tile - 1) / tile, 1},
                              .block = {tile, tile, 1},
                              .shared_bytes = 2 * tile * tile * sizeof(float)};
    matmul.launch(config, device.upload(a), device.upload(b), c, m, n, k);
    const auto out = c.download();
    for (int r = 0; r < m; ++r) {
      for (int col = 0; col < n; ++col) {
        double expected = 0;
        for (int i = 0; i < k; ++i)
          expected += double(a[r * k + i]) * b[i * n + col];
        ASSERT_NEAR(out[r * n + col], expected, 1e-4 * (1 + k))
            << m << "x" << n << "x" << k << " at " << r << "," << col;
      }
    }
  }
}

TEST_F(Kernels, TransposeIsExact) {
  KJIT_SEED_TRACE();
  auto transpose = Program::from_file(kernel_path("transpose.cu"))
                       .kernel<const float*, float*, int, int>("transpose", device);
  for (const auto& [rows, cols] : {std::pair{1, 1}, {33, 65}, {1024, 7}, {257, 257}}) {
    const auto in = random_vector<float>(static_cast<std::size_t>(rows) * cols, -1.0f, 1.0f);
    auto out = poisoned<float>(in.size());
    const LaunchConfig config{.grid = {(cols + 31U) / 32U, (rows + 31U) / 32U, 1},
                              .block = {32, 8, 1}};
    transpose.launch(config, device.upload(in), out, rows, cols);
    const auto t = out.download();
    for (int r = 0; r < rows; ++r) {
      for (int c = 0; c < cols; ++c) {
        ASSERT_EQ(t[c * rows + r], in[r * cols + c])
            << rows << "x" << cols << " at " << r << "," << c;
      }
    }
  }
}

TEST_F(Kernels, JacobiStepMatchesHost) {
  KJIT_SEED_TRACE();
  auto jacobi = Program::from_file(kernel_path("stencil2d.cu"))
                    .kernel<const float*, float*, int, int>("jacobi2d", device);
  for (const auto& [w, h, bx, by] :
       {std::tuple{3, 3, 1U, 1U}, {100, 37, 16U, 16U}, {512, 300, 32U, 8U}}) {
    auto grid_a = device.upload(random_vector<float>(static_cast<std::size_t>(w) * h, 0.0f, 1.0f));
    auto grid_b = poisoned<float>(static_cast<std::size_t>(w) * h);
    std::vector<float> host = grid_a.download();
    const LaunchConfig config{.grid = {(w + bx - 1) / bx, (h + by - 1) / by, 1},
                              .block = {bx, by, 1}};
    for (int step = 0; step < 5; ++step) {  // ping-pong, five steps
      jacobi.launch(config, grid_a, grid_b, w, h);
      std::vector<float> next(host.size());
      for (int y = 0; y < h; ++y) {
        for (int x = 0; x < w; ++x) {
          const int i = y * w + x;
          const bool edge = x == 0 || y == 0 || x == w - 1 || y == h - 1;
          next[i] =
              edge ? host[i] : 0.25f * (host[i - 1] + host[i + 1] + host[i - w] + host[i + w]);
        }
      }
      host = next;
      std::swap(grid_a, grid_b);
    }
    EXPECT_EQ(grid_a.download(), host) << w << "x" << h;
  }
}

template <class T>
struct Body {
  T x, y, z, mass;
};

TEST_F(Kernels, NbodyStepMatchesHost) {
  KJIT_SEED_TRACE();
  const Program p = Program::from_file(kernel_path("nbody.cu"));
  const auto check = [&]<class T>(T tolerance, const std::string& type) {
    constexpr int n = 512;
    constexpr unsigned block = 128;
    const T dt = T(0.01);
    const T eps2 = T(0.05);
    std::vector<Body<T>> bodies(n);
    const auto r = random_vector<T>(4 * n, T(-1), T(1));
    for (int i = 0; i < n; ++i) {
      bodies[i] = {r[4 * i], r[4 * i + 1], r[4 * i + 2], std::abs(r[4 * i + 3]) + T(0.1)};
    }
    const auto v0 = random_vector<T>(3 * n, T(-0.1), T(0.1));
    auto velocity = device.upload(v0);
    auto next = device.alloc<Body<T>>(n);
    p.kernel<const Body<T>*, T*, Body<T>*, int, T, T>("nbody_step<" + type + ">", device)
        .launch(
            LaunchConfig{
                .grid = {n / block}, .block = {block}, .shared_bytes = block * sizeof(Body<T>)},
            device.upload(bodies), velocity, next, n, dt, eps2);
    const auto v = velocity.download();
    const auto out = next.download();
    for (int i = 0; i < n; ++i) {
      double a[3] = {0, 0, 0};
      for (int j = 0; j < n; ++j) {
        const double d[3] = {double(bodies[j].x) - bodies[i].x, double(bodies[j].y) - bodies[i].y,
                             double(bodies[j].z) - bodies[i].z};
        const double inv = 1 / std::sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2] + eps2);
        for (int k = 0; k < 3; ++k) {
          a[k] += d[k] * bodies[j].mass * inv * inv * inv;
        }
      }
      const double p0[3] = {bodies[i].x, bodies[i].y, bodies[i].z};
      const T* got[3] = {&out[i].x, &out[i].y, &out[i].z};
      for (int k = 0; k < 3; ++k) {
        const double vk = v0[3 * i + k] + a[k] * dt;
        ASSERT_NEAR(v[3 * i + k], vk, tolerance) << type << " body " << i;
        ASSERT_NEAR(*got[k], p0[k] + vk * dt, tolerance) << type << " body " << i;
      }
      ASSERT_EQ(out[i].mass, bodies[i].mass);
    }
  };
  check(1e-3f, std::string("float"));
  check(1e-10, std::string("double"));
}

TEST_F(Kernels, BitonicSortSortsLikeStdSort) {
  KJIT_SEED_TRACE();
  auto step = Program::from_file(kernel_path("bitonic_sort.cu"))
                  .kernel<unsigned*, int, int, int>("bitonic_step", device);
  for (const int n : {1, 2, 1024, 1 << 16}) {
    auto keys = random_vector<unsigned>(n, 0, 0xffffffffU);
    auto dkeys = device.upload(keys);
    const LaunchConfig config = LaunchConfig::for_elements(n, 256);
    for (int k = 2; k <= n; k *= 2) {
      for (int j = k / 2; j > 0; j /= 2) {
        step.launch(config, dkeys, n, j, k);
      }
    }
    std::sort(keys.begin(), keys.end());
    EXPECT_EQ(dkeys.download(), keys) << "n=" << n;
  }
}

}  // namespace
}  // namespace kjit::test
