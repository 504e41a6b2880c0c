// The CPU backend against ahead-of-time OpenMP loops, in one run: element-wise kernels and
// Mandelbrot on all cores, and the cold compile time of every kernel of kernels/.
// Run through scripts/benchmarks.sh, which takes medians of repetitions and prints the ratios.
#include "openmp_baselines.hpp"
#include "source_dir.hpp"

#include <kjit/kjit.hpp>

#include <benchmark/benchmark.h>

#include <cstdlib>

#include <cmath>
#include <filesystem>
#include <span>
#include <string>
#include <vector>

#include "mandelbrot.h"

namespace {

using kjit::LaunchConfig;

std::filesystem::path kernel(const std::string& name) {
  return kjit::bench::kernel_file(name);
}

kjit::Device& device() {
  static kjit::Device d = kjit::Device::select("cpu");
  return d;
}

constexpr int kElements = 1 << 24;

MandelbrotView mandelbrot_view() {
  return {-2.1f, -1.2f, 3.0f / 1024.0f, 1024, 800, 256};
}

void set_bytes(benchmark::State& state, std::size_t bytes_per_iteration) {
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * bytes_per_iteration));
}

void kjit_vadd(benchmark::State& state) {
  auto k = kjit::Program::from_file(kernel("vadd.cu"))
               .kernel<const float*, const float*, float*, int>("vadd", device());
  auto a = device().upload(std::vector<float>(kElements, 1.0f));
  auto b = device().upload(std::vector<float>(kElements, 2.0f));
  auto c = device().alloc<float>(kElements);
  kjit::Stream s = device().default_stream();
  for (auto _ : state) {
    k.launch(LaunchConfig::for_elements(kElements), a, b, c, kElements);
    s.synchronize();
  }
  set_bytes(state, 3ULL * kElements * sizeof(float));
}

void omp_vadd(benchmark::State& state) {
  std::vector<float> a(kElements, 1.0f), b(kElements, 2.0f), c(kElements);
  for (auto _ : state) {
    kjit::bench::omp_vadd(a.data(), b.data(), c.data(), kElements);
    benchmark::DoNotOptimize(c.data());
  }
  set_bytes(state, 3ULL * kElements * sizeof(float));
}

// saxpy<float>, one element per thread; or saxpy_grid_stride<float>, a grid-stride loop over a
// fixed grid of four blocks per core, as CUDA code sizes grids.
void kjit_saxpy(benchmark::State& state, bool grid_stride) {
  auto k = kjit::Program::from_file(kernel("saxpy.cu"))
               .kernel<float, const float*, float*, int>(
                   grid_stride ? "saxpy_grid_stride<float>" : "saxpy<float>", device());
  auto x = device().upload(std::vector<float>(kElements, 1.0f));
  auto y = device().upload(std::vector<float>(kElements, 2.0f));
  kjit::Stream s = device().default_stream();
  const LaunchConfig config =
      grid_stride ? LaunchConfig{.grid = {4 * device().info().compute_units}, .block = {256}}
                  : LaunchConfig::for_elements(kElements);
  for (auto _ : state) {
    k.launch(config, 0.5f, x, y, kElements);
    s.synchronize();
  }
  set_bytes(state, 3ULL * kElements * sizeof(float));
}

void omp_saxpy(benchmark::State& state) {
  std::vector<float> x(kElements, 1.0f), y(kElements, 2.0f);
  for (auto _ : state) {
    kjit::bench::omp_saxpy(0.5f, x.data(), y.data(), kElements);
    benchmark::DoNotOptimize(y.data());
  }
  set_bytes(state, 3ULL * kElements * sizeof(float));
}

void kjit_mandelbrot(benchmark::State& state) {
  auto k = kjit::Program::from_file(kernel("mandelbrot.cu"))
               .kernel<MandelbrotView, int*>("mandelbrot", device());
  const MandelbrotView v = mandelbrot_view();
  auto out = device().alloc<int>(static_cast<std::size_t>(v.width) * v.height);
  const LaunchConfig config{.grid = {(v.width + 15U) / 16U, (v.height + 15U) / 16U, 1},
                            .block = {16, 16, 1}};
  kjit::Stream s = device().default_stream();
  for (auto _ : state) {
    k.launch(config, v, out);
    s.synchronize();
  }
}

void omp_mandelbrot(benchmark::State& state) {
  const MandelbrotView v = mandelbrot_view();
  std::vector<int> out(static_cast<std::size_t>(v.width) * v.height);
  for (auto _ : state) {
    kjit::bench::omp_mandelbrot(v, out.data());
    benchmark::DoNotOptimize(out.data());
  }
}

// kernels/nbody.cu's step for 4096 bodies in double precision, blocks of 128 threads: its
// `#pragma unroll 128` loop between barriers.
constexpr int kBodies = 4096;

std::vector<double> nbody_bodies() {
  std::vector<double> b(4 * kBodies);
  for (int i = 0; i < kBodies; ++i) {
    b[4 * i] = std::sin(i * 0.37);
    b[4 * i + 1] = std::cos(i * 0.71);
    b[4 * i + 2] = std::sin(i * 1.13);
    b[4 * i + 3] = 0.5 + 0.5 * std::fabs(std::cos(i * 0.29));
  }
  return b;
}

