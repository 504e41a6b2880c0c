// The kernel language as real .cu files use it (kernel_language_sources.hpp), on every backend,
// against host computations on fresh random inputs, with outputs poisoned: names nvcc's host
// environment makes visible without an include, loads and stores with a cache hint of every type,
// integer and float intrinsics and atomics, and cooperative groups' reduce and shuffles of
// structs. HIP lacks some intrinsics (warp-level _sync operations among them): those tests check
// there what HIP has.
#include "kernel_language_sources.hpp"
#include "test_support.hpp"

#include <algorithm>
#include <bit>
#include <climits>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <utility>

namespace kjit::test {
namespace {

using namespace language;

class KernelLanguage : public DeviceTest {
 public:
  [[nodiscard]] bool on(BackendKind kind) const { return device.info().backend == kind; }
};

TEST_F(KernelLanguage, NamesNvccMakesVisibleWithoutAnIncludeAreThere) {
  auto k = Program::from_source("implicit_names.cu", kImplicitNames)
               .kernel<const float*, double*>("implicit_names<5>", device);
  const std::vector<float> in = random_vector<float>(2, 1.0f, 100.0f);
  auto out = poisoned<double>(21);
  k.launch(LaunchConfig{.grid = {1}, .block = {1}}, device.upload(in), out);
  const std::vector<double> want{5,
                                 6,
                                 std::ldexp(1.0, 40),
                                 7,
                                 4 + 2 + 8,
                                 M_PI,
                                 M_E,
                                 M_SQRT2,
                                 M_LN2,
                                 M_PI_2,
                                 1,
                                 1,
                                 1,
                                 1,
                                 std::sqrt(in[0]),
                                 in[1],
                                 EXIT_FAILURE,
                                 sizeof(std::size_t),
                                 UINT_MAX,
                                 SHRT_MAX,
                                 INT_MIN};
  EXPECT_EQ(out.download(), want);
}

TEST_F(KernelLanguage, TheHeadersThatGiveThoseNamesCanStillBeIncluded) {
  for (const IncludedNames& c : included_names()) {
    SCOPED_TRACE(c.header);
    auto k = Program::from_source("included.cu", c.source).kernel<double*>("included", device);
    auto out = poisoned<double>(4);
    k.launch(LaunchConfig{.grid = {1}, .block = {1}}, out);
    EXPECT_EQ(out.download(), (std::vector<double>{3 + 8, M_PI, 1, 1}));
  }
}

TEST_F(KernelLanguage, LoadsAndStoresWithACacheHintMoveEveryTypeAsItIs) {
  CompileOptions options;
  for (const CacheHintType& t : cache_hint_types()) {
    options.kernels.push_back("hints<" + t.name + ">");
  }
  const Program program = Program::from_source("hints.cu", kCacheHints, options);
  constexpr int n = 300;
  for (const CacheHintType& t : cache_hint_types()) {
    SCOPED_TRACE(t.name);
    auto k =
        program.kernel<const unsigned char*, unsigned char*, int>("hints<" + t.name + ">", device);
    const std::vector<unsigned char> in =
        random_vector<unsigned char>(n * t.size, 0, std::numeric_limits<unsigned char>::max());
    auto out = poisoned<unsigned char>(10 * n * t.size);
    k.launch(LaunchConfig::for_elements(n, 64), device.upload(in), out, n);
    const std::vector<unsigned char> got = out.download();
    int wrong = 0;
    for (int i = 0; i < n; ++i) {
      for (int j = 0; j < 10; ++j) {
        if (std::memcmp(got.data() + (10 * i + j) * t.size, in.data() + i * t.size, t.size) != 0 &&
            ++wrong <= 3) {
          ADD_FAILURE() << "element " << i << ", access " << j << " (0-5: __ldg __ldca __ldcg "
                        << "__ldcs __ldlu __ldcv, 6-9: __stcs __stcg __stwb __stwt)";
        }
      }
    }
  }
}

// PTX's fns: the n-th set bit of mask from base, up for n > 0, down for n < 0.
unsigned fns(unsigned mask, unsigned base, int offset) {
  if (offset == 0) {
    return (mask >> base & 1u) != 0 ? base : 0xffffffffu;
  }
  int count = std::abs(offset) - 1;
  for (int pos = static_cast<int>(base); pos >= 0 && pos<32; pos += offset> 0 ? 1 : -1) {
    if ((mask >> pos & 1u) != 0 && count-- == 0) {
      return static_cast<unsigned>(pos);
    }
  }
  return 0xffffffffu;
}

// __dp2a: the two 16-bit halves of a times bytes first_byte and first_byte + 1 of b, plus c.
template <bool Signed>
unsigned dp2a(unsigned a, unsigned b, unsigned c, int first_byte) {
  std::uint64_t sum = c;
  for (int k = 0; k < 2; ++k) {
    const unsigned half = a >> (16 * k) & 0xffffu;
    const unsigned byte = b >> (8 * (first_byte + k)) & 0xffu;
    // Each arm widened on its own: `Signed ? int16 : unsigned` would be unsigned.
    const std::int64_t x =
        Signed ? std::int64_t{static_cast<std::int16_t>(half)} : std::int64_t{half};
    const std::int64_t y =
        Signed ? std::int64_t{static_cast<std::int8_t>(byte)} : std::int64_t{byte};
    sum += static_cast<std::uint64_t>(x * y);
  }
  return static_cast<unsigned>(sum);
}

TEST_F(KernelLanguage, IntegerIntrinsicsComputeWhatTheHostDoes) {
  if (on(BackendKind::hip)) {
    return;  // ROCm 5's HIP has no __dp2a, __uni_sync or __cvta_*: see the HIP prelude
  }
  auto k = Program::from_source("integers.cu", kIntegerIntrinsics)
               .kernel<const unsigned*, unsigned*, long long*, int>("integers", device);
  constexpr int n = 32 * 40;
  std::vector<unsigned> in = random_vector<unsigned>(3 * n, 0, 0xffffffffu);
  for (int w = 0; w < n / 32; w += 3) {  // every third warp's predicate is uniform
    for (int l = 0; l < 32; ++l) {
      in[3 * (32 * w + l)] = (in[3 * (32 * w + l)] & ~1u) | (w / 3 & 1u);
    }
  }
  auto out = poisoned<unsigned>(6 * n);
  auto wide = poisoned<long long>(10 * n);
  k.launch(LaunchConfig::for_elements(n, 128), device.upload(in), out, wide, n);
  const std::vector<unsigned> o = out.download();
  const std::vector<long long> w = wide.download();
  for (int i = 0; i < n; ++i) {
    SCOPED_TRACE("thread " + std::to_string(i));
    const unsigned a = in[3 * i], b = in[3 * i + 1], c = in[3 * i + 2];
    bool uniform = true;
    for (int l = i / 32 * 32; l < i / 32 * 32 + 32; ++l) {
      uniform = uniform && ((in[3 * l] ^ a) & 1u) == 0;
    }
    const std::vector<unsigned> want{fns(a, b % 32, static_cast<int>(c % 67) - 33),
                                     dp2a<true>(a, b, c, 0),
                                     dp2a<true>(a, b, c, 2),
                                     dp2a<false>(a, b, c, 0),
                                     dp2a<false>(a, b, c, 2),
                                     uniform ? 1u : 0u};
    ASSERT_EQ(std::vector<unsigned>(o.begin() + 6 * i, o.begin() + 6 * i + 6), want);
    const long sa = static_cast<int>(a), sb = static_cast<int>(b);
    const auto as_signed = [](std::uint64_t v) { return static_cast<long long>(v); };
    const std::vector<long long> want_wide{
        std::abs(sa),
        std::abs(sa * 3),
        as_signed(std::min<std::uint64_t>(static_cast<std::uint64_t>(sa), b)),
        as_signed(std::max<std::uint64_t>(a, static_cast<std::uint64_t>(sb))),
        as_signed(std::min<std::uint64_t>(static_cast<std::uint64_t>(sa), c)),
        as_signed(std::max<std::uint64_t>(c, static_cast<std::uint64_t>(sb))),
        as_signed(std::min<std::uint64_t>(a * 0x100000001ull, b * 3ull)),
        as_signed(std::max<std::uint64_t>(a * 0x100000001ull, b * 3ull)),
        31,
        1};
    ASSERT_EQ(std::vector<long long>(w.begin() + 10 * i, w.begin() + 10 * i + 10), want_wide);
  }
}

using Quad = __float128;  // exact for every product and sum of the arguments below

/// Whether `r` is `exact` rounded to float in `mode` (0 rn, 1 rz, 2 ru, 3 rd).
bool rounded_right(float r, Quad exact, int mode) {
  const float inf = std::numeric_limits<float>::infinity();
  const Quad q = r;
  const Quad below = std::nextafter(r, -inf);
  const Quad above = std::nextafter(r, inf);
  const auto distance = [&](Quad v) { return v > exact ? v - exact : exact - v; };
  switch (mode) {
    case 1:
      return exact >= 0 ? (q <= exact && above > exact) : (q >= exact && below < exact);
    case 2:
      return q >= exact && below < exact;
    case 3:
      return q <= exact && above > exact;
    default:
      return distance(q) <= distance(below) && distance(q) <= distance(above);
  }
}

TEST_F(KernelLanguage, FloatIntrinsicsAndOverloadsComputeWhatTheHostDoes) {
  if (on(BackendKind::hip)) {
    return;  // ROCm 5's HIP has no __fmaf_ieee_rz/ru/rd: see the HIP prelude
  }
  auto k = Program::from_source("floats.cu", kFloatIntrinsics)
               .kernel<const float*, float*, int>("floats", device);
  constexpr int n = 2000;
  // Nearby magnitudes, some negative, so that every fma is exact in a quad; y is sometimes a NaN,
  // an infinity or a zero of either sign, for the classification functions.
  std::vector<float> in = random_vector<float>(3 * n, 0.5f, 4.0f);
  const float specials[] = {std::numeric_limits<float>::quiet_NaN(),
                            -std::numeric_limits<float>::infinity(),
                            std::numeric_limits<float>::infinity(), 0.0f, -0.0f};
  for (int i = 0; i < n; ++i) {
    if (i % 3 == 1) {
      in[3 * i] = -in[3 * i];
      in[3 * i + 2] = -in[3 * i + 2];
    }
    if (i % 4 == 3) {
      in[3 * i + 1] = -in[3 * i + 1];
    }
  }
  for (int i = 0; i < n; i += 7) {
    in[3 * i + 1] = specials[(i / 7) % 5];
  }
  auto out = poisoned<float>(25 * n);
  k.launch(LaunchConfig::for_elements(n, 128), device.upload(in), out, n);
  const std::vector<float> o = out.download();
  for (int i = 0; i < n; ++i) {
    SCOPED_TRACE("thread " + std::to_string(i));
    const float x = in[3 * i], y = in[3 * i + 1], z = in[3 * i + 2];
    const float* r = o.data() + 25 * i;
    if (std::isfinite(y)) {
      for (int mode = 0; mode < 4; ++mode) {
        EXPECT_TRUE(rounded_right(r[mode], Quad(x) * Quad(y) + Quad(z), mode))
            << "__fmaf_ieee mode " << mode << ": " << r[mode];
      }
    }
    EXPECT_NEAR(r[4], std::tanh(x), 1e-3f);  // CUDA's __tanhf is approximate
    EXPECT_NEAR(r[5], std::sin(x), 2e-6f);
    EXPECT_NEAR(r[6], std::cos(x), 2e-6f);
    EXPECT_NEAR(r[7], std::sin(M_PI * x), 4e-6f);
    EXPECT_NEAR(r[8], std::cos(M_PI * x), 4e-6f);
    const std::vector<float> want{static_cast<float>(std::fmin(double{x}, double{y})),
                                  static_cast<float>(std::fmax(double{x}, double{y})),
                                  static_cast<float>(std::copysign(double{x}, double{y})),
                                  static_cast<float>(std::copysign(double{x}, double{y})),
                                  std::isnan(y) ? 1.0f : 0.0f,
                                  std::isinf(y) ? 1.0f : 0.0f,
                                  std::isfinite(y) ? 1.0f : 0.0f,
                                  std::signbit(y) ? 1.0f : 0.0f,
                                  std::isnan(y) ? 1.0f : 0.0f,
                                  std::isinf(y) ? 1.0f : 0.0f,
                                  std::isfinite(y) ? 1.0f : 0.0f,
                                  std::signbit(y) ? 1.0f : 0.0f,
                                  static_cast<float>(std::labs(static_cast<long>(x))),
                                  static_cast<float>(std::llabs(static_cast<long long>(z))),
                                  static_cast<float>(std::fmin(double{y}, double{x})),
                                  static_cast<float>(std::fmax(double{z}, double{y}))};
    const std::vector<float> got(r + 9, r + 25);
    for (std::size_t j = 0; j < want.size(); ++j) {
      EXPECT_EQ(std::bit_cast<std::uint32_t>(got[j]), std::bit_cast<std::uint32_t>(want[j]))
          << "result " << 9 + j << ": " << got[j] << ", want " << want[j];
    }
  }
}

TEST_F(KernelLanguage, Float2ArithmeticRoundsEachElementInItsMode) {
  if (!on(BackendKind::cpu)) {
    return;  // sm_100's: kernel_language_nvrtc_test.cpp compiles it for sm_100
  }
  auto k = Program::from_source("pairs.cu", kFloat2Intrinsics)
               .kernel<const float*, float*, int>("pairs", device);
  constexpr int n = 1000;
  std::vector<float> in = random_vector<float>(6 * n, 0.5f, 4.0f);
  for (std::size_t j = 0; j < in.size(); j += 5) {
    in[j] = -in[j];
  }
  auto out = poisoned<float>(24 * n);
  k.launch(LaunchConfig::for_elements(n, 128), device.upload(in), out, n);
  const std::vector<float> o = out.download();
  for (int i = 0; i < n; ++i) {
    for (int e = 0; e < 2; ++e) {
      const Quad a = in[6 * i + e], b = in[6 * i + 2 + e], c = in[6 * i + 4 + e];
      for (int mode = 0; mode < 4; ++mode) {
        const float* r = o.data() + 24 * i + e;
        EXPECT_TRUE(rounded_right(r[2 * mode], a + b, mode)) << "__fadd2, thread " << i;
        EXPECT_TRUE(rounded_right(r[2 * (4 + mode)], a * b, mode)) << "__fmul2, thread " << i;
        EXPECT_TRUE(rounded_right(r[2 * (8 + mode)], a * b + c, mode)) << "__ffma2, thread " << i;
      }
    }
  }
}

TEST_F(KernelLanguage, AtomicsOfLongLongsCountersAndVectorsAddUp) {
  if (on(BackendKind::hip)) {
    return;  // ROCm 5's HIP has no atomics of long long bits or of float2 and float4
  }
  auto k = Program::from_source("atomics.cu", kAtomics)
               .kernel<const long long*, long long*, unsigned*, float*, float*, float*, int>(
                   "atomics", device);
  constexpr int n = 3000;
  const std::vector<long long> in = random_vector<long long>(
      n, std::numeric_limits<long long>::min() / 2, std::numeric_limits<long long>::max() / 2);
  const long long ones = -1;
  auto bits = device.upload(std::vector<long long>{ones, 0, 0, ones, 0, 0, ones, 0, 0});
  auto counts = device.upload(std::vector<unsigned>(4, 0u));
  auto exchanged = device.upload(std::vector<float>{-1.0f, -1.0f});
  auto pairs = device.upload(std::vector<float>(6, 0.0f));
  auto quads = device.upload(std::vector<float>(12, 0.0f));
  k.launch(LaunchConfig::for_elements(n, 128), device.upload(in), bits, counts, exchanged, pairs,
           quads, n);
  long long all = ones, any = 0, odd = 0;
  float pair_y = 0, quad_y = 0, quad_z = 0;
  for (int i = 0; i < n; ++i) {
    all &= in[i];
    any |= in[i];
    odd ^= in[i];
    pair_y += static_cast<float>(i % 7);
    quad_y += static_cast<float>(i % 5);
    quad_z += static_cast<float>(i % 3);
  }
  EXPECT_EQ(bits.download(), (std::vector<long long>{all, any, odd, all, any, odd, all, any, odd}));
  // atomicInc from 0 wraps after 17 to 0 (a cycle of 18); atomicDec from 0 wraps to 13 (of 14).
  const unsigned inc = n % 18, dec = (14 - n % 14) % 14;
  EXPECT_EQ(counts.download(), (std::vector<unsigned>{inc, inc, dec, dec}));
  for (const float e : exchanged.download()) {
    EXPECT_TRUE(e >= 0 && e < n && e == std::floor(e)) << e;  // one thread's value
  }
  const float fn = static_cast<float>(n);
  EXPECT_EQ(pairs.download(), (std::vector<float>{fn, pair_y, fn, pair_y, fn, pair_y}));
  EXPECT_EQ(quads.download(), (std::vector<float>{fn, quad_y, quad_z, 2 * fn, fn, quad_y, quad_z,
                                                  2 * fn, fn, quad_y, quad_z, 2 * fn}));
}

TEST_F(KernelLanguage, WhatTheCpuCannotAnswerIsACompileErrorThatNamesIt) {
  if (!on(BackendKind::cpu)) {
    return;  // GPUs have address spaces, named barriers and clusters
  }
  const std::pair<const char*, const char*> cases[] = {
      {"out[0] = __isShared(out);", "__isShared (an address-space predicate) is not supported"},
      {"out[0] = __isGlobal(out);", "__isGlobal (an address-space predicate) is not supported"},
      {"__barrier_sync(1);", "__barrier_sync (a named barrier) is not supported"},
      {"out[0] = __clusterRelativeBlockRank();",
       "__clusterRelativeBlockRank (thread block clusters) is not supported"}};
  for (const auto& [statement, says] : cases) {
    SCOPED_TRACE(statement);
    auto e = expect_throw<CompileError>([&] {
      (void)Program::from_source(
          "unanswered.cu",
          std::string("__global__ void k(unsigned* out) {\n  ") + statement + "\n}\n")
          .kernel<unsigned*>("k", device);
    });
    EXPECT_TRUE(contains(e.what(), says)) << e.what();
    EXPECT_TRUE(contains(e.what(), "unanswered.cu:2:")) << e.what();
  }
}

// ---- cooperative groups: reduce and shuffles of structs --------------------------------------

TEST_F(KernelLanguage, CooperativeGroupsReduceAndShuffleStructs) {
  auto k = Program::from_source("structs.cu", kStructReduce)
               .kernel<const int*, float*, int*, unsigned char*>("structs", device);
  constexpr int kBlock = 64;
  constexpr int kBlocks = 3;
  constexpr int n = kBlock * kBlocks;
  const std::vector<int> in = random_vector<int>(n, -1000, 1000);
  auto soft = poisoned<float>(6 * n);
  auto stats = poisoned<int>(15 * n);
  auto bytes = poisoned<unsigned char>(24 * n);
  k.launch(LaunchConfig{.grid = {kBlocks}, .block = {kBlock}}, device.upload(in), soft, stats,
           bytes);
  const std::vector<float> so = soft.download();
  const std::vector<int> st = stats.download();
  const std::vector<unsigned char> by = bytes.download();
  const auto byte_of = [&](int g, int k) { return static_cast<unsigned char>(in[g] + 37 * k); };
  for (int g = 0; g < n; ++g) {
    SCOPED_TRACE("thread " + std::to_string(g));
    const int sizes[3] = {32, 16, 8};
    for (int t = 0; t < 3; ++t) {
      const int first = g / sizes[t] * sizes[t];
      double m = -1e300;
      int hi = in[first], lo = in[first];
      unsigned sum = 0;
      for (int j = first; j < first + sizes[t]; ++j) {
        m = std::max(m, in[j] / 64.0);
        hi = std::max(hi, in[j]);
        lo = std::min(lo, in[j]);
        sum += static_cast<unsigned>(in[j]);
      }
      double s = 0;
      for (int j = first; j < first + sizes[t]; ++j) {
        s += std::exp(in[j] / 64.0 - m);
      }
      EXPECT_EQ(so[6 * g + 2 * t], static_cast<float>(m)) << "tile of " << sizes[t];
      EXPECT_NEAR(so[6 * g + 2 * t + 1], s, 1e-5 * s) << "tile of " << sizes[t];
      EXPECT_EQ(std::vector<int>(st.begin() + 15 * g + 3 * t, st.begin() + 15 * g + 3 * t + 3),
                (std::vector<int>{hi, lo, static_cast<int>(sum)}))
          << "tile of " << sizes[t];
    }
    const int lane = g % 32;
    const int down = lane + 1 < 32 ? g + 1 : g;  // a lane past the tile keeps its own value
    const int across = g / 16 * 16 + ((g % 16) ^ 5);
    EXPECT_EQ(std::vector<int>(st.begin() + 15 * g + 9, st.begin() + 15 * g + 15),
              (std::vector<int>{in[down], in[down], in[down], in[across], in[across], in[across]}));
    const int sources[4] = {g % 8 + 1 < 8 ? g + 1 : g, g % 16 >= 2 ? g - 2 : g, g / 32 * 32 + 3,
                            g / 32 * 32 + ((g % 32) ^ 6)};
    for (int j = 0; j < 4; ++j) {
      for (int b = 0; b < 6; ++b) {
        EXPECT_EQ(by[24 * g + 6 * j + b], byte_of(sources[j], b))
            << "shuffle " << j << ", byte " << b;
      }
    }
  }
}

}  // namespace
}  // namespace kjit::test
