// The corpus's reduction files (tests/corpus/README.md): cuda-samples' reduction (eight kernels
// and a cooperative-groups one), threadFenceReduction (the last block sums the others' results)
// and scalarProd, each launched as its own host code launches it, on random inputs, checked
// against a sum on the host. The first two reduce within warps, with shuffles and cooperative
// groups' tiles, on every backend.
#include "corpus.hpp"

#include <cmath>
#include <numeric>

namespace kjit::test {
namespace {

const char* const kReduction = "2_Concepts_and_Techniques/reduction/reduction_kernel.cu";

/// One of the sample's kernels on `in`, as its reduce<T>() launches it: partial sums per block,
/// which the host adds up (the sample's cpuFinalReduction).
template <class T>
T reduce_on_device(Corpus& t, const Program& p, const std::string& kernel, DeviceBuffer<T>& in,
                   unsigned n, unsigned threads, unsigned blocks) {
  auto partial = t.poisoned<T>(blocks);
  const unsigned shared = (threads <= 32 ? 2 : 1) * threads * sizeof(T);
  p.kernel<T*, T*, unsigned>(kernel, t.device)
      .launch(LaunchConfig{.grid = {blocks}, .block = {threads}, .shared_bytes = shared}, in,
              partial, n);
  const auto sums = partial.download();
  return std::accumulate(sums.begin(), sums.end(), T{0});
}

/// The blocks each kernel takes for n elements (the sample's getNumBlocksAndThreads).
unsigned blocks_for(int which, unsigned n, unsigned threads) {
  const unsigned per_block = which < 3 ? threads : 2 * threads;
  const unsigned blocks = (n + per_block - 1) / per_block;
  return which >= 6 ? std::min(blocks, 64U) : blocks;
}

TEST_F(Corpus, ReductionEveryKernel) {
  const Program p = sample(kReduction);
  constexpr unsigned threads = 256;
  for (const unsigned n : {1U << 20, 1000003U}) {
    SCOPED_TRACE("n = " + std::to_string(n));
    const std::string pow2 = (n & (n - 1)) == 0 ? "true" : "false";
    const auto ints = random_vector<int>(n, 0, 255);  // the sample's rand() & 0xFF
    auto d_ints = device.upload(ints);
    const long long want = std::accumulate(ints.begin(), ints.end(), 0LL);
    const std::vector<std::pair<int, std::string>> kernels = {
        {0, "reduce0<int>"},
        {1, "reduce1<int>"},
        {2, "reduce2<int>"},
        {3, "reduce3<int>"},
        {4, "reduce4<int, 256>"},
        {5, "reduce5<int, 256>"},
        {6, "reduce6<int, 256, " + pow2 + ">"},
        {7, "reduce7<int, 256, " + pow2 + ">"},
        {8, "cg_reduce<int>"},
    };
    for (const auto& [which, name] : kernels) {
      EXPECT_EQ(reduce_on_device(*this, p, name, d_ints, n, threads, blocks_for(which, n, threads)),
                want)
          << name;
    }
    // Floating point with the sample's inputs and criterion (1e-8 * n for float).
    std::vector<float> floats(n);
    std::vector<double> doubles(n);
    for (unsigned i = 0; i < n; ++i) {
      floats[i] = static_cast<float>(ints[i]) / 2147483647.0f;  // (rand() & 0xFF) / RAND_MAX
      doubles[i] = ints[i] / 2147483647.0;
    }
    const double f_want = std::accumulate(floats.begin(), floats.end(), 0.0);
    const double d_want = std::accumulate(doubles.begin(), doubles.end(), 0.0);
    auto d_floats = device.upload(floats);
    auto d_doubles = device.upload(doubles);
    EXPECT_NEAR(reduce_on_device(*this, p, "reduce6<float, 256, " + pow2 + ">", d_floats, n,
                                 threads, blocks_for(6, n, threads)),
                f_want, 1e-8 * n);
    EXPECT_NEAR(reduce_on_device(*this, p, "reduce7<double, 256, " + pow2 + ">", d_doubles, n,
                                 threads, blocks_for(7, n, threads)),
                d_want, 1e-12 * n);
  }
}

TEST_F(Corpus, ReductionMultiWarpTilesAreRefusedByName) {
  const Program p = sample(kReduction);
  auto e = expect_throw<CompileError>(
      [&] { (void)p.kernel<int*, int*, unsigned>("multi_warp_cg_reduce<int, 256, 64>", device); });
  // Clang stops at the tile memory's declaration, NVRTC at the tile made with it.
  expect_located(e, "reduction_kernel.cu", on_cpu() ? 576 : 581, "multi-warp tiles");
}

TEST_F(Corpus, ThreadFenceReductionLastBlockSumsTheOthers) {
  // Built together, so that the kernels share one retirementCount, as in the sample's binary.
  const Program p =
      sample("2_Concepts_and_Techniques/threadFenceReduction/threadFenceReduction_kernel.cuh",
             {"reduceSinglePass<128, true>", "reduceSinglePass<128, false>",
              "reduceMultiPass<128, true>", "reduceMultiPass<128, false>"});
  constexpr unsigned threads = 128;
  for (const unsigned n : {1U << 20, 777777U}) {
    SCOPED_TRACE("n = " + std::to_string(n));
    const std::string pow2 = (n & (n - 1)) == 0 ? "true" : "false";
    const auto in = random_vector<float>(n, 0.0f, 1.0f);
    auto d_in = device.upload(in);
    const double want = std::accumulate(in.begin(), in.end(), 0.0);
    const unsigned blocks = std::min((n + 2 * threads - 1) / (2 * threads), 64U);
    const LaunchConfig config{
        .grid = {blocks}, .block = {threads}, .shared_bytes = threads * sizeof(float)};
    // Twice: the kernel resets its __device__ retirementCount for the next launch.
    for (int run = 0; run < 2; ++run) {
      auto out = poisoned<float>(blocks);
      p.kernel<const float*, float*, unsigned>(
           "reduceSinglePass<" + std::to_string(threads) + ", " + pow2 + ">", device)
          .launch(config, d_in, out, n);
      EXPECT_NEAR(out.download()[0], want, 1e-5 * want) << "run " << run;
      EXPECT_EQ(p.symbol<unsigned>("retirementCount", device).read(), 0U);
    }
    auto partial = poisoned<float>(blocks);
    p.kernel<const float*, float*, unsigned>(
         "reduceMultiPass<" + std::to_string(threads) + ", " + pow2 + ">", device)
        .launch(config, d_in, partial, n);
    const auto sums = partial.download();
    EXPECT_NEAR(std::accumulate(sums.begin(), sums.end(), 0.0), want, 1e-5 * want);
  }
}

TEST_F(Corpus, ScalarProd) {
  const Program p = sample("2_Concepts_and_Techniques/scalarProd/scalarProd_kernel.cuh");
  constexpr int vectors = 256;    // VECTOR_N
  constexpr int elements = 4096;  // ELEMENT_N
  const auto a = random_vector<float>(vectors * elements, 0.0f, 1.0f);
  const auto b = random_vector<float>(vectors * elements, 0.0f, 1.0f);
  auto d_a = device.upload(a);
  auto d_b = device.upload(b);
  auto d_c = poisoned<float>(vectors);
  p.kernel<float*, float*, float*, int, int>("scalarProdGPU", device)
      .launch(LaunchConfig{.grid = {128}, .block = {256}}, d_c, d_a, d_b, vectors, elements);
  const auto c = d_c.download();
  double sum_delta = 0;
  double sum_ref = 0;
  for (int v = 0; v < vectors; ++v) {  // the sample's scalarProdCPU and L1 criterion
    double ref = 0;
    for (int i = v * elements; i < (v + 1) * elements; ++i) {
      ref += static_cast<double>(a[i]) * b[i];
    }
    sum_delta += std::fabs(c[v] - ref);
    sum_ref += ref;
  }
  EXPECT_LT(sum_delta / sum_ref, 1e-6);
}

}  // namespace
}  // namespace kjit::test
