// Runtime specialisation's effect (Kernel::specialize, specialize_block): kernels of kernels/
// launched as they are (<case>/unspecialised) and as a variant with their scalar arguments and
// block size fixed (<case>/kjit), in one process, on the device KJIT_DEVICE selects; and the
// one-off cost of compiling a variant for values never seen before (cold_compile/<case>), and
// the cost of a launch of an annotated kernel whose variant is ready (launch/...).
#include "bench_main.hpp"
#include "source_dir.hpp"

#include <kjit/kjit.hpp>

#include <benchmark/benchmark.h>

#include <cstdint>
#include <map>
#include <random>
#include <string>
#include <vector>

namespace {

using kjit::LaunchConfig;

kjit::Device& device() {
  static kjit::Device d = kjit::Device::select();
  return d;
}

bool on_gpu() {
  return device().info().backend != kjit::BackendKind::cpu;
}

/// Problem sizes: a GPU gets 4 to 16 times the CPU's work, and launches 20 times per timing so
/// that its launch latency does not hide the kernels' own time.
int scaled(int cpu, int gpu) {
  return on_gpu() ? gpu : cpu;
}
int launches() {
  return on_gpu() ? 20 : 1;
}

const kjit::Program& program(const std::string& file) {
  static std::map<std::string, kjit::Program> programs;
  auto it = programs.find(file);
  if (it == programs.end()) {
    it = programs.emplace(file, kjit::Program::from_file(kjit::bench::kernel_file(file))).first;
  }
  return it->second;
}

template <class Launch>
void timed(benchmark::State& state, Launch&& launch) {
  launch();  // compiled and warm before the clock starts
  device().synchronize();
  for (auto _ : state) {
    for (int i = 0; i < launches(); ++i) {
      launch();
    }
    device().synchronize();
  }
}

/// A value never seen before, so that a variant of it is not in any cache.
double fresh_value() {
  static std::mt19937_64 rng{std::random_device{}()};
  return 1.0 + static_cast<double>(rng() >> 11) * 0x1.0p-53;
}

// ---- RAJAPerf rows (kernels/rajaperf.cu) ---------------------------------------------------

void daxpy(benchmark::State& state, bool fixed) {
  const int n = scaled(1 << 22, 1 << 24);
  auto k = program("rajaperf.cu").kernel<double*, const double*, double, int>("daxpy", device());
  auto y = device().upload(std::vector<double>(n, 1.0));
  auto x = device().upload(std::vector<double>(n, 2.0));
  const LaunchConfig config = LaunchConfig::for_elements(n, 256);
  if (fixed) {
    auto v = k.specialize<2, 3>(1e-9, n).specialize_block(config.block);
    timed(state, [&] { v.launch(config, y, x); });
  } else {
    timed(state, [&] { k.launch(config, y, x, 1e-9, n); });
  }
}

void triad(benchmark::State& state, bool fixed) {
  const int n = scaled(1 << 22, 1 << 24);
  auto k = program("rajaperf.cu")
               .kernel<double*, const double*, const double*, double, int>("triad", device());
  auto a = device().upload(std::vector<double>(n, 0.0));
  auto b = device().upload(std::vector<double>(n, 1.0));
  auto c = device().upload(std::vector<double>(n, 2.0));
  const LaunchConfig config = LaunchConfig::for_elements(n, 256);
  if (fixed) {
    auto v = k.specialize<3, 4>(0.5, n).specialize_block(config.block);
    timed(state, [&] { v.launch(config, a, b, c); });
  } else {
    timed(state, [&] { k.launch(config, a, b, c, 0.5, n); });
  }
}

void fir(benchmark::State& state, bool fixed) {
  const int n = scaled(1 << 22, 1 << 24);
  auto k =
      program("rajaperf.cu").kernel<double*, const double*, const double*, int>("fir", device());
  auto out = device().upload(std::vector<double>(n, 0.0));
  auto in = device().upload(std::vector<double>(n, 1.0));
  auto coeff = device().upload(std::vector<double>(16, 0.0625));
  const LaunchConfig config = LaunchConfig::for_elements(n, 256);
  if (fixed) {
    auto v = k.specialize<3>(n).specialize_block(config.block);
    timed(state, [&] { v.launch(config, out, in, coeff); });
  } else {
    timed(state, [&] { k.launch(config, out, in, coeff, n); });
  }
}

void jacobi_2d(benchmark::State& state, bool fixed) {
  const int n = scaled(2048, 4096);
  auto k = program("rajaperf.cu").kernel<double*, const double*, int>("jacobi_2d", device());
  const std::size_t points = static_cast<std::size_t>(n) * n;
  auto a = device().upload(std::vector<double>(points, 1.0));
  auto b = device().upload(std::vector<double>(points, 0.0));
  const unsigned tiles = (n - 2 + 15) / 16;
  const LaunchConfig config{.grid = {tiles, tiles}, .block = {16, 16}};
  if (fixed) {
    auto v = k.specialize<2>(n).specialize_block(config.block);
    timed(state, [&] {
      v.launch(config, b, a);
      v.launch(config, a, b);
    });
  } else {
    timed(state, [&] {
      k.launch(config, b, a, n);
      k.launch(config, a, b, n);
    });
  }
}

void mat_mat_shared(benchmark::State& state, bool fixed) {
  const int n = scaled(512, 2048);
  auto k = program("rajaperf.cu")
               .kernel<const double*, const double*, double*, int>("mat_mat_shared", device());
  const std::size_t n2 = static_cast<std::size_t>(n) * n;
  auto a = device().upload(std::vector<double>(n2, 1.0));
  auto b = device().upload(std::vector<double>(n2, 2.0));
  auto c = device().alloc<double>(n2);
  const unsigned tiles = (n + 15) / 16;
  const LaunchConfig config{.grid = {tiles, tiles}, .block = {16, 16}};
  if (fixed) {
    auto v = k.specialize<3>(n).specialize_block(config.block);
    timed(state, [&] { v.launch(config, a, b, c); });
  } else {
    timed(state, [&] { k.launch(config, a, b, c, n); });
  }
}

void pi_atomic(benchmark::State& state, bool fixed) {
  const int n = scaled(1 << 20, 1 << 22);
  auto k = program("rajaperf.cu").kernel<double*, double, int>("pi_atomic", device());
  auto pi = device().upload(std::vector<double>(1, 0.0));
  const double dx = 1.0 / n;
  const LaunchConfig config = LaunchConfig::for_elements(n, 256);
  if (fixed) {
    auto v = k.specialize<1, 2>(dx, n).specialize_block(config.block);
    timed(state, [&] { v.launch(config, pi); });
  } else {
    timed(state, [&] { k.launch(config, pi, dx, n); });
  }
}

// ---- reduction, stencil and matmul (kernels/reduction.cu, stencil2d.cu, matmul.cu) ----------

void reduce_sum(benchmark::State& state, bool fixed) {
  const int n = scaled(1 << 22, 1 << 24);
  auto k = program("reduction.cu").kernel<const double*, double*, int>("reduce_sum", device());
  auto in = device().upload(std::vector<double>(n, 1.0));
  auto sum = device().upload(std::vector<double>(1, 0.0));
  const LaunchConfig config{.grid = {device().info().compute_units * 4}, .block = {256}};
  if (fixed) {
    auto v = k.specialize<2>(n).specialize_block(config.block);
    timed(state, [&] { v.launch(config, in, sum); });
  } else {
    timed(state, [&] { k.launch(config, in, sum, n); });
  }
}

void stencil(benchmark::State& state, bool fixed) {
  const int w = scaled(2048, 8192);
  const int h = w;
  auto k = program("stencil2d.cu").kernel<const float*, float*, int, int>("jacobi2d", device());
  auto in = device().upload(std::vector<float>(std::size_t(w) * h, 1.0f));
  auto out = device().alloc<float>(std::size_t(w) * h);
  const LaunchConfig config{.grid = {unsigned(w + 15) / 16, unsigned(h + 15) / 16},
                            .block = {16, 16}};
  if (fixed) {
    auto v = k.specialize<2, 3>(w, h).specialize_block(config.block);
    timed(state, [&] { v.launch(config, in, out); });
  } else {
    timed(state, [&] { k.launch(config, in, out, w, h); });
  }
}

void matmul(benchmark::State& state, bool fixed) {
  const int m = scaled(512, 2048);
  auto k = program("matmul.cu")
               .kernel<const float*, const float*, float*, int, int, int>("matmul_tiled", device());
  auto a = device().upload(std::vector<float>(std::size_t(m) * m, 0.5f));
  auto b = device().upload(std::vector<float>(std::size_t(m) * m, 0.25f));
  auto c = device().alloc<float>(std::size_t(m) * m);
  const unsigned tile = 16;
  const LaunchConfig config{.grid = {m / tile, m / tile},
                            .block = {tile, tile},
                            .shared_bytes = std::size_t{2} * tile * tile * sizeof(float)};
  if (fixed) {
    auto v = k.specialize<3, 4, 5>(m, m, m).specialize_block(config.block);
    timed(state, [&] { v.launch(config, a, b, c); });
  } else {
    timed(state, [&] { k.launch(config, a, b, c, m, m, m); });
  }
}

// ---- the one-off cost of a variant ---------------------------------------------------------

/// specialize() for a value no cache holds: the program's text compiled again and loaded.
void cold_variant(benchmark::State& state, const std::string& file, const std::string& kernel) {
  (void)program(file);
  for (auto _ : state) {
    const double value = fresh_value();
    if (kernel == "daxpy") {
      auto k = program(file).kernel<double*, const double*, double, int>(kernel, device());
      benchmark::DoNotOptimize(k.specialize<2>(value));
    } else if (kernel == "mat_mat_shared") {
      auto k = program(file).kernel<const double*, const double*, double*, int>(kernel, device());
      benchmark::DoNotOptimize(k.specialize<3>(static_cast<int>(value * 1e9)));
    } else {
      auto k = program(file).kernel<const double*, double*, int>(kernel, device());
      benchmark::DoNotOptimize(k.specialize<2>(static_cast<int>(value * 1e9)));
    }
  }
}

// ---- the cost of a launch that folds its arguments -----------------------------------------

/// The same one-line kernel with Proteus's annotation on `n` and without: a launch of the first
/// builds the folded values, finds their variant and passes the other arguments on.
constexpr const char* kLaunchSource = R"(
__global__ __attribute__((annotate("jit", 2))) void set_folded(int* out, int n) {
  if (threadIdx.x == 0) out[blockIdx.x] = n;
}
__global__ void set_plain(int* out, int n) {
  if (threadIdx.x == 0) out[blockIdx.x] = n;
})";

