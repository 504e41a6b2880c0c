// Kernel::specialize and specialize_block: variants with arguments fixed at compile time give the
// results of the plain kernel on random inputs; fixed values arrive bit for bit; a fixed block is
// enforced; variants of variants, templates resolved by type, __constant__ writes, the cap on
// variants and its eviction, and the errors.
#include "test_support.hpp"

#include <bit>
#include <cmath>

namespace kjit::test {
namespace {

enum Mode : short { kMinus = -3, kPlus = 5 };

using Saxpy = Kernel<int, float, int, const float*, float*>;

class Specialize : public DeviceTest {
 public:
  static Program program(CompileOptions options = {}) {
    return Program::from_file(test_kernel_path("specialize.cu"), std::move(options));
  }

  /// y after the plain saxpy and after `launch` (given n, a, stride, x, y) on the same inputs.
  template <class Launch>
  void expect_same_as_plain(const Saxpy& plain, int n, float a, int stride, Launch&& launch) {
    const std::vector<float> x = random_vector<float>(std::size_t(n) * stride, -4.0f, 4.0f);
    const std::vector<float> y = random_vector<float>(x.size(), -4.0f, 4.0f);
    const LaunchConfig config{.grid = {7}, .block = {128}};
    auto dx = device.upload(x);
    auto want = device.upload(y);
    plain.launch(config, n, a, stride, dx, want);
    auto got = device.upload(y);
    launch(config, dx, got);
    const std::vector<float> w = want.download();
    const std::vector<float> g = got.download();
    for (std::size_t i = 0; i < x.size(); ++i) {
      const float host = i % stride == 0 && i / stride < std::size_t(n) ? a * x[i] + y[i] : y[i];
      ASSERT_NEAR(w[i], host, 1e-5f * (1.0f + std::abs(host))) << "element " << i;
      ASSERT_EQ(std::bit_cast<std::uint32_t>(g[i]), std::bit_cast<std::uint32_t>(w[i]))
          << "element " << i << ": variant " << g[i] << ", plain " << w[i];
    }
  }
};

TEST_F(Specialize, FixedScalarsGiveThePlainResults) {
  const Program p = program();
  const auto plain = p.kernel<int, float, int, const float*, float*>("saxpy", device);
  const int n = 1000 + static_cast<int>(rng() % 3000);
  const float a = random_vector<float>(1, -3.0f, 3.0f)[0];
  const int stride = 1 + static_cast<int>(rng() % 3);
  const Kernel<const float*, float*> fixed = plain.specialize<0, 1, 2>(n, a, stride);
  EXPECT_EQ(fixed.name(), "saxpy");
  expect_same_as_plain(plain, n, a, stride,
                       [&](const LaunchConfig& c, auto& x, auto& y) { fixed.launch(c, x, y); });
  // Positions in any order, and one fixed while the others stay parameters.
  const Kernel<int, const float*, float*> some = plain.specialize<1, 0>(a, n);
  expect_same_as_plain(plain, n, a, stride, [&](const LaunchConfig& c, auto& x, auto& y) {
    some.launch(c, stride, x, y);
  });
}

TEST_F(Specialize, AVariantOfAVariantFixesBoth) {
  const Program p = program();
  const auto plain = p.kernel<int, float, int, const float*, float*>("saxpy", device);
  const int n = 500 + static_cast<int>(rng() % 500);
  const float a = random_vector<float>(1, -3.0f, 3.0f)[0];
  // After fixing n and the stride (positions 0 and 2), a is position 0 of what remains.
  const Kernel<const float*, float*> all = plain.specialize<0, 2>(n, 2).specialize<0>(a);
  expect_same_as_plain(plain, n, a, 2,
                       [&](const LaunchConfig& c, auto& x, auto& y) { all.launch(c, x, y); });
  const Kernel<int, const float*, float*> both = plain.specialize<0>(n).specialize<0>(a);
  expect_same_as_plain(plain, n, a, 1,
                       [&](const LaunchConfig& c, auto& x, auto& y) { both.launch(c, 1, x, y); });
}

TEST_F(Specialize, ATemplateAskedForByItsPlainName) {
  const Program p = program();
  const auto plain = p.kernel<double, const double*, double*, int>("scale_add", device);
  const int n = 777;
  const double factor = random_vector<double>(1, -2.0, 2.0)[0];
  const auto fixed = plain.specialize<0, 3>(factor, n);
  const std::vector<double> x = random_vector<double>(n, -1.0, 1.0);
  auto dx = device.upload(x);
  auto want = poisoned<double>(n);
  auto got = poisoned<double>(n);
  const LaunchConfig config = LaunchConfig::for_elements(n, 64);
  plain.launch(config, factor, dx, want, n);
  fixed.launch(config, dx, got);
  const std::vector<double> w = want.download();
  const std::vector<double> g = got.download();
  for (int i = 0; i < n; ++i) {
    ASSERT_NEAR(w[i], factor * x[i] + i % 7, 1e-12) << "element " << i;
    ASSERT_EQ(g[i], w[i]) << "element " << i;
  }
}

TEST_F(Specialize, AFixedBlockMakesBlockDimAConstant) {
  const Program p = program();
  const auto plain = p.kernel<const long long*, long long*, int>("block_sums", device);
  const float weights[4] = {1.0f, -2.0f, 3.0f, 5.0f};
  p.symbol<float[4]>("c_weights", device).write(weights);
  const int n = 5000 + static_cast<int>(rng() % 5000);
  const std::vector<long long> x = random_vector<long long>(n, -1000, 1000);
  auto dx = device.upload(x);
  for (const std::uint32_t threads : {32U, 128U, 256U}) {
    SCOPED_TRACE(threads);
    const LaunchConfig config{.grid = {9}, .block = {threads}};
    auto want = poisoned<long long>(9);
    plain.launch(config, dx, want, n);
    const auto fixed = plain.specialize_block({threads}).specialize<2>(n);
    auto got = poisoned<long long>(9);
    fixed.launch(config, dx, got);
    const std::vector<long long> w = want.download();
    long long total = 0;
    for (int i = 0; i < n; ++i) {
      total += x[i] * static_cast<long long>(weights[i % 4]);
    }
    long long sum = 0;
    for (const long long s : w) {
      sum += s;
    }
    EXPECT_EQ(sum, total);
    EXPECT_EQ(got.download(), w);
    // Another block is refused, naming the variant.
    const std::string error = launch_error_of(
        [&] { fixed.launch(LaunchConfig{.grid = {9}, .block = {threads / 2}}, dx, got); });
    EXPECT_TRUE(contains(
        error, "cannot be launched with blocks of (" + std::to_string(threads / 2) + ", 1, 1)"))
        << error;
    EXPECT_TRUE(contains(error, "specialised: parameter 2 = " + std::to_string(n) + ", block (" +
                                    std::to_string(threads) + ", 1, 1)"))
        << error;
  }
}

TEST_F(Specialize, ConstantWritesReachVariantsBeforeAndAfter) {
  const Program p = program();
  const auto plain = p.kernel<const long long*, long long*, int>("block_sums", device);
  const auto weights = p.symbol<float[4]>("c_weights", device);
  const float before[4] = {2.0f, 2.0f, 2.0f, 2.0f};
  weights.write(before);
  const int n = 1024;
  const auto fixed = plain.specialize<2>(n);
  const std::vector<long long> x(n, 1);
  auto dx = device.upload(x);
  auto sums = poisoned<long long>(4);
  const LaunchConfig config{.grid = {4}, .block = {256}};
  fixed.launch(config, dx, sums);
  EXPECT_EQ(sums.download(), std::vector<long long>(4, 2LL * 256));  // written before it existed
  const float after[4] = {1.0f, 0.0f, 3.0f, 0.0f};
  weights.write(after);
  fixed.launch(config, dx, sums);
  EXPECT_EQ(sums.download(), std::vector<long long>(4, 256));  // written after
}

TEST_F(Specialize, FixedValuesArriveBitForBit) {
  const Program p = program();
  const auto echo =
      p.kernel<bool, signed char, unsigned short, int, unsigned int, long long, unsigned long long,
               float, double, Mode, unsigned long long*>("echo", device);
  struct Case {
    bool b;
    signed char c;
    unsigned short us;
    int i;
    unsigned u;
    long long ll;
    unsigned long long ull;
    float f;
    double d;
    Mode m;
  };
  const float nan_payload = std::bit_cast<float>(0x7fc01234U);
  const std::vector<Case> cases = {
      {true, -128, 65535, std::numeric_limits<int>::min(), 4294967295U,
       std::numeric_limits<long long>::min(), std::numeric_limits<unsigned long long>::max(), -0.0f,
       std::numeric_limits<double>::denorm_min(), kMinus},
      {false, 127, 0, std::numeric_limits<int>::max(), 0, std::numeric_limits<long long>::max(), 0,
       std::numeric_limits<float>::infinity(), -std::numeric_limits<double>::infinity(), kPlus},
      {true, 0, 1, -1, 1, -1, 1, nan_payload, 0.1, kPlus},
      {false, -1, 2, static_cast<int>(rng()), static_cast<unsigned>(rng()),
       static_cast<long long>(rng()), rng(), random_vector<float>(1, -1e30f, 1e30f)[0],
       random_vector<double>(1, -1e300, 1e300)[0], kMinus},
  };
  for (const Case& k : cases) {
    auto plain_out = poisoned<unsigned long long>(10);
    echo.launch(LaunchConfig{}, k.b, k.c, k.us, k.i, k.u, k.ll, k.ull, k.f, k.d, k.m, plain_out);
    auto fixed_out = poisoned<unsigned long long>(10);
    echo.specialize<0, 1, 2, 3, 4, 5, 6, 7, 8, 9>(k.b, k.c, k.us, k.i, k.u, k.ll, k.ull, k.f, k.d,
                                                  k.m)
        .launch(LaunchConfig{}, fixed_out);
    const std::vector<unsigned long long> want = plain_out.download();
    EXPECT_EQ(want[7], std::bit_cast<std::uint32_t>(k.f));
    EXPECT_EQ(want[8], std::bit_cast<std::uint64_t>(k.d));
    EXPECT_EQ(static_cast<long long>(want[5]), k.ll);
    EXPECT_EQ(fixed_out.download(), want);
  }
}

TEST_F(Specialize, TheCapForgetsTheLeastRecentlyAskedFor) {
  CompileOptions options;
  options.max_variants = 2;
  const Program p = program(options);
  const auto plain = p.kernel<int, float, int, const float*, float*>("saxpy", device);
  testing::internal::CaptureStderr();
  const auto v1 = plain.specialize<0>(100);
  const auto v2 = plain.specialize<0>(200);
  const auto v1_again = plain.specialize<0>(100);  // from the table: v2 is now the oldest
  const std::string quiet = testing::internal::GetCapturedStderr();
  EXPECT_FALSE(contains(quiet, "max_variants")) << quiet;
  testing::internal::CaptureStderr();
  const auto v3 = plain.specialize<0>(300);  // forgets v2
  const std::string evicted = testing::internal::GetCapturedStderr();
  EXPECT_TRUE(contains(evicted, "more than 2 specialised variants")) << evicted;
  EXPECT_TRUE(contains(evicted, "'saxpy'")) << evicted;
  // Every handle still runs its own values, the forgotten one included.
  for (const auto& [kernel, n] :
       {std::pair{v1, 100}, std::pair{v2, 200}, std::pair{v3, 300}, std::pair{v1_again, 100}}) {
    expect_same_as_plain(plain, n, 1.5f, 1, [&](const LaunchConfig& c, auto& x, auto& y) {
      kernel.launch(c, 1.5f, 1, x, y);
    });
  }
  // Asked for again, the forgotten variant comes back.
  const auto v2_again = plain.specialize<0>(200);
  expect_same_as_plain(plain, 200, -0.5f, 1, [&](const LaunchConfig& c, auto& x, auto& y) {
    v2_again.launch(c, -0.5f, 1, x, y);
  });
}

TEST_F(Specialize, BadBlocksAndCapsAreRefused) {
  const Program p = program();
  const auto plain = p.kernel<const long long*, long long*, int>("block_sums", device);
  const auto fixed = plain.specialize_block({64});
  EXPECT_TRUE(
      contains(expect_throw<UsageError>([&] { (void)fixed.specialize_block({128}); }).what(),
               "specialised for blocks of (64, 1, 1) already"));
  (void)fixed.specialize_block({64});  // the same block again is no change
  EXPECT_TRUE(contains(expect_throw<UsageError>([&] { (void)plain.specialize_block({0}); }).what(),
                       "specialize_block: block (0, 1, 1) has a zero dimension"));
  const DeviceInfo& info = device.info();
  EXPECT_TRUE(contains(expect_throw<UsageError>([&] {
                         (void)plain.specialize_block({info.max_threads_per_block + 1});
                       }).what(),
                       "exceeds the device's limit of"));
  CompileOptions none;
  none.max_variants = 0;
  EXPECT_TRUE(
      contains(expect_throw<UsageError>([&] { (void)program(none); }).what(), "max_variants is 0"));
  EXPECT_TRUE(
      contains(expect_throw<UsageError>([] { (void)Kernel<int>().specialize<0>(1); }).what(),
               "empty Kernel"));
}

TEST_F(Specialize, AVariantKeepsTheKernelsOwnLaunchBounds) {
  const Program p = program();
  // block_sums is __launch_bounds__(256): so are its variants that fix no block.
  const auto plain = p.kernel<const long long*, long long*, int>("block_sums", device);
  const auto fixed = plain.specialize<2>(1000);
  auto x = device.upload(std::vector<long long>(1000, 1));
  auto sums = poisoned<long long>(4);
  const LaunchConfig wide{.grid = {4}, .block = {512}};
  for (const std::string& error : {launch_error_of([&] { plain.launch(wide, x, sums, 1000); }),
                                   launch_error_of([&] { fixed.launch(wide, x, sums); })}) {
    EXPECT_TRUE(
        contains(error, "blocks of 512 threads exceed the 256 this kernel was compiled for"))
        << error;
  }
  EXPECT_TRUE(
      contains(expect_throw<UsageError>([&] { (void)plain.specialize_block({512}); }).what(),
               "specialize_block: blocks of 512 threads exceed the 256"));
  // Within its bounds the variant runs as the kernel does.
  const float weights[4] = {1.0f, 1.0f, 1.0f, 1.0f};
  p.symbol<float[4]>("c_weights", device).write(weights);
  fixed.launch(LaunchConfig{.grid = {4}, .block = {256}}, x, sums);
  const std::vector<long long> got = sums.download();
  EXPECT_EQ(got[0] + got[1] + got[2] + got[3], 1000);
}

TEST_F(Specialize, AVariantKeepsTheBoundsItsKernelDeclaresInTheBranchAHeaderPicks) {
  // As LULESH's kernels: their bounds depend on DOUBLE_PRECISION, which lulesh.h defines.
  CompileOptions options;
  options.headers["config.h"] = "#pragma once\n#define WIDE_BLOCKS\n";
  const Program p = Program::from_source("bounds.cu", R"(
#include "config.h"
__global__ void
#ifdef WIDE_BLOCKS
__launch_bounds__(128)
#else
__launch_bounds__(64)
#endif
fill(int n, int* out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    out[i] = n - i;
  }
}
)",
                                         std::move(options));
  const auto plain = p.kernel<int, int*>("fill", device);
  const auto fixed = plain.specialize<0>(300);
  auto out = poisoned<int>(300);
  fixed.launch(LaunchConfig{.grid = {3}, .block = {128}}, out);
  const std::vector<int> got = out.download();
  for (int i = 0; i < 300; ++i) {
    ASSERT_EQ(got[i], 300 - i) << "element " << i;
  }
  EXPECT_TRUE(contains(launch_error_of([&] { fixed.launch({.grid = {2}, .block = {192}}, out); }),
                       "blocks of 192 threads exceed the 128 this kernel was compiled for"));
}

TEST_F(Specialize, AFixedParameterStaysAssignable) {
  const Program p = Program::from_source("assigns.cu", R"(
__global__ void bump(int n, int* out) {
  n += 1;
  out[0] = n;
}
)");
  const auto plain = p.kernel<int, int*>("bump", device);
  const auto fixed = plain.specialize<0>(41);
  auto out = poisoned<int>(1);
  fixed.launch(LaunchConfig{}, out);
  EXPECT_EQ(out.download(), std::vector<int>{42});  // the parameter is a copy: assignable
}

}  // namespace
}  // namespace kjit::test
