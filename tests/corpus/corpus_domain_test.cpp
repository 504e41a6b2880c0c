// The corpus's numerical files (tests/corpus/README.md): cuda-samples' fast Walsh transform, Haar
// wavelet, quasi-random and Sobol generators and binomial option pricing, each launched as its
// own host code launches it (constant tables written through Program::symbol, as the samples'
// cudaMemcpyToSymbol), on random inputs, checked against a plain C++ reference with the
// sample's own criterion.
#include "corpus.hpp"

#include <cmath>
#include <numeric>

namespace kjit::test {
namespace {

/// The sample's fwtBatchGPU(): radix-4 passes through global memory down to 2^11 elements, then
/// the rest in shared memory.
void fwt_batch(Corpus& t, const Program& p, DeviceBuffer<float>& data, int m, int log2n) {
  constexpr unsigned threads = 256;
  int n = 1 << log2n;
  const LaunchConfig global{
      .grid = {static_cast<unsigned>((1 << log2n) / (4 * threads)), static_cast<unsigned>(m)},
      .block = {threads}};
  const auto pass = p.kernel<float*, float*, int>("fwtBatch2Kernel", t.device);
  for (; log2n > 11; log2n -= 2, n >>= 2, m <<= 2) {
    pass.launch(global, data, data, n / 4);
  }
  p.kernel<float*, float*, int>("fwtBatch1Kernel", t.device)
      .launch(LaunchConfig{.grid = {static_cast<unsigned>(m)},
                           .block = {static_cast<unsigned>(n / 4)},
                           .shared_bytes = n * sizeof(float)},
              data, data, log2n);
}

/// The sample's test: a dyadic convolution through three transforms and a modulation.
TEST_F(Corpus, FastWalshTransformDyadicConvolution) {
  const Program p = sample("5_Domain_Specific/fastWalshTransform/fastWalshTransform_kernel.cuh");
  constexpr int log2_data = 16;  // the sample's 2^23 made smaller; still two global passes
  constexpr int log2_kernel = 7;
  constexpr int n = 1 << log2_data;
  constexpr int kn = 1 << log2_kernel;
  const auto data = random_vector<float>(n, 0.0f, 1.0f);
  const auto kernel = random_vector<float>(kn, 0.0f, 1.0f);
  std::vector<float> padded(n, 0.0f);
  std::copy(kernel.begin(), kernel.end(), padded.begin());
  auto d_data = device.upload(data);
  auto d_kernel = device.upload(padded);
  fwt_batch(*this, p, d_data, 1, log2_data);
  fwt_batch(*this, p, d_kernel, 1, log2_data);
  p.kernel<float*, float*, int>("modulateKernel", device)
      .launch(LaunchConfig{.grid = {128}, .block = {256}}, d_data, d_kernel, n);
  fwt_batch(*this, p, d_data, 1, log2_data);
  const auto got = d_data.download();
  double delta = 0;
  double sum = 0;
  for (int i = 0; i < n; ++i) {  // dyadicConvolutionCPU, and the sample's L2 criterion
    double ref = 0;
    for (int j = 0; j < kn; ++j) {
      ref += static_cast<double>(data[i ^ j]) * kernel[j];
    }
    delta += (ref - got[i]) * (ref - got[i]);
    sum += ref * ref;
  }
  EXPECT_LT(std::sqrt(delta / sum), 1e-6);
}

/// One block's Haar decomposition of 512 samples, all nine levels, with the constants the
/// sample's dwtHaar1D.cu defines before it includes the kernel file.
TEST_F(Corpus, DwtHaar1D) {
  const Program p = sample("5_Domain_Specific/dwtHaar1D/dwtHaar1D_kernel.cuh", {},
                           {{"INV_SQRT_2", "0.70710678118654752440f;"}, {"LOG_NUM_BANKS", "4"}});
  constexpr unsigned half = 256;
  constexpr unsigned levels = 9;
  const auto signal = random_vector<float>(2 * half, -1.0f, 1.0f);
  auto d_signal = device.upload(signal);
  auto d_out = poisoned<float>(2 * half);
  auto d_approx = poisoned<float>(1);
  p.kernel<float*, float*, float*, unsigned, unsigned, int>("dwtHaar1D", device)
      .launch(LaunchConfig{.grid = {1}, .block = {half}, .shared_bytes = 2 * half * 4 + 256},
              d_signal, d_out, d_approx, levels, half, static_cast<int>(half));
  const auto out = d_out.download();
  std::vector<double> a(signal.begin(), signal.end());
  for (std::size_t len = half; len >= 1; len /= 2) {  // details of each level at [len, 2 len)
    std::vector<double> next(len);
    for (std::size_t k = 0; k < len; ++k) {
      next[k] = (a[2 * k] + a[2 * k + 1]) / std::sqrt(2.0);
      EXPECT_NEAR(out[len + k], (a[2 * k] - a[2 * k + 1]) / std::sqrt(2.0), 1e-5)
          << "level of " << len << ", coefficient " << k;
    }
    a = next;
  }
  EXPECT_NEAR(d_approx.download()[0], a[0], 1e-5);
}

// ---- quasirandomGenerator ----------------------------------------------------------------------

constexpr int kQrngDimensions = 3;   // QRNG_DIMENSIONS
constexpr int kQrngResolution = 31;  // QRNG_RESOLUTION

const char* const kQuasirandom =
    "5_Domain_Specific/quasirandomGenerator/quasirandomGenerator_kernel.cu";

/// The generator with a random table in its static __constant__ c_Table (the sample's
/// initTableGPU): each value is the XOR of the table entries its index's bits select.
TEST_F(Corpus, QuasirandomGeneratorWithItsConstantTable) {
  const Program p = sample(kQuasirandom, {"quasirandomGeneratorKernel"});
  using Table = unsigned[kQrngDimensions][kQrngResolution];
  const auto flat = random_vector<unsigned>(kQrngDimensions * kQrngResolution, 0, 0xffffffffU);
  p.symbol<Table>("c_Table", device).write(*reinterpret_cast<const Table*>(flat.data()));
  constexpr unsigned n = 1U << 16;
  constexpr unsigned seed = 7;
  auto out = poisoned<float>(kQrngDimensions * n);
  p.kernel<float*, unsigned, unsigned>("quasirandomGeneratorKernel", device)
      .launch(LaunchConfig{.grid = {128}, .block = {128, kQrngDimensions}}, out, seed, n);
  const auto got = out.download();
  constexpr float int_scale = 1.0f / static_cast<float>(0x80000001U);
  for (int dim = 0; dim < kQrngDimensions; ++dim) {
    for (unsigned pos = 0; pos < n; ++pos) {
      unsigned result = 0;
      unsigned bits = seed + pos;
      for (int bit = 0; bit < kQrngResolution; ++bit, bits >>= 1) {
        result ^= (bits & 1) != 0 ? flat[dim * kQrngResolution + bit] : 0;
      }
      ASSERT_EQ(got[dim * n + pos], static_cast<float>(result + 1) * int_scale)
          << "dimension " << dim << ", index " << pos;
    }
  }
}

/// The normal distribution's inverse at p, by bisection in double precision.
double inverse_normal_cdf(double p) {
  double lo = -40.0;
  double hi = 40.0;
  for (int i = 0; i < 200 && hi - lo > 1e-15; ++i) {
    const double mid = 0.5 * (lo + hi);
    (0.5 * std::erfc(-mid / std::sqrt(2.0)) < p ? lo : hi) = mid;
  }
  return 0.5 * (lo + hi);
}

/// Moro's inverse normal CDF at evenly spaced points (the sample's inverseCNDgpu with no input),
/// against the true inverse, with the sample's L1 criterion.
TEST_F(Corpus, QuasirandomInverseNormal) {
  const Program p = sample(kQuasirandom);
  constexpr unsigned n = 3 * 65536;
  auto out = poisoned<float>(n);
  p.kernel<float*, unsigned*, unsigned>("inverseCNDKernel", device)
      .launch(LaunchConfig{.grid = {128}, .block = {128}}, out, nullptr, n);
  const auto got = out.download();
  const unsigned distance = 0xffffffffU / (n + 1);
  double sum_delta = 0;
  double sum_ref = 0;
  for (unsigned pos = 0; pos < n; ++pos) {
    const unsigned d = (pos + 1) * distance;
    const double ref = inverse_normal_cdf((d + 0.5) / 4294967295.0);
    sum_delta += std::fabs(got[pos] - ref);
    sum_ref += std::fabs(ref);
  }
  EXPECT_LT(sum_delta / sum_ref, 1e-6);
}

// ---- SobolQRNG ---------------------------------------------------------------------------------

/// Sobol points of random direction numbers (the kernel's Gray-code walk does not depend on
/// them): point i of a dimension is the XOR of the direction numbers that gray(i)'s bits select.
TEST_F(Corpus, SobolQrng) {
  const Program p = sample("5_Domain_Specific/SobolQRNG/sobol_gpu.cu");
  constexpr unsigned vectors = 100000;
  constexpr unsigned dimensions = 5;
  constexpr unsigned directions = 32;  // n_directions
  const auto v = random_vector<unsigned>(dimensions * directions, 0, 0xffffffffU);
  auto d_v = device.upload(v);
  auto out = poisoned<float>(vectors * dimensions);
  // The sample's sobolGPU() on a device of 2 multiprocessors: 8 blocks of 64 per dimension.
  p.kernel<unsigned, unsigned, unsigned*, float*>("sobolGPU_kernel", device)
      .launch(LaunchConfig{.grid = {8, dimensions}, .block = {64}}, vectors, dimensions, d_v, out);
  const auto got = out.download();
  constexpr float k_2powneg32 = 2.3283064E-10F;
  double sum_delta = 0;
  double sum_ref = 0;
  for (unsigned d = 0; d < dimensions; ++d) {
    for (unsigned i = 0; i < vectors; ++i) {
      unsigned x = 0;
      for (unsigned g = i ^ (i >> 1), k = 0; g != 0; g >>= 1, ++k) {
        x ^= (g & 1) != 0 ? v[d * directions + k] : 0;
      }
      const float ref = static_cast<float>(x) * k_2powneg32;
      sum_delta += std::fabs(got[d * vectors + i] - ref);
      sum_ref += std::fabs(ref);
    }
  }
  EXPECT_LT(sum_delta / sum_ref, 1e-6);  // L1ERROR_TOLERANCE
}

// ---- binomialOptions ---------------------------------------------------------------------------

constexpr int kSteps = 2048;  // NUM_STEPS

struct OptionData {  // the kernel file's __TOptionData (real = float)
  float s, x, v_dt, pu_by_df, pd_by_df;
};

/// The sample's binomialOptionsCPU in double precision.
double binomial_call(double s, double x, double t, double r, double v) {
  const double dt = t / kSteps;
  const double v_dt = v * std::sqrt(dt);
  const double u = std::exp(v_dt);
  const double d = std::exp(-v_dt);
  const double pu = (std::exp(r * dt) - d) / (u - d);
  const double df = std::exp(-r * dt);
  std::vector<double> call(kSteps + 1);
  for (int i = 0; i <= kSteps; ++i) {
    call[i] = std::max(s * std::exp(v_dt * (2.0 * i - kSteps)) - x, 0.0);
  }
  for (int i = kSteps; i > 0; --i) {
    for (int j = 0; j < i; ++j) {
      call[j] = pu * df * call[j + 1] + (1 - pu) * df * call[j];
    }
  }
  return call[0];
}

/// Options through the static __constant__ d_OptionData, prices out of the static __device__
/// d_CallValue (the sample's binomialOptionsGPU and its cudaMemcpy{To,From}Symbol).
TEST_F(Corpus, BinomialOptionsThroughDeviceVariables) {
  const Program p = sample("5_Domain_Specific/binomialOptions/binomialOptions_kernel.cu",
                           {"binomialOptionsKernel"});
  constexpr int options = 48;
  constexpr double riskfree = 0.06;
  constexpr double volatility = 0.10;
  const auto s = random_vector<float>(options, 5.0f, 30.0f);
  const auto x = random_vector<float>(options, 1.0f, 100.0f);
  const auto t = random_vector<float>(options, 0.25f, 10.0f);
  std::vector<OptionData> data(options);
  for (int i = 0; i < options; ++i) {
    const double dt = t[i] / kSteps;
    const double v_dt = volatility * std::sqrt(dt);
    const double u = std::exp(v_dt);
    const double d = std::exp(-v_dt);
    const double pu = (std::exp(riskfree * dt) - d) / (u - d);
    const double df = std::exp(-riskfree * dt);
    data[i] = {s[i], x[i], static_cast<float>(v_dt), static_cast<float>(pu * df),
               static_cast<float>((1 - pu) * df)};
  }
  constexpr int max_options = 1024;  // MAX_OPTIONS
  p.symbol<OptionData[max_options]>("d_OptionData", device).write(data);
  p.kernel<>("binomialOptionsKernel", device)
      .launch(LaunchConfig{.grid = {options}, .block = {128}});
  std::vector<float> prices(max_options);
  p.symbol<float[max_options]>("d_CallValue", device)
      .read(*reinterpret_cast<float(*)[max_options]>(prices.data()));
  double sum_delta = 0;
  double sum_ref = 0;
  for (int i = 0; i < options; ++i) {
    const double ref = binomial_call(s[i], x[i], t[i], riskfree, volatility);
    sum_delta += std::fabs(prices[i] - ref);
    sum_ref += ref;
  }
  EXPECT_LT(sum_delta / sum_ref, 5e-4);  // the sample's criterion
}

}  // namespace
}  // namespace kjit::test
