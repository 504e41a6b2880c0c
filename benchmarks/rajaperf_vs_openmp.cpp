// RAJAPerf's kernels (kernels/rajaperf.cu; REDUCE_SUM is reduce_sum<double> of reduction.cu) on
// the CPU backend against the same loops as ahead-of-time OpenMP, and the cost of launching an
// empty kernel against entering an empty OpenMP parallel loop. Part of kjit_bench_cpu.
#include "openmp_baselines.hpp"
#include "rajaperf_openmp.hpp"
#include "source_dir.hpp"

#include <kjit/kjit.hpp>

#include <benchmark/benchmark.h>

#include <cmath>  // before rajaperf.h
#include <filesystem>
#include <string>
#include <vector>

#include "rajaperf.h"
#include "raw_pointer.hpp"

namespace {

using kjit::LaunchConfig;

kjit::Device& device() {
  static kjit::Device d = kjit::Device::select("cpu");
  return d;
}

const kjit::Program& rajaperf() {
  static const kjit::Program p = kjit::Program::from_file(kjit::bench::kernel_file("rajaperf.cu"));
  return p;
}

constexpr int kStream = 1 << 24;  // DAXPY, TRIAD, REDUCE_SUM, FIR
constexpr int kEnergy = 1 << 22;
constexpr int kPi = 1 << 20;
constexpr int kJacobi = 2048;  // n x n
constexpr int kMatMat = 512;   // n x n

void sync() {
  device().default_stream().synchronize();
}

void kjit_daxpy(benchmark::State& state) {
  auto k = rajaperf().kernel<double*, const double*, double, int>("daxpy", device());
  auto y = device().upload(std::vector<double>(kStream, 1.0));
  auto x = device().upload(std::vector<double>(kStream, 2.0));
  for (auto _ : state) {
    k.launch(LaunchConfig::for_elements(kStream), y, x, 1e-9, kStream);
    sync();
  }
}

void omp_daxpy(benchmark::State& state) {
  std::vector<double> y(kStream, 1.0);
  std::vector<double> x(kStream, 2.0);
  for (auto _ : state) {
    kjit::bench::omp_daxpy(y.data(), x.data(), 1e-9, kStream);
    benchmark::DoNotOptimize(y.data());
  }
}

void kjit_triad(benchmark::State& state) {
  auto k = rajaperf().kernel<double*, const double*, const double*, double, int>("triad", device());
  auto a = device().upload(std::vector<double>(kStream, 0.0));
  auto b = device().upload(std::vector<double>(kStream, 1.0));
  auto c = device().upload(std::vector<double>(kStream, 2.0));
  for (auto _ : state) {
    k.launch(LaunchConfig::for_elements(kStream), a, b, c, 0.5, kStream);
    sync();
  }
}

void omp_triad(benchmark::State& state) {
  std::vector<double> a(kStream, 0.0);
  std::vector<double> b(kStream, 1.0);
  std::vector<double> c(kStream, 2.0);
  for (auto _ : state) {
    kjit::bench::omp_triad(a.data(), b.data(), c.data(), 0.5, kStream);
    benchmark::DoNotOptimize(a.data());
  }
}

constexpr EnergyConstants kEnergyConstants{1.0, 1e-7, -1e15, 1e-7};

void kjit_energy(benchmark::State& state) {
  std::vector<kjit::DeviceBuffer<double>> in;
  in.reserve(13);
  for (int a = 0; a < 13; ++a) {
    in.push_back(device().upload(std::vector<double>(kEnergy, a == 1 ? -0.5 : 0.5)));
  }
  auto e = device().alloc<double>(kEnergy);
  auto q = device().alloc<double>(kEnergy);
  const EnergyArrays v{raw(e),     raw(in[0]), raw(in[1]),  raw(in[2]),  raw(in[3]),
                       raw(q),     raw(in[4]), raw(in[5]),  raw(in[6]),  raw(in[7]),
                       raw(in[8]), raw(in[9]), raw(in[10]), raw(in[11]), raw(in[12])};
  const kjit::Program& p = rajaperf();
  auto k1 = p.kernel<EnergyArrays, int>("energy1", device());
  auto k2 = p.kernel<EnergyArrays, EnergyConstants, int>("energy2", device());
  auto k3 = p.kernel<EnergyArrays, int>("energy3", device());
  auto k4 = p.kernel<EnergyArrays, EnergyConstants, int>("energy4", device());
  auto k5 = p.kernel<EnergyArrays, EnergyConstants, int>("energy5", device());
  auto k6 = p.kernel<EnergyArrays, EnergyConstants, int>("energy6", device());
  const auto config = LaunchConfig::for_elements(kEnergy);
  const EnergyConstants& k = kEnergyConstants;
  for (auto _ : state) {
    k1.launch(config, v, kEnergy);
    k2.launch(config, v, k, kEnergy);
    k3.launch(config, v, kEnergy);
    k4.launch(config, v, k, kEnergy);
    k5.launch(config, v, k, kEnergy);
    k6.launch(config, v, k, kEnergy);
    sync();
  }
}

void omp_energy(benchmark::State& state) {
  std::vector<std::vector<double>> in;
  in.reserve(13);
  for (int a = 0; a < 13; ++a) {
    in.emplace_back(kEnergy, a == 1 ? -0.5 : 0.5);
  }
  std::vector<double> e(kEnergy, 0.0);
  std::vector<double> q(kEnergy, 0.0);
  const EnergyArrays v{e.data(),     in[0].data(), in[1].data(),  in[2].data(),  in[3].data(),
                       q.data(),     in[4].data(), in[5].data(),  in[6].data(),  in[7].data(),
                       in[8].data(), in[9].data(), in[10].data(), in[11].data(), in[12].data()};
  for (auto _ : state) {
    kjit::bench::omp_energy(v, kEnergyConstants, kEnergy);
    benchmark::DoNotOptimize(e.data());
  }
}

void kjit_pi_atomic(benchmark::State& state) {
  auto k = rajaperf().kernel<double*, double, int>("pi_atomic", device());
  auto pi = device().upload(std::vector<double>{0.0});
  for (auto _ : state) {
    k.launch(LaunchConfig::for_elements(kPi), pi, 1.0 / kPi, kPi);
    sync();
  }
}

void omp_pi_atomic(benchmark::State& state) {
  for (auto _ : state) {
    benchmark::DoNotOptimize(kjit::bench::omp_pi_atomic(kPi));
  }
}

// RAJAPerf's two ways of sizing the grid: a few blocks per worker, each thread striding over the
// array ("occgs"), or one element per thread ("direct").
enum class Grid { strided, direct };

/// A sum of kStream doubles by `kernel` of kernels/`file`: reduction.cu's tree in shared memory,
/// or warp_reduction.cu's shuffles, as CUDA's samples write it.
void kjit_reduce_sum(benchmark::State& state, const char* file, const char* kernel, Grid grid) {
  auto k = kjit::Program::from_file(kjit::bench::kernel_file(file))
               .kernel<const double*, double*, int>(kernel, device());
  auto x = device().upload(std::vector<double>(kStream, 1.0));
  auto sum = device().upload(std::vector<double>{0.0});
  const LaunchConfig config =
      grid == Grid::direct
          ? LaunchConfig::for_elements(kStream, 256)
          : LaunchConfig{.grid = {4 * device().info().compute_units}, .block = {256}};
  for (auto _ : state) {
    k.launch(config, x, sum, kStream);
    sync();
  }
}

void omp_reduce_sum(benchmark::State& state) {
  std::vector<double> x(kStream, 1.0);
  for (auto _ : state) {
    benchmark::DoNotOptimize(kjit::bench::omp_reduce_sum(x.data(), kStream));
  }
}

void kjit_fir(benchmark::State& state) {
  auto k = rajaperf().kernel<double*, const double*, const double*, int>("fir", device());
  auto out = device().alloc<double>(kStream);
  auto in = device().upload(std::vector<double>(kStream, 1.0));
  auto coeff = device().upload(std::vector<double>(16, 0.0625));
  for (auto _ : state) {
    k.launch(LaunchConfig::for_elements(kStream), out, in, coeff, kStream);
    sync();
  }
}

void omp_fir(benchmark::State& state) {
  std::vector<double> out(kStream, 0.0);
  std::vector<double> in(kStream, 1.0);
  std::vector<double> coeff(16, 0.0625);
  for (auto _ : state) {
    kjit::bench::omp_fir(out.data(), in.data(), coeff.data(), kStream);
    benchmark::DoNotOptimize(out.data());
  }
}

void kjit_jacobi_2d(benchmark::State& state) {
  auto k = rajaperf().kernel<double*, const double*, int>("jacobi_2d", device());
  const std::size_t points = static_cast<std::size_t>(kJacobi) * kJacobi;
  auto a = device().upload(std::vector<double>(points, 1.0));
  auto b = device().upload(std::vector<double>(points, 0.0));
  const unsigned tiles = (kJacobi - 2 + 15) / 16;
  const LaunchConfig config{.grid = {tiles, tiles}, .block = {16, 16}};
  for (auto _ : state) {
    k.launch(config, b, a, kJacobi);  // both half-steps, as RAJAPerf runs them
    k.launch(config, a, b, kJacobi);
    sync();
  }
}

void omp_jacobi_2d(benchmark::State& state) {
  const std::size_t points = static_cast<std::size_t>(kJacobi) * kJacobi;
  std::vector<double> a(points, 1.0);
  std::vector<double> b(points, 0.0);
  for (auto _ : state) {
    kjit::bench::omp_jacobi_2d(b.data(), a.data(), kJacobi);
    kjit::bench::omp_jacobi_2d(a.data(), b.data(), kJacobi);
    benchmark::DoNotOptimize(a.data());
  }
}

void kjit_mat_mat(benchmark::State& state) {
  auto k =
      rajaperf().kernel<const double*, const double*, double*, int>("mat_mat_shared", device());
  const std::size_t n2 = static_cast<std::size_t>(kMatMat) * kMatMat;
  auto a = device().upload(std::vector<double>(n2, 1.0));
  auto b = device().upload(std::vector<double>(n2, 2.0));
  auto c = device().alloc<double>(n2);
  const unsigned tiles = (kMatMat + 15) / 16;
  for (auto _ : state) {
    k.launch(LaunchConfig{.grid = {tiles, tiles}, .block = {16, 16}}, a, b, c, kMatMat);
    sync();
  }
}

void omp_mat_mat(benchmark::State& state) {
  const std::size_t n2 = static_cast<std::size_t>(kMatMat) * kMatMat;
  std::vector<double> a(n2, 1.0);
  std::vector<double> b(n2, 2.0);
  std::vector<double> c(n2, 0.0);
  for (auto _ : state) {
    kjit::bench::omp_mat_mat(a.data(), b.data(), c.data(), kMatMat);
    benchmark::DoNotOptimize(c.data());
  }
}

// One block of one thread doing nothing, launched and waited for.
void kjit_empty(benchmark::State& state) {
  auto k = kjit::Program::from_source("empty.cu", "__global__ void empty() {}")
               .kernel<>("empty", device());
  for (auto _ : state) {
    k.launch(LaunchConfig{.grid = {1}, .block = {1}});
    sync();
  }
}

/// An empty kernel on 4 blocks of 256 threads per core: the cost of spreading a launch over the
/// workers and waiting for it.
void kjit_empty_grid(benchmark::State& state) {
  auto k = kjit::Program::from_source("empty.cu", "__global__ void empty() {}")
               .kernel<>("empty", device());
  const LaunchConfig config{.grid = {4 * device().info().compute_units}, .block = {256}};
  for (auto _ : state) {
    k.launch(config);
    sync();
  }
}

void omp_empty_grid(benchmark::State& state) {
  const int iterations = 4 * kjit::bench::omp_threads();
  for (auto _ : state) {
    kjit::bench::omp_empty_loop(iterations);
  }
}

void omp_empty(benchmark::State& state) {
  for (auto _ : state) {
    kjit::bench::omp_empty();
  }
}

void ms(benchmark::internal::Benchmark* b) {
  b->Unit(benchmark::kMillisecond)->UseRealTime();
}

}  // namespace

