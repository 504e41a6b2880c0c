// The corpus (tests/corpus/README.md): kernel files of public CUDA projects, unmodified, loaded
// with Program::from_file as written (host code and all) and run as their own host code runs
// them, on random inputs, each checked against a plain C++ reference with the sample's own
// accuracy criterion. Files that use what a backend lacks must fail with a located error naming
// the feature.
#include "corpus.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace kjit::test {
namespace {

struct Float2 {
  float x, y;
};

// ---- 0_Introduction ----------------------------------------------------------------------------

void check_vector_add(Corpus& t, const Program& p) {
  constexpr int n = 50000;
  const auto a = t.random_vector<float>(n, 0.0f, 1.0f);
  const auto b = t.random_vector<float>(n, 0.0f, 1.0f);
  auto da = t.device.upload(a);
  auto db = t.device.upload(b);
  auto dc = t.poisoned<float>(n);
  const unsigned threads = 256;
  p.kernel<const float*, const float*, float*, int>("vectorAdd", t.device)
      .launch(LaunchConfig{.grid = {(n + threads - 1) / threads}, .block = {threads}}, da, db, dc,
              n);
  const auto c = dc.download();
  for (int i = 0; i < n; ++i) {
    ASSERT_LE(std::fabs(a[i] + b[i] - c[i]), 1e-5f) << i;  // the sample's test
  }
}

TEST_F(Corpus, VectorAdd) {
  check_vector_add(*this, sample("0_Introduction/vectorAdd/vectorAdd.cu"));
}

TEST_F(Corpus, VectorAddNvrtc) {
  check_vector_add(*this, sample("0_Introduction/vectorAdd_nvrtc/vectorAdd_kernel.cu"));
}

/// C = A * B for A of hA x wA and B of wA x wB, with the sample's criterion.
template <class Size>
void check_matrix_mul(Corpus& t, const Program& p, const std::string& kernel, int block) {
  const int wA = 4 * block;
  const int hA = 3 * block;
  const int wB = 5 * block;
  const auto a = t.random_vector<float>(static_cast<std::size_t>(hA) * wA, 0.0f, 1.0f);
  const auto b = t.random_vector<float>(static_cast<std::size_t>(wA) * wB, 0.0f, 1.0f);
  auto da = t.device.upload(a);
  auto db = t.device.upload(b);
  auto dc = t.poisoned<float>(static_cast<std::size_t>(hA) * wB);
  p.kernel<float*, float*, float*, Size, Size>(kernel, t.device)
      .launch(LaunchConfig{.grid = {static_cast<unsigned>(wB / block),
                                    static_cast<unsigned>(hA / block)},
                           .block = {static_cast<unsigned>(block), static_cast<unsigned>(block)}},
              dc, da, db, static_cast<Size>(wA), static_cast<Size>(wB));
  const auto c = dc.download();
  for (int i = 0; i < hA; ++i) {
    for (int j = 0; j < wB; ++j) {
      double ref = 0;
      for (int k = 0; k < wA; ++k) {
        ref += static_cast<double>(a[i * wA + k]) * b[k * wB + j];
      }
      const double err = std::fabs(c[i * wB + j] - ref);
      ASSERT_LT(err / std::fabs(ref) / wA, 1e-6) << kernel << " at " << i << "," << j;
    }
  }
}

TEST_F(Corpus, MatrixMulWithHelperFunctions) {
  // The sample everyone tries first: helper_functions.h brings helper_image.h, helper_timer.h and
  // exception.h, whose host code (members defined outside their classes, inline functions that
  // call erased ones) is erased as a whole.
  const Program p = sample("0_Introduction/matrixMul/matrixMul.cu");
  check_matrix_mul<int>(*this, p, "MatrixMulCUDA<16>", 16);
  check_matrix_mul<int>(*this, p, "MatrixMulCUDA<32>", 32);
}

TEST_F(Corpus, MatrixMulNvrtc) {
  const Program p = sample("0_Introduction/matrixMul_nvrtc/matrixMul_kernel.cu");
  check_matrix_mul<int>(*this, p, "matrixMulCUDA_block16", 16);
  check_matrix_mul<int>(*this, p, "matrixMulCUDA_block32", 32);
}

TEST_F(Corpus, MatrixMulDrv) {
  const Program p = sample("0_Introduction/matrixMulDrv/matrixMul_kernel.cu");
  check_matrix_mul<std::size_t>(*this, p, "matrixMul_bs8_64bit", 8);
  check_matrix_mul<std::size_t>(*this, p, "matrixMul_bs16_64bit", 16);
  check_matrix_mul<std::size_t>(*this, p, "matrixMul_bs32_64bit", 32);
}

/// The sample's own check of testKernel's atomics (computeGold).
void check_atomics(Corpus& t, const Program& p) {
  constexpr unsigned threads = 64;
  constexpr unsigned blocks = 1;
  std::vector<int> init(11, 0);
  init[8] = init[10] = 0xff;  // the sample's starting values for AND and XOR
  auto d = t.device.upload(init);
  p.kernel<int*>("testKernel", t.device)
      .launch(LaunchConfig{.grid = {blocks}, .block = {threads}}, d);
  const auto out = d.download();
  const int n = static_cast<int>(threads * blocks);
  EXPECT_EQ(out[0], 10 * n);
  EXPECT_EQ(out[1], -10 * n);
  EXPECT_TRUE(out[2] >= 0 && out[2] < n);
  EXPECT_EQ(out[3], n - 1);
  EXPECT_EQ(out[4], 0);
  EXPECT_EQ(out[5], n % 18);  // atomicInc wraps past 17
  int dec = 0;
  for (int i = 0; i < n; ++i) {
    dec = (dec == 0 || dec > 137) ? 137 : dec - 1;
  }
  EXPECT_EQ(out[6], dec);
  EXPECT_TRUE(out[7] >= 0 && out[7] < n);  // the last CAS that matched
  int and_v = 0xff;
  int xor_v = 0xff;
  for (int i = 0; i < n; ++i) {
    and_v &= 2 * i + 7;
    xor_v ^= i;
  }
  EXPECT_EQ(out[8], and_v);
  EXPECT_NE(out[9], 0);  // 1 << tid: tid >= 32 shifts differently on each machine, as in C
  EXPECT_EQ(out[10], xor_v);
}

TEST_F(Corpus, SimpleAtomicIntrinsics) {
  check_atomics(*this,
                sample("0_Introduction/simpleAtomicIntrinsics/simpleAtomicIntrinsics_kernel.cuh"));
}

TEST_F(Corpus, SimpleAtomicIntrinsicsNvrtc) {
  check_atomics(
      *this,
      sample("0_Introduction/simpleAtomicIntrinsics_nvrtc/simpleAtomicIntrinsics_kernel.cuh"));
}

TEST_F(Corpus, SimpleAssertNvrtcStopsTheLaunchWithTheAssertion) {
  const Program p = sample("0_Introduction/simpleAssert_nvrtc/simpleAssert_kernel.cu");
  auto k = p.kernel<int>("testKernel", device);
  k.launch(LaunchConfig{.grid = {2}, .block = {32}}, 64);  // every thread passes
  device.synchronize();
  if (!on_cpu()) {
    return;  // a failed assert on a GPU leaves the context unusable: assert_test.cpp checks it
  }
  k.launch(LaunchConfig{.grid = {2}, .block = {32}}, 60);
  auto e = expect_throw<LaunchError>([&] { device.synchronize(); });
  EXPECT_TRUE(contains(e.what(), "assertion `gtid < N` failed")) << e.what();
  EXPECT_TRUE(contains(e.what(), "simpleAssert_kernel.cu:38")) << e.what();
}

TEST_F(Corpus, ClockNvrtcReducesToTheMinimumPerBlock) {
  const Program p = sample("0_Introduction/clock_nvrtc/clock_kernel.cu");
  constexpr unsigned blocks = 16;
  constexpr unsigned threads = 128;
  const auto in = random_vector<float>(threads * 2, -100.0f, 100.0f);
  auto d_in = device.upload(in);
  auto d_out = poisoned<float>(blocks);
  auto d_timer = poisoned<long>(2 * blocks);
  p.kernel<const float*, float*, long*>("timedReduction", device)
      .launch(
          LaunchConfig{
              .grid = {blocks}, .block = {threads}, .shared_bytes = 2 * threads * sizeof(float)},
          d_in, d_out, d_timer);
  const float least = *std::min_element(in.begin(), in.end());
  EXPECT_EQ(d_out.download(), std::vector<float>(blocks, least));
  const auto timer = d_timer.download();
  for (unsigned b = 0; b < blocks; ++b) {
    EXPECT_LE(timer[b], timer[b + blocks]) << "block " << b << "'s clock went back";
  }
}

TEST_F(Corpus, SimpleVoteAnyAndAllAcrossWarps) {
  const Program p = sample("0_Introduction/simpleVoteIntrinsics/simpleVote_kernel.cuh");
  constexpr int n = 128;
  std::vector<unsigned> sparse(n, 0);
  for (int w = 0; w < n / 32; ++w) {
    if (w % 2 == 0) {  // warps 0 and 2 have one nonzero vote, 1 and 3 none
      sparse[w * 32 + static_cast<int>(rng() % 32)] = 1 + static_cast<unsigned>(rng() % 9);
    }
  }
  std::vector<unsigned> dense(n, 1);
  dense[32 + rng() % 32] = 0;  // warp 1 has one zero vote, the others none
  const auto vote = [&](const char* kernel, const std::vector<unsigned>& in) {
    auto d_out = poisoned<unsigned>(n);
    p.kernel<unsigned*, unsigned*, int>(kernel, device)
        .launch(LaunchConfig{.grid = {1}, .block = {n}}, device.upload(in), d_out, n);
    return d_out.download();
  };
  const std::vector<unsigned> any = vote("VoteAnyKernel1", sparse);
  const std::vector<unsigned> all = vote("VoteAllKernel2", dense);
  for (int i = 0; i < n; ++i) {
    EXPECT_EQ(any[i] != 0, (i / 32) % 2 == 0) << "thread " << i;
    EXPECT_EQ(all[i] != 0, i / 32 != 1) << "thread " << i;
  }
  // The sample's directed test: 3 warps, votes across half warps.
  constexpr int warp = 32;
  auto info = device.upload(std::vector<bool>(3 * warp * 3, false));
  p.kernel<bool*, int>("VoteAnyKernel3", device)
      .launch(LaunchConfig{.grid = {1}, .block = {3 * warp}}, info, warp);
  const std::vector<bool> got = info.download();
  for (int t = 0; t < 3 * warp; ++t) {
    EXPECT_EQ(got[3 * t], t >= warp) << "thread " << t;
    EXPECT_EQ(got[3 * t + 1], t >= warp * 3 / 2) << "thread " << t;
    EXPECT_EQ(got[3 * t + 2], t >= 2 * warp) << "thread " << t;
  }
}

// ---- 2_Concepts_and_Techniques -----------------------------------------------------------------

TEST_F(Corpus, ConvolutionSeparableWithItsConstantKernel) {
  const Program p = sample("2_Concepts_and_Techniques/convolutionSeparable/convolutionSeparable.cu",
                           {"convolutionRowsKernel", "convolutionColumnsKernel"});
  constexpr int radius = 8;
  constexpr int taps = 2 * radius + 1;
  constexpr int w = 256;
  constexpr int h = 128;
  const auto kernel = random_vector<float>(taps, 0.0f, 1.0f);
  const auto image = random_vector<float>(w * h, 0.0f, 1.0f);
  p.symbol<float[taps]>("c_Kernel", device).write(kernel);  // the sample's cudaMemcpyToSymbol
  auto src = device.upload(image);
  auto mid = poisoned<float>(w * h);
  auto dst = poisoned<float>(w * h);
  p.kernel<float*, float*, int, int, int>("convolutionRowsKernel", device)
      .launch(LaunchConfig{.grid = {w / (8 * 16), h / 4}, .block = {16, 4}}, mid, src, w, h, w);
  p.kernel<float*, float*, int, int, int>("convolutionColumnsKernel", device)
      .launch(LaunchConfig{.grid = {w / 16, h / (8 * 8)}, .block = {16, 8}}, dst, mid, w, h, w);
  // The sample's reference (convolutionRowCPU, convolutionColumnCPU) and criterion (L2 < 1e-6).
  std::vector<double> rows(w * h);
  std::vector<double> ref(w * h);
  for (int y = 0; y < h; ++y) {
    for (int x = 0; x < w; ++x) {
      double sum = 0;
      for (int k = -radius; k <= radius; ++k) {
        if (x + k >= 0 && x + k < w) {
          sum += image[y * w + x + k] * kernel[radius - k];
        }
      }
      rows[y * w + x] = sum;
    }
  }
  for (int y = 0; y < h; ++y) {
    for (int x = 0; x < w; ++x) {
      double sum = 0;
      for (int k = -radius; k <= radius; ++k) {
        if (y + k >= 0 && y + k < h) {
          sum += rows[(y + k) * w + x] * kernel[radius - k];
        }
      }
      ref[y * w + x] = sum;
    }
  }
  const auto out = dst.download();
  double delta = 0;
  double sum = 0;
  for (int i = 0; i < w * h; ++i) {
    delta += (ref[i] - out[i]) * (ref[i] - out[i]);
    sum += ref[i] * ref[i];
  }
  EXPECT_LT(std::sqrt(delta / sum), 1e-6);
}

std::vector<unsigned> random_bytes_as_words(Corpus& t, std::size_t words) {
  return t.random_vector<unsigned>(words, 0, 0xffffffffU);
}

TEST_F(Corpus, Histogram64) {
  const Program p = sample("2_Concepts_and_Techniques/histogram/histogram64.cu",
                           {"histogram64Kernel", "mergeHistogram64Kernel"});
  const std::size_t bytes = 1000 * 1024;  // a multiple of 16, as the sample requires
  const auto data = random_bytes_as_words(*this, bytes / 4);
  auto d_data = device.upload(data);
  const unsigned per_block = 64 * 240;
  const unsigned histograms = static_cast<unsigned>((bytes + per_block - 1) / per_block);
  auto partial = poisoned<unsigned>(histograms * 64);
  auto hist = poisoned<unsigned>(64);
  p.kernel<unsigned*, unsigned*, unsigned>("histogram64Kernel", device)  // data_t*: uint4*
      .launch(LaunchConfig{.grid = {histograms}, .block = {64}}, partial, d_data,
              static_cast<unsigned>(bytes / 16));
  p.kernel<unsigned*, unsigned*, unsigned>("mergeHistogram64Kernel", device)
      .launch(LaunchConfig{.grid = {64}, .block = {256}}, hist, partial, histograms);
  std::vector<unsigned> ref(64, 0);
  for (const unsigned word : data) {
    for (int b = 0; b < 4; ++b) {
      ++ref[((word >> (8 * b)) & 0xff) >> 2];
    }
  }
  EXPECT_EQ(hist.download(), ref);
}

TEST_F(Corpus, Histogram256) {
  const Program p = sample("2_Concepts_and_Techniques/histogram/histogram256.cu",
                           {"histogram256Kernel", "mergeHistogram256Kernel"});
  const std::size_t bytes = 777 * 1024;
  const auto data = random_bytes_as_words(*this, bytes / 4);
  auto d_data = device.upload(data);
  constexpr unsigned partials = 240;
  auto partial = poisoned<unsigned>(partials * 256);
  auto hist = poisoned<unsigned>(256);
  p.kernel<unsigned*, unsigned*, unsigned>("histogram256Kernel", device)
      .launch(LaunchConfig{.grid = {partials}, .block = {6 * 32}}, partial, d_data,
              static_cast<unsigned>(bytes / 4));
  p.kernel<unsigned*, unsigned*, unsigned>("mergeHistogram256Kernel", device)
      .launch(LaunchConfig{.grid = {256}, .block = {256}}, hist, partial, partials);
  std::vector<unsigned> ref(256, 0);
  for (const unsigned word : data) {
    for (int b = 0; b < 4; ++b) {
      ++ref[(word >> (8 * b)) & 0xff];
    }
  }
  EXPECT_EQ(hist.download(), ref);
}

TEST_F(Corpus, InlinePtxNvrtcNeedsAGpu) {
  const Program p = sample("2_Concepts_and_Techniques/inlinePTX_nvrtc/inlinePTX_kernel.cu");
  if (on_cpu()) {
    auto e = expect_throw<CompileError>([&] { (void)p.kernel<int*, int>("sequence_gpu", device); });
    expect_located(e, "inlinePTX_kernel.cu", 36, "inline assembly (PTX) is not supported");
    return;
  }
  constexpr int n = 1000;
  auto d = poisoned<int>(n);
  p.kernel<int*, int>("sequence_gpu", device)
      .launch(LaunchConfig{.grid = {(n + 127) / 128}, .block = {128}}, d, n);
  const auto out = d.download();
  for (int i = 0; i < n; ++i) {
    ASSERT_EQ(out[i], i % 32) << i;  // the sample's sequence_cpu: lane ids
  }
}

// ---- 3_CUDA_Features ---------------------------------------------------------------------------

TEST_F(Corpus, PtxJitKernel) {
  const Program p = sample("3_CUDA_Features/ptxjit/ptxjit_kernel.cu");
  constexpr unsigned n = 1024;
  auto d = poisoned<int>(n);
  p.kernel<int*>("myKernel", device).launch(LaunchConfig{.grid = {n / 32}, .block = {32}}, d);
  std::vector<int> want(n);
  std::iota(want.begin(), want.end(), 0);
  EXPECT_EQ(d.download(), want);
}

// ---- 5_Domain_Specific -------------------------------------------------------------------------

/// The Black-Scholes formula in double precision (the sample's BlackScholesBodyCPU).
std::pair<double, double> black_scholes(double s, double x, double t, double r, double v) {
  const auto cnd = [](double d) { return 0.5 * std::erfc(-d / std::sqrt(2.0)); };
  const double sqrt_t = std::sqrt(t);
  const double d1 = (std::log(s / x) + (r + 0.5 * v * v) * t) / (v * sqrt_t);
  const double d2 = d1 - v * sqrt_t;
  const double exp_rt = std::exp(-r * t);
  return {s * cnd(d1) - x * exp_rt * cnd(d2), x * exp_rt * (1.0 - cnd(d2)) - s * (1.0 - cnd(d1))};
}

TEST_F(Corpus, BlackScholes) {
  const Program p = sample("5_Domain_Specific/BlackScholes/BlackScholes_kernel.cuh");
  constexpr int n = 40000;
  const auto price = random_vector<float>(n, 5.0f, 30.0f);
  const auto strike = random_vector<float>(n, 1.0f, 100.0f);
  const auto years = random_vector<float>(n, 0.25f, 10.0f);
  const auto as_pairs = [&](const std::vector<float>& v) {
    auto d = device.alloc<Float2>(n / 2);
    d.upload(std::span<const Float2>(reinterpret_cast<const Float2*>(v.data()), n / 2));
    return d;
  };
  auto d_price = as_pairs(price);
  auto d_strike = as_pairs(strike);
  auto d_years = as_pairs(years);
  auto d_call = device.alloc<Float2>(n / 2);
  auto d_put = device.alloc<Float2>(n / 2);
  constexpr float riskfree = 0.02f;
  constexpr float volatility = 0.30f;
  p.kernel<Float2*, Float2*, Float2*, Float2*, Float2*, float, float, int>("BlackScholesGPU",
                                                                           device)
      .launch(LaunchConfig{.grid = {(n / 2 + 127) / 128}, .block = {128}}, d_call, d_put, d_price,
              d_strike, d_years, riskfree, volatility, n);
  const auto call = d_call.download();
  const auto put = d_put.download();
  double delta = 0;
  double sum = 0;
  double max_delta = 0;
  for (int i = 0; i < n; ++i) {
    const auto [c, q] = black_scholes(price[i], strike[i], years[i], riskfree, volatility);
    const float got = i % 2 == 0 ? call[i / 2].x : call[i / 2].y;
    const float got_put = i % 2 == 0 ? put[i / 2].x : put[i / 2].y;
    delta += std::fabs(c - got);
    sum += std::fabs(c);
    max_delta = std::max(max_delta, std::fabs(q - got_put));
  }
  EXPECT_LT(delta / sum, 1e-6);  // the sample's L1 criterion on call prices
  EXPECT_LT(max_delta, 1e-3);
}

TEST_F(Corpus, MonteCarloNeedsCurandWhichKjitLacks) {
  const Program p = sample("5_Domain_Specific/MonteCarloMultiGPU/MonteCarlo_kernel.cu");
  auto e = expect_throw<CompileError>([&] { (void)p.kernel<void*>("rngSetupStates", device); });
  // The first use of what the header would declare, and a note at the include that names it.
  expect_located(e, "MonteCarlo_kernel.cu", 83, "curandState");
  EXPECT_TRUE(
      contains(e.what(), "MonteCarlo_kernel.cu:36:1: note: kjit found no 'curand_kernel.h'"))
      << e.what();
}

}  // namespace
}  // namespace kjit::test
