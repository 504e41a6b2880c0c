// Kernel::specialize_array: a pointer parameter replaced by a constant array of the given contents
// (a table of weights, a lookup table) gives the plain kernel's results bit for bit on random
// inputs; the variant keeps its own copy of the contents, one variant per contents; empty and
// oversized contents are refused.
#include "test_support.hpp"

#include <bit>
#include <cmath>

namespace kjit::test {
namespace {

constexpr const char* kTables = R"(
// y[i] = the sum over k < taps of w[k] * x[(i + k) % n]
__global__ void stencil(const float* w, int taps, const float* x, float* y, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float acc = 0.0f;
    for (int k = 0; k < taps; ++k) {
      acc += w[k] * x[(i + k) % n];
    }
    y[i] = acc;
  }
}
// out[i] = table[index[i] % 64]: loads at indices known only at run time
__global__ void lookup(const int* table, const int* index, int* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    out[i] = table[index[i] % 64];
  }
}
)";

using Stencil = Kernel<const float*, int, const float*, float*, int>;

/// Variants built (compiled, or loaded from a cache) so far in this process.
std::uint64_t builds() {
  const CacheStats s = cache_stats();
  return s.compiles + s.hits + s.remote_hits;
}

class SpecializeArray : public DeviceTest {
 public:
  /// y of the plain stencil with weights `w` and of `launch` (given x, y, n) on the same x; both
  /// near the host's sums, and the same bits.
  template <class Launch>
  void expect_same_as_plain(const Stencil& plain, const std::vector<float>& w, Launch&& launch) {
    const int n = 500 + static_cast<int>(rng() % 1500);
    const std::vector<float> x = random_vector<float>(std::size_t(n), -2.0f, 2.0f);
    auto dx = device.upload(x);
    auto dw = device.upload(w);
    auto want = poisoned<float>(std::size_t(n));
    auto got = poisoned<float>(std::size_t(n));
    const LaunchConfig config = LaunchConfig::for_elements(std::size_t(n), 128);
    plain.launch(config, dw, static_cast<int>(w.size()), dx, want, n);
    launch(config, dx, got, n);
    const std::vector<float> wv = want.download();
    const std::vector<float> g = got.download();
    for (int i = 0; i < n; ++i) {
      float host = 0.0f;
      for (std::size_t k = 0; k < w.size(); ++k) {
        host += w[k] * x[(std::size_t(i) + k) % std::size_t(n)];
      }
      ASSERT_NEAR(wv[i], host, 1e-4f * (1.0f + std::abs(host))) << "element " << i;
      ASSERT_EQ(std::bit_cast<std::uint32_t>(g[i]), std::bit_cast<std::uint32_t>(wv[i]))
          << "element " << i << ": variant " << g[i] << ", plain " << wv[i];
    }
  }
};

TEST_F(SpecializeArray, ATableFoldedByContentGivesThePlainResults) {
  const Program p = Program::from_source("tables.cu", kTables);
  const Stencil plain = p.kernel<const float*, int, const float*, float*, int>("stencil", device);
  const std::vector<float> w = random_vector<float>(3 + rng() % 6, -1.0f, 1.0f);
  const Kernel<int, const float*, float*, int> folded = plain.specialize_array<0>(w);
  expect_same_as_plain(plain, w, [&](const LaunchConfig& c, auto& x, auto& y, int n) {
    folded.launch(c, static_cast<int>(w.size()), x, y, n);
  });
  // With the trip count fixed as well, the loop unrolls over constant weights.
  const Kernel<const float*, float*, int> both = folded.specialize<0>(static_cast<int>(w.size()));
  expect_same_as_plain(
      plain, w, [&](const LaunchConfig& c, auto& x, auto& y, int n) { both.launch(c, x, y, n); });
}

TEST_F(SpecializeArray, LoadsAtRunTimeIndicesReadTheTable) {
  const Program p = Program::from_source("tables.cu", kTables);
  const auto plain = p.kernel<const int*, const int*, int*, int>("lookup", device);
  const std::vector<int> table = random_vector<int>(64, -100000, 100000);
  const Kernel<const int*, int*, int> folded = plain.specialize_array<0>(table);
  const int n = 1000 + static_cast<int>(rng() % 1000);
  const std::vector<int> index = random_vector<int>(std::size_t(n), 0, 1 << 20);
  auto di = device.upload(index);
  auto out = poisoned<int>(std::size_t(n));
  folded.launch(LaunchConfig::for_elements(std::size_t(n), 64), di, out, n);
  const std::vector<int> got = out.download();
  for (int i = 0; i < n; ++i) {
    ASSERT_EQ(got[i], table[std::size_t(index[i] % 64)]) << "element " << i;
  }
}

TEST_F(SpecializeArray, TheVariantKeepsItsOwnCopyAndOtherContentsMakeAnotherVariant) {
  const Program p = Program::from_source("tables.cu", kTables);
  const Stencil plain = p.kernel<const float*, int, const float*, float*, int>("stencil", device);
  std::vector<float> w = random_vector<float>(5, -1.0f, 1.0f);
  const std::vector<float> first = w;
  const std::uint64_t before = builds();
  const auto folded = plain.specialize_array<0>(w);
  EXPECT_EQ(builds() - before, 1U);
  for (float& v : w) {
    v = -v * 0.5f;  // the caller's contents change; the variant's do not
  }
  expect_same_as_plain(plain, first, [&](const LaunchConfig& c, auto& x, auto& y, int n) {
    folded.launch(c, 5, x, y, n);
  });
  const auto changed = plain.specialize_array<0>(w);
  EXPECT_EQ(builds() - before, 2U) << "other contents: another variant";
  expect_same_as_plain(plain, w, [&](const LaunchConfig& c, auto& x, auto& y, int n) {
    changed.launch(c, 5, x, y, n);
  });
  const auto again = plain.specialize_array<0>(first);
  EXPECT_EQ(builds() - before, 2U) << "the first contents again: the first variant";
  expect_same_as_plain(plain, first, [&](const LaunchConfig& c, auto& x, auto& y, int n) {
    again.launch(c, 5, x, y, n);
  });
}

TEST_F(SpecializeArray, EmptyAndOversizedContentsAreRefused) {
  const Program p = Program::from_source("tables.cu", kTables);
  const Stencil plain = p.kernel<const float*, int, const float*, float*, int>("stencil", device);
  const std::vector<float> none;
  EXPECT_TRUE(
      contains(expect_throw<UsageError>([&] { (void)plain.specialize_array<0>(none); }).what(),
               "specialize_array<0>: the contents are empty"));
  const std::vector<float> large(9000, 1.0f);  // 36000 bytes
  EXPECT_TRUE(
      contains(expect_throw<UsageError>([&] { (void)plain.specialize_array<0>(large); }).what(),
               "36000 bytes of arrays in one variant; at most 32768"));
}

}  // namespace
}  // namespace kjit::test
