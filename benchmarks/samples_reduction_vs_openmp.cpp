// cuda-samples' reduction kernels, as the test corpus holds them (reduction_kernel.cu: reduce0 to
// reduce7 and cg_reduce; threadFenceReduction's single-pass kernel), on the CPU backend against
// OpenMP's sum of the same array: each launched as the sample's host code launches it (its
// getNumBlocksAndThreads: 256 threads, at most 64 blocks for the kernels that loop), the partial
// sums left on the device as the sample times them. Part of kjit_bench_cpu.
#include "openmp_baselines.hpp"
#include "source_dir.hpp"

#include <kjit/kjit.hpp>

#include <benchmark/benchmark.h>

#include <algorithm>
#include <string>
#include <vector>

namespace {

using kjit::LaunchConfig;

constexpr unsigned kElements = 1U << 24;  // the sample's default size
constexpr unsigned kThreads = 256;
constexpr unsigned kFenceThreads = 128;  // threadFenceReduction's

kjit::Device& device() {
  static kjit::Device d = kjit::Device::select("cpu");
  return d;
}

void sync() {
  device().default_stream().synchronize();
}

const std::vector<std::string>& reduction_kernels() {
  static const std::vector<std::string> names = {"reduce0<int>",
                                                 "reduce1<int>",
                                                 "reduce2<int>",
                                                 "reduce3<int>",
                                                 "reduce4<int, 256>",
                                                 "reduce5<int, 256>",
                                                 "reduce6<int, 256, true>",
                                                 "reduce7<int, 256, true>",
                                                 "cg_reduce<int>"};
  return names;
}

const kjit::Program& reduction() {
  static const kjit::Program p = [] {
    kjit::CompileOptions options;
    options.include_dirs = {kjit::bench::samples_dir() / "Common"};
    options.kernels = reduction_kernels();
    return kjit::Program::from_file(kjit::bench::samples_dir() /
                                        "Samples/2_Concepts_and_Techniques/reduction/"
                                        "reduction_kernel.cu",
                                    std::move(options));
  }();
  return p;
}

/// The sample's getNumBlocksAndThreads for kernel `which` (8: cg_reduce): from reduce6 on, the
/// kernels loop over the array, in at most 64 blocks.
unsigned blocks_for(unsigned which) {
  const unsigned per_block = which < 3 ? kThreads : 2 * kThreads;
  const unsigned blocks = (kElements + per_block - 1) / per_block;
  return which >= 6 ? std::min(blocks, 64U) : blocks;
}

void kjit_sample_reduce(benchmark::State& state, unsigned which) {
  auto k = reduction().kernel<int*, int*, unsigned>(reduction_kernels()[which], device());
  auto in = device().upload(std::vector<int>(kElements, 1));
  auto partial = device().upload(std::vector<int>(blocks_for(which), 0));
  const LaunchConfig config{
      .grid = {blocks_for(which)}, .block = {kThreads}, .shared_bytes = kThreads * sizeof(int)};
  for (auto _ : state) {
    k.launch(config, in, partial, kElements);
    sync();
  }
}

void omp_sum_ints(benchmark::State& state) {
  const std::vector<int> x(kElements, 1);
  for (auto _ : state) {
    benchmark::DoNotOptimize(kjit::bench::omp_sum_ints(x.data(), static_cast<int>(kElements)));
  }
}

void kjit_thread_fence(benchmark::State& state) {
  kjit::CompileOptions options;
  options.include_dirs = {kjit::bench::samples_dir() / "Common"};
  options.kernels = {"reduceSinglePass<128, true>"};
  const kjit::Program p =
      kjit::Program::from_file(kjit::bench::samples_dir() /
                                   "Samples/2_Concepts_and_Techniques/threadFenceReduction/"
                                   "threadFenceReduction_kernel.cuh",
                               std::move(options));
  auto k = p.kernel<const float*, float*, unsigned>("reduceSinglePass<128, true>", device());
  const unsigned blocks = 64;
  auto in = device().upload(std::vector<float>(kElements, 1.0f));
  auto out = device().upload(std::vector<float>(blocks, 0.0f));
  const LaunchConfig config{
      .grid = {blocks}, .block = {kFenceThreads}, .shared_bytes = kFenceThreads * sizeof(float)};
  for (auto _ : state) {
    k.launch(config, in, out, kElements);
    sync();
  }
}

void omp_sum_floats(benchmark::State& state) {
  const std::vector<float> x(kElements, 1.0f);
  for (auto _ : state) {
    benchmark::DoNotOptimize(kjit::bench::omp_sum_floats(x.data(), static_cast<int>(kElements)));
  }
}

void ms(benchmark::internal::Benchmark* b) {
  b->Unit(benchmark::kMillisecond)->UseRealTime();
}

const bool registered = [] {
  for (unsigned which = 0; which < reduction_kernels().size(); ++which) {
    const std::string name = which == 8 ? "cg_reduce" : "reduce" + std::to_string(which);
    benchmark::RegisterBenchmark(("samples/reduction_" + name + "/kjit").c_str(),
                                 kjit_sample_reduce, which)
        ->Apply(ms);
    benchmark::RegisterBenchmark(("samples/reduction_" + name + "/openmp").c_str(), omp_sum_ints)
        ->Apply(ms);
  }
  return true;
}();

}  // namespace

BENCHMARK(kjit_thread_fence)->Name("samples/threadFenceReduction/kjit")->Apply(ms);
BENCHMARK(omp_sum_floats)->Name("samples/threadFenceReduction/openmp")->Apply(ms);