BENCHMARK(kjit_daxpy)->Name("rajaperf/DAXPY/kjit")->Apply(ms);
BENCHMARK(omp_daxpy)->Name("rajaperf/DAXPY/openmp")->Apply(ms);
BENCHMARK(kjit_triad)->Name("rajaperf/TRIAD/kjit")->Apply(ms);
BENCHMARK(omp_triad)->Name("rajaperf/TRIAD/openmp")->Apply(ms);
BENCHMARK(kjit_energy)->Name("rajaperf/ENERGY/kjit")->Apply(ms);
BENCHMARK(omp_energy)->Name("rajaperf/ENERGY/openmp")->Apply(ms);
BENCHMARK(kjit_pi_atomic)->Name("rajaperf/PI_ATOMIC/kjit")->Apply(ms);
BENCHMARK(omp_pi_atomic)->Name("rajaperf/PI_ATOMIC/openmp")->Apply(ms);
BENCHMARK_CAPTURE(kjit_reduce_sum, strided, "reduction.cu", "reduce_sum<double>", Grid::strided)
    ->Name("rajaperf/REDUCE_SUM/kjit")
    ->Apply(ms);
BENCHMARK(omp_reduce_sum)->Name("rajaperf/REDUCE_SUM/openmp")->Apply(ms);
BENCHMARK_CAPTURE(kjit_reduce_sum, direct, "reduction.cu", "reduce_sum<double>", Grid::direct)
    ->Name("rajaperf/REDUCE_SUM_direct/kjit")
    ->Apply(ms);