/// 100 launches of a variant that is ready (or of the plain kernel) and a wait.
void launch_cost(benchmark::State& state, bool annotated) {
  static const kjit::Program launching = [] {
    kjit::CompileOptions options;
    options.launch_waits_for_variants = true;  // the variant is ready before the clock starts
    return kjit::Program::from_source("launch_cost.cu", kLaunchSource, std::move(options));
  }();
  auto k = launching.kernel<int*, int>(annotated ? "set_folded" : "set_plain", device());
  auto out = device().alloc<int>(1);
  const LaunchConfig one{};
  k.launch(one, out, 7);
  device().synchronize();
  for (auto _ : state) {
    for (int i = 0; i < 100; ++i) {
      k.launch(one, out, 7);
    }
    device().synchronize();
  }
}

void ms(benchmark::internal::Benchmark* b) {
  b->Unit(benchmark::kMillisecond)->UseRealTime();
}

#define KJIT_SPECIALIZE_CASE(NAME, FUNCTION)                                             \
  BENCHMARK_CAPTURE(FUNCTION, fixed, true)->Name("specialize/" NAME "/kjit")->Apply(ms); \
  BENCHMARK_CAPTURE(FUNCTION, plain, false)->Name("specialize/" NAME "/unspecialised")->Apply(ms)

