// The same kernels, on the same random inputs, on the CPU backend and on a GPU backend in one
// process: integer kernels and the Mandelbrot image bit for bit, floating-point kernels within
// the tolerance each case states. Skipped, saying why, when either device is absent.
#include "test_support.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

#include "../../kernels/mandelbrot.h"
#include "../kernels/atomics.h"

namespace kjit::test {
namespace {

class CrossBackend : public ::testing::Test {
 public:
  void SetUp() override {
    for (const char* spec : {"cpu", "cuda"}) {
      try {
        devices.push_back(Device::select(spec));
      } catch (const DeviceError& e) {
        GTEST_SKIP() << "needs both a CPU and a CUDA device: " << e.what();
      }
    }
    rng.seed(test_seed());
  }

  template <class T>
  std::vector<T> random_vector(std::size_t n, T lo, T hi) {
    return kjit::test::random_vector<T>(rng, n, lo, hi);
  }

  /// Runs `body(device)` on each device and returns what each produced.
  template <class F>
  auto on_each(F&& body) {
    std::vector<decltype(body(devices[0]))> out;
    for (Device& d : devices) {
      out.push_back(body(d));
    }
    return out;
  }

  std::vector<Device> devices;
  std::mt19937_64 rng;
};

TEST_F(CrossBackend, IntegerKernelsAreBitExact) {
  KJIT_SEED_TRACE();
  const int n = 1 << 20;
  const auto ints = random_vector<int>(n, -100000, 100000);
  const auto bytes = random_vector<unsigned char>(n, 0, 255);
  auto keys = random_vector<unsigned>(1 << 16, 0, 0xffffffffU);
  const auto results = on_each([&](Device& d) {
    std::vector<std::vector<unsigned>> r;
    const Program reduction = Program::from_file(kernel_path("reduction.cu"),
                                                 {.kernels = {"reduce_sum<int>", "histogram256"}});
    auto sum = d.upload(std::vector<int>{0});
    reduction.kernel<const int*, int*, int>("reduce_sum<int>", d)
        .launch(LaunchConfig{.grid = {64}, .block = {256}}, d.upload(ints), sum, n);
    r.push_back({static_cast<unsigned>(sum.download()[0])});
    auto bins = d.upload(std::vector<unsigned>(256, 0));
    reduction.kernel<const unsigned char*, int, unsigned*>("histogram256", d)
        .launch(LaunchConfig{.grid = {32}, .block = {256}}, d.upload(bytes), n, bins);
    r.push_back(bins.download());
    auto k = d.upload(keys);
    auto step = Program::from_file(kernel_path("bitonic_sort.cu"))
                    .kernel<unsigned*, int, int, int>("bitonic_step", d);
    const int m = static_cast<int>(keys.size());
    for (int kk = 2; kk <= m; kk *= 2) {
      for (int j = kk / 2; j > 0; j /= 2) {
        step.launch(LaunchConfig::for_elements(m), k, m, j, kk);
      }
    }
    r.push_back(k.download());
    AtomicResults zero{};
    zero.min_i = 1 << 30;
    zero.and_u = ~0U;
    auto atomics = d.upload(std::vector<AtomicResults>{zero});
    Program::from_file(test_kernel_path("atomics.cu"))
        .kernel<AtomicResults*, int>("all_atomics", d)
        .launch(LaunchConfig{.grid = {100}, .block = {128}}, atomics, 12800);
    const AtomicResults a = atomics.download()[0];
    r.push_back({static_cast<unsigned>(a.add_i), a.add_u, static_cast<unsigned>(a.min_i), a.max_u,
                 a.and_u, a.or_u, a.xor_u, static_cast<unsigned>(a.cas_counter), a.inc, a.dec});
    return r;
  });
  ASSERT_EQ(results.size(), 2U);
  EXPECT_EQ(results[0][0], results[1][0]) << "reduce_sum<int>";
  EXPECT_EQ(results[0][1], results[1][1]) << "histogram256";
  EXPECT_EQ(results[0][2], results[1][2]) << "bitonic sort";
  EXPECT_EQ(results[0][3], results[1][3]) << "atomics";
}

TEST_F(CrossBackend, MandelbrotImagesAreIdentical) {
  const MandelbrotView view{-2.2f, -1.3f, 2.6f / 600.0f, 1000, 600, 1000};
  const auto images = on_each([&](Device& d) {
    auto out = d.alloc<int>(std::size_t(view.width) * view.height);
    Program::from_file(kernel_path("mandelbrot.cu"))
        .kernel<MandelbrotView, int*>("mandelbrot", d)
        .launch(LaunchConfig{.grid = {(view.width + 15U) / 16U, (view.height + 15U) / 16U, 1},
                             .block = {16, 16, 1}},
                view, out);
    return out.download();
  });
  EXPECT_TRUE(images[0] == images[1]) << "the images differ";
}

TEST_F(CrossBackend, ExactFloatKernelsAgreeBitForBit) {
  // One rounding per output (vadd, transpose, a Jacobi step of adds then one multiply): every
  // IEEE-754 implementation gives the same bits.
  KJIT_SEED_TRACE();
  const int n = 1 << 20;
  const auto a = random_vector<float>(n, -100.0f, 100.0f);
  const auto b = random_vector<float>(n, -100.0f, 100.0f);
  const auto results = on_each([&](Device& d) {
    std::vector<std::vector<float>> r;
    auto c = d.alloc<float>(n);
    Program::from_file(kernel_path("vadd.cu"))
        .kernel<const float*, const float*, float*, int>("vadd", d)
        .launch(LaunchConfig::for_elements(n), d.upload(a), d.upload(b), c, n);
    r.push_back(c.download());
    auto t = d.alloc<float>(n);
    Program::from_file(kernel_path("transpose.cu"))
        .kernel<const float*, float*, int, int>("transpose", d)
        .launch(LaunchConfig{.grid = {32, 32, 1}, .block = {32, 8, 1}}, d.upload(a), t, 1024, 1024);
    r.push_back(t.download());
    auto j = d.alloc<float>(n);
    Program::from_file(kernel_path("stencil2d.cu"))
        .kernel<const float*, float*, int, int>("jacobi2d", d)
        .launch(LaunchConfig{.grid = {64, 64, 1}, .block = {16, 16, 1}}, d.upload(a), j, 1024,
                1024);
    r.push_back(j.download());
    return r;
  });
  EXPECT_TRUE(results[0][0] == results[1][0]) << "vadd";
  EXPECT_TRUE(results[0][1] == results[1][1]) << "transpose";
  EXPECT_TRUE(results[0][2] == results[1][2]) << "jacobi2d";
}

TEST_F(CrossBackend, RoundedFloatKernelsAgreeWithinTolerance) {
  // Kernels whose result depends on fusing multiply-adds or on the order of a sum: stated
  // tolerances, relative to the magnitude of the values involved.
  KJIT_SEED_TRACE();
  const int n = 1 << 20;
  const auto x = random_vector<float>(n, -1.0f, 1.0f);
  const auto y = random_vector<float>(n, -1.0f, 1.0f);
  const int m = 96;
  const int k = 80;
  const auto ma = random_vector<float>(std::size_t(m) * k, -1.0f, 1.0f);
  const auto mb = random_vector<float>(std::size_t(k) * m, -1.0f, 1.0f);
  const auto results = on_each([&](Device& d) {
    std::vector<std::vector<float>> r;
    auto dy = d.upload(y);
    Program::from_file(kernel_path("saxpy.cu"))
        .kernel<float, const float*, float*, int>("saxpy<float>", d)
        .launch(LaunchConfig::for_elements(n), 1.75f, d.upload(x), dy, n);
    r.push_back(dy.download());
    auto c = d.alloc<float>(std::size_t(m) * m);
    Program::from_file(kernel_path("matmul.cu"))
        .kernel<const float*, const float*, float*, int, int, int>("matmul_tiled", d)
        .launch(
            LaunchConfig{.grid = {6, 6, 1}, .block = {16, 16, 1}, .shared_bytes = 2 * 16 * 16 * 4},
            d.upload(ma), d.upload(mb), c, m, m, k);
    r.push_back(c.download());
    auto sum = d.upload(std::vector<float>{0.0f});
    Program::from_file(kernel_path("reduction.cu"))
        .kernel<const float*, float*, int>("reduce_sum<float>", d)
        .launch(LaunchConfig{.grid = {64}, .block = {256}}, d.upload(x), sum, n);
    r.push_back(sum.download());
    return r;
  });
  for (int i = 0; i < n; ++i) {  // one multiply-add: fused or not, at most one rounding apart
    ASSERT_NEAR(results[0][0][i], results[1][0][i], 2e-7f * (1.0f + std::fabs(results[1][0][i])));
  }
  for (int i = 0; i < m * m; ++i) {  // 80 products summed in the same order: a few roundings
    ASSERT_NEAR(results[0][1][i], results[1][1][i], 1e-5f * k) << i;
  }
  // 2^20 terms in [-1, 1] summed in different orders: |error| <= n * eps * sum|x| loosely.
  EXPECT_NEAR(results[0][2][0], results[1][2][0], 0.05f);
}

// One source (kernels/bitcode/examples.cu), compiled ahead of time by clang to host bitcode for
// the CPU and to NVPTX bitcode for the GPU: the kernels agree bit for bit.
TEST_F(CrossBackend, BitcodeKernelsAgreeBitForBit) {
  KJIT_SEED_TRACE();
  const int n = 1 << 20;
  const auto a = random_vector<float>(n, -100.0f, 100.0f);
  const auto b = random_vector<float>(n, -100.0f, 100.0f);
  const auto ints = random_vector<int>(n, -100000, 100000);
  const auto bytes = random_vector<unsigned char>(n, 0, 255);
  const auto results = on_each([&](Device& d) {
    const bool cpu = d.info().backend == BackendKind::cpu;
    const Program p = Program::from_bitcode_file(
        kernel_path(cpu ? "bitcode/examples.host.bc" : "bitcode/examples.sm_75.bc"));
    std::vector<std::vector<unsigned>> r;
    auto c = d.upload(std::vector<float>(n, std::nanf("")));
    p.kernel<const float*, const float*, float*, int>("vadd", d).launch(
        LaunchConfig::for_elements(n, 256), d.upload(a), d.upload(b), c, n);
    const auto sums = c.download();
    std::vector<unsigned> bits(sums.size());
    std::memcpy(bits.data(), sums.data(), sums.size() * sizeof(float));
    r.push_back(std::move(bits));
    auto total = d.upload(std::vector<int>{0});
    p.kernel<const int*, int*, int>("reduce_sum<int>", d)
        .launch(LaunchConfig{.grid = {64}, .block = {256}}, d.upload(ints), total, n);
    r.push_back({static_cast<unsigned>(total.download()[0])});
    auto bins = d.upload(std::vector<unsigned>(256, 0));
    p.kernel<const unsigned char*, int, unsigned*>("histogram256", d)
        .launch(LaunchConfig{.grid = {32}, .block = {256}}, d.upload(bytes), n, bins);
    r.push_back(bins.download());
    return r;
  });
  ASSERT_EQ(results[0].size(), results[1].size());
  for (std::size_t i = 0; i < results[0].size(); ++i) {
    EXPECT_EQ(results[0][i], results[1][i]) << "result " << i;
  }
}

}  // namespace
}  // namespace kjit::test