BENCHMARK(omp_reduce_sum)->Name("rajaperf/REDUCE_SUM_direct/openmp")->Apply(ms);
BENCHMARK_CAPTURE(kjit_reduce_sum, shfl_strided, "warp_reduction.cu", "reduce_sum_shfl<double>",
                  Grid::strided)
    ->Name("rajaperf/REDUCE_SUM_shfl/kjit")
    ->Apply(ms);
BENCHMARK(omp_reduce_sum)->Name("rajaperf/REDUCE_SUM_shfl/openmp")->Apply(ms);
BENCHMARK_CAPTURE(kjit_reduce_sum, shfl_direct, "warp_reduction.cu", "reduce_sum_shfl<double>",
                  Grid::direct)
    ->Name("rajaperf/REDUCE_SUM_shfl_direct/kjit")
    ->Apply(ms);
BENCHMARK(omp_reduce_sum)->Name("rajaperf/REDUCE_SUM_shfl_direct/openmp")->Apply(ms);
BENCHMARK(kjit_mat_mat)->Name("rajaperf/MAT_MAT_SHARED/kjit")->Apply(ms);
BENCHMARK(omp_mat_mat)->Name("rajaperf/MAT_MAT_SHARED/openmp")->Apply(ms);
BENCHMARK(kjit_fir)->Name("rajaperf/FIR/kjit")->Apply(ms);
BENCHMARK(omp_fir)->Name("rajaperf/FIR/openmp")->Apply(ms);
BENCHMARK(kjit_jacobi_2d)->Name("rajaperf/JACOBI_2D/kjit")->Apply(ms);
BENCHMARK(omp_jacobi_2d)->Name("rajaperf/JACOBI_2D/openmp")->Apply(ms);
BENCHMARK(kjit_empty)->Name("launch/empty/kjit")->Unit(benchmark::kMicrosecond)->UseRealTime();
BENCHMARK(omp_empty)->Name("launch/empty/openmp")->Unit(benchmark::kMicrosecond)->UseRealTime();
BENCHMARK(kjit_empty_grid)
    ->Name("launch/empty_4_blocks_per_core/kjit")
    ->Unit(benchmark::kMicrosecond)
    ->UseRealTime();
BENCHMARK(omp_empty_grid)
    ->Name("launch/empty_4_blocks_per_core/openmp")
    ->Unit(benchmark::kMicrosecond)
    ->UseRealTime();