KJIT_SPECIALIZE_CASE("DAXPY", daxpy);
KJIT_SPECIALIZE_CASE("TRIAD", triad);
KJIT_SPECIALIZE_CASE("FIR", fir);
KJIT_SPECIALIZE_CASE("JACOBI_2D", jacobi_2d);
KJIT_SPECIALIZE_CASE("MAT_MAT_SHARED", mat_mat_shared);
KJIT_SPECIALIZE_CASE("PI_ATOMIC", pi_atomic);
KJIT_SPECIALIZE_CASE("REDUCE_SUM", reduce_sum);
KJIT_SPECIALIZE_CASE("stencil2d", stencil);
KJIT_SPECIALIZE_CASE("matmul_tiled", matmul);

BENCHMARK_CAPTURE(launch_cost, folded, true)
    ->Name("launch/100 of an annotated kernel/kjit")
    ->Unit(benchmark::kMicrosecond)
    ->UseRealTime();
BENCHMARK_CAPTURE(launch_cost, plain, false)
    ->Name("launch/100 of an annotated kernel/unspecialised")
    ->Unit(benchmark::kMicrosecond)
    ->UseRealTime();

BENCHMARK_CAPTURE(cold_variant, daxpy, std::string("rajaperf.cu"), std::string("daxpy"))
    ->Name("cold_compile/variant of daxpy")
    ->Iterations(3)
    ->Apply(ms);
BENCHMARK_CAPTURE(cold_variant, mat_mat, std::string("rajaperf.cu"), std::string("mat_mat_shared"))
    ->Name("cold_compile/variant of mat_mat_shared")
    ->Iterations(3)
    ->Apply(ms);
BENCHMARK_CAPTURE(cold_variant, reduce, std::string("reduction.cu"), std::string("reduce_sum"))
    ->Name("cold_compile/variant of reduce_sum<double>")
    ->Iterations(3)
    ->Apply(ms);

}  // namespace

int main(int argc, char** argv) {
  return kjit::bench::run_on_device(argc, argv, device().info());
}