void kjit_nbody(benchmark::State& state) {
  struct Body {
    double x, y, z, mass;
  };
  auto k =
      kjit::Program::from_file(kernel("nbody.cu"))
          .kernel<const Body*, double*, Body*, int, double, double>("nbody_step<double>", device());
  const std::vector<double> host = nbody_bodies();
  auto bodies = device().alloc<Body>(kBodies);
  bodies.upload(std::span<const Body>(reinterpret_cast<const Body*>(host.data()), kBodies));
  auto velocity = device().upload(std::vector<double>(3 * kBodies, 0.0));
  auto next = device().alloc<Body>(kBodies);
  kjit::Stream s = device().default_stream();
  constexpr unsigned block = 128;
  for (auto _ : state) {
    k.launch(
        LaunchConfig{
            .grid = {kBodies / block}, .block = {block}, .shared_bytes = block * sizeof(Body)},
        bodies, velocity, next, kBodies, 0.001, 0.01);
    s.synchronize();
  }
}

void omp_nbody(benchmark::State& state) {
  const std::vector<double> bodies = nbody_bodies();
  std::vector<double> velocity(3 * kBodies, 0.0);
  std::vector<double> next(4 * kBodies);
  for (auto _ : state) {
    kjit::bench::omp_nbody(bodies.data(), velocity.data(), next.data(), kBodies, 0.001, 0.01);
    benchmark::DoNotOptimize(next.data());
  }
}

// Compile from source to a loaded, launchable kernel; a new Program each time (no cache yet).
template <class... Params>
void cold_compile(benchmark::State& state, const char* file, const char* name) {
  for (auto _ : state) {
    auto k = kjit::Program::from_file(kernel(file)).kernel<Params...>(name, device());
    benchmark::DoNotOptimize(k);
  }
}

}  // namespace

BENCHMARK(kjit_vadd)->Name("elementwise/vadd/kjit")->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(omp_vadd)->Name("elementwise/vadd/openmp")->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK_CAPTURE(kjit_saxpy, one_each, false)
    ->Name("elementwise/saxpy/kjit")
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK(omp_saxpy)
    ->Name("elementwise/saxpy/openmp")
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK_CAPTURE(kjit_saxpy, grid_stride, true)
    ->Name("elementwise/saxpy_grid_stride/kjit")
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK(omp_saxpy)
    ->Name("elementwise/saxpy_grid_stride/openmp")
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK(kjit_mandelbrot)
    ->Name("mandelbrot/1024x800x256/kjit")
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK(omp_mandelbrot)
    ->Name("mandelbrot/1024x800x256/openmp")
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK(kjit_nbody)->Name("nbody/4096_double/kjit")->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(omp_nbody)
    ->Name("nbody/4096_double/openmp")
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

int main(int argc, char** argv) {
  // Cold compiles are measured here: the disk cache would turn them into loads
  // (kjit_bench_cache measures those).
  setenv("KJIT_CACHE", "off", 1);  // NOLINT(concurrency-mt-unsafe): before any thread starts
  benchmark::Initialize(&argc, argv);
  const auto compile = [](const char* name, auto fn) {
    benchmark::RegisterBenchmark(name, fn)->Unit(benchmark::kMillisecond)->UseRealTime();
  };
  compile("cold_compile/vadd", [](benchmark::State& s) {
    cold_compile<const float*, const float*, float*, int>(s, "vadd.cu", "vadd");
  });
  compile("cold_compile/saxpy", [](benchmark::State& s) {
    cold_compile<float, const float*, float*, int>(s, "saxpy.cu", "saxpy<float>");
  });
  compile("cold_compile/mandelbrot", [](benchmark::State& s) {
    cold_compile<MandelbrotView, int*>(s, "mandelbrot.cu", "mandelbrot");
  });
  compile("cold_compile/reduce_sum", [](benchmark::State& s) {
    cold_compile<const int*, int*, int>(s, "reduction.cu", "reduce_sum<int>");
  });
  compile("cold_compile/reduce_sum_shfl", [](benchmark::State& s) {
    cold_compile<const int*, int*, int>(s, "warp_reduction.cu", "reduce_sum_shfl<int>");
  });
  compile("cold_compile/softmax_rows", [](benchmark::State& s) {
    cold_compile<const float*, float*, int, int>(s, "softmax.cu", "softmax_rows");
  });
  compile("cold_compile/matmul_tiled", [](benchmark::State& s) {
    cold_compile<const float*, const float*, float*, int, int, int>(s, "matmul.cu", "matmul_tiled");
  });
  compile("cold_compile/transpose", [](benchmark::State& s) {
    cold_compile<const float*, float*, int, int>(s, "transpose.cu", "transpose");
  });
  compile("cold_compile/jacobi2d", [](benchmark::State& s) {
    cold_compile<const float*, float*, int, int>(s, "stencil2d.cu", "jacobi2d");
  });
  compile("cold_compile/bitonic_step", [](benchmark::State& s) {
    cold_compile<unsigned*, int, int, int>(s, "bitonic_sort.cu", "bitonic_step");
  });
  compile("cold_compile/nbody_step_double", [](benchmark::State& s) {
    struct Body {
      double x, y, z, mass;
    };
    cold_compile<const Body*, double*, Body*, int, double, double>(s, "nbody.cu",
                                                                   "nbody_step<double>");
  });
  benchmark::AddCustomContext("kjit_device", device().info().id() + " " + device().info().name);
  benchmark::AddCustomContext("openmp_threads", std::to_string(kjit::bench::omp_threads()));
  benchmark::AddCustomContext("kjit_threads", std::to_string(device().info().compute_units));
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
