// RAJAPerf's kernels (kernels/rajaperf.cu; REDUCE_SUM is reduce_sum<double> of reduction.cu) on
// the CUDA backend against the same source compiled ahead of time by nvcc -O3 and launched raw,
// both timed with CUDA events on one stream. Part of kjit_bench_cuda.
#include "cuda_bench.hpp"

#include <cmath>  // before rajaperf.h
#include <string>
#include <vector>

#include "rajaperf.h"
#include "raw_pointer.hpp"

namespace kjit::bench {

namespace {

constexpr int kStream = 1 << 26;  // DAXPY, TRIAD, REDUCE_SUM, FIR
constexpr int kEnergy = 1 << 24;
constexpr int kPi = 1 << 24;
constexpr int kJacobi = 8192;  // n x n
constexpr int kMatMat = 2048;  // n x n

const kjit::Program& rajaperf() {
  static const kjit::Program p = kjit::Program::from_file(kernel("rajaperf.cu"));
  return p;
}

kjit::DeviceBuffer<double> doubles(std::size_t n, double value) {
  return setup().device.upload(std::vector<double>(n, value));
}

void daxpy(benchmark::State& state, bool kjit_side) {
  auto y = doubles(kStream, 1.0);
  auto x = doubles(kStream, 2.0);
  const auto config = kjit::LaunchConfig::for_elements(kStream);
  double a = 1e-9;
  int n = kStream;
  if (kjit_side) {
    auto k = rajaperf().kernel<double*, const double*, double, int>("daxpy", setup().device);
    setup().time(state, [&] { k.launch(config, y, x, a, n); });
  } else {
    const CUfunction f = setup().nvcc_function("_Z5daxpyPdPKddi");
    CUdeviceptr py = address(y), px = address(x);
    setup().time(state, [&] {
      setup().raw_launch(f, config.grid, config.block, 0, {&py, &px, &a, &n});
    });
  }
}

void triad(benchmark::State& state, bool kjit_side) {
  auto a = doubles(kStream, 0.0);
  auto b = doubles(kStream, 1.0);
  auto c = doubles(kStream, 2.0);
  const auto config = kjit::LaunchConfig::for_elements(kStream);
  double alpha = 0.5;
  int n = kStream;
  if (kjit_side) {
    auto k = rajaperf().kernel<double*, const double*, const double*, double, int>("triad",
                                                                                   setup().device);
    setup().time(state, [&] { k.launch(config, a, b, c, alpha, n); });
  } else {
    const CUfunction f = setup().nvcc_function("_Z5triadPdPKdS1_di");
    CUdeviceptr pa = address(a), pb = address(b), pc = address(c);
    setup().time(state, [&] {
      setup().raw_launch(f, config.grid, config.block, 0, {&pa, &pb, &pc, &alpha, &n});
    });
  }
}

void energy(benchmark::State& state, bool kjit_side) {
  std::vector<kjit::DeviceBuffer<double>> in;
  in.reserve(13);
  for (int a = 0; a < 13; ++a) {
    in.push_back(doubles(kEnergy, a == 1 ? -0.5 : 0.5));
  }
  auto e = doubles(kEnergy, 0.0);
  auto q = doubles(kEnergy, 0.0);
  EnergyArrays v{raw(e),     raw(in[0]), raw(in[1]),  raw(in[2]),  raw(in[3]),
                 raw(q),     raw(in[4]), raw(in[5]),  raw(in[6]),  raw(in[7]),
                 raw(in[8]), raw(in[9]), raw(in[10]), raw(in[11]), raw(in[12])};
  EnergyConstants k{1.0, 1e-7, -1e15, 1e-7};
  int n = kEnergy;
  const auto config = kjit::LaunchConfig::for_elements(kEnergy);
  if (kjit_side) {
    const kjit::Program& p = rajaperf();
    auto k1 = p.kernel<EnergyArrays, int>("energy1", setup().device);
    auto k2 = p.kernel<EnergyArrays, EnergyConstants, int>("energy2", setup().device);
    auto k3 = p.kernel<EnergyArrays, int>("energy3", setup().device);
    auto k4 = p.kernel<EnergyArrays, EnergyConstants, int>("energy4", setup().device);
    auto k5 = p.kernel<EnergyArrays, EnergyConstants, int>("energy5", setup().device);
    auto k6 = p.kernel<EnergyArrays, EnergyConstants, int>("energy6", setup().device);
    setup().time(state, [&] {
      k1.launch(config, v, n);
      k2.launch(config, v, k, n);
      k3.launch(config, v, n);
      k4.launch(config, v, k, n);
      k5.launch(config, v, k, n);
      k6.launch(config, v, k, n);
    });
  } else {
    std::vector<CUfunction> f;
    for (const char* name :
         {"_Z7energy112EnergyArraysi", "_Z7energy212EnergyArrays15EnergyConstantsi",
          "_Z7energy312EnergyArraysi", "_Z7energy412EnergyArrays15EnergyConstantsi",
          "_Z7energy512EnergyArrays15EnergyConstantsi",
          "_Z7energy612EnergyArrays15EnergyConstantsi"}) {
      f.push_back(setup().nvcc_function(name));
    }
    setup().time(state, [&] {
      for (std::size_t i = 0; i < f.size(); ++i) {
        const bool constants = i != 0 && i != 2;
        setup().raw_launch(f[i], config.grid, config.block, 0,
                           constants ? std::vector<void*>{&v, &k, &n} : std::vector<void*>{&v, &n});
      }
    });
  }
}

void pi_atomic(benchmark::State& state, bool kjit_side) {
  auto pi = doubles(1, 0.0);
  double dx = 1.0 / kPi;
  int n = kPi;
  const auto config = kjit::LaunchConfig::for_elements(kPi);
  if (kjit_side) {
    auto k = rajaperf().kernel<double*, double, int>("pi_atomic", setup().device);
    setup().time(state, [&] { k.launch(config, pi, dx, n); });
  } else {
    const CUfunction f = setup().nvcc_function("_Z9pi_atomicPddi");
    CUdeviceptr p = address(pi);
    setup().time(state, [&] {
      setup().raw_launch(f, config.grid, config.block, 0, {&p, &dx, &n});
    });
  }
}

void reduce_sum(benchmark::State& state, bool kjit_side) {
  auto x = doubles(kStream, 1.0);
  auto sum = doubles(1, 0.0);
  int n = kStream;
  // A grid-stride loop over a few blocks per SM, as RAJAPerf's CUDA variant sizes it.
  const kjit::LaunchConfig config{.grid = {4 * setup().device.info().compute_units},
                                  .block = {256}};
  if (kjit_side) {
    auto k = kjit::Program::from_file(kernel("reduction.cu"))
                 .kernel<const double*, double*, int>("reduce_sum<double>", setup().device);
    setup().time(state, [&] { k.launch(config, x, sum, n); });
  } else {
    const CUfunction f = setup().nvcc_function("_Z10reduce_sumIdEvPKT_PS0_i");
    CUdeviceptr px = address(x), ps = address(sum);
    setup().time(state, [&] {
      setup().raw_launch(f, config.grid, config.block, 0, {&px, &ps, &n});
    });
  }
}

void fir(benchmark::State& state, bool kjit_side) {
  auto out = doubles(kStream, 0.0);
  auto in = doubles(kStream, 1.0);
  auto coeff = doubles(16, 0.0625);
  int n = kStream;
  const auto config = kjit::LaunchConfig::for_elements(kStream);
  if (kjit_side) {
    auto k = rajaperf().kernel<double*, const double*, const double*, int>("fir", setup().device);
    setup().time(state, [&] { k.launch(config, out, in, coeff, n); });
  } else {
    const CUfunction f = setup().nvcc_function("_Z3firPdPKdS1_i");
    CUdeviceptr po = address(out), pi = address(in), pc = address(coeff);
    setup().time(state, [&] {
      setup().raw_launch(f, config.grid, config.block, 0, {&po, &pi, &pc, &n});
    });
  }
}

void jacobi_2d(benchmark::State& state, bool kjit_side) {
  const std::size_t points = static_cast<std::size_t>(kJacobi) * kJacobi;
  auto a = doubles(points, 1.0);
  auto b = doubles(points, 0.0);
  int n = kJacobi;
  const unsigned tiles = (kJacobi - 2 + 15) / 16;
  const kjit::LaunchConfig config{.grid = {tiles, tiles}, .block = {16, 16}};
  if (kjit_side) {
    auto k = rajaperf().kernel<double*, const double*, int>("jacobi_2d", setup().device);
    setup().time(state, [&] {
      k.launch(config, b, a, n);
      k.launch(config, a, b, n);
    });
  } else {
    const CUfunction f = setup().nvcc_function("_Z9jacobi_2dPdPKdi");
    CUdeviceptr pa = address(a), pb = address(b);
    setup().time(state, [&] {
      setup().raw_launch(f, config.grid, config.block, 0, {&pb, &pa, &n});
      setup().raw_launch(f, config.grid, config.block, 0, {&pa, &pb, &n});
    });
  }
}

void mat_mat_shared(benchmark::State& state, bool kjit_side) {
  const std::size_t n2 = static_cast<std::size_t>(kMatMat) * kMatMat;
  auto a = doubles(n2, 1.0);
  auto b = doubles(n2, 2.0);
  auto c = doubles(n2, 0.0);
  int n = kMatMat;
  const unsigned tiles = (kMatMat + 15) / 16;
  const kjit::LaunchConfig config{.grid = {tiles, tiles}, .block = {16, 16}};
  if (kjit_side) {
    auto k = rajaperf().kernel<const double*, const double*, double*, int>("mat_mat_shared",
                                                                           setup().device);
    setup().time(state, [&] { k.launch(config, a, b, c, n); });
  } else {
    const CUfunction f = setup().nvcc_function("_Z14mat_mat_sharedPKdS0_Pdi");
    CUdeviceptr pa = address(a), pb = address(b), pc = address(c);
    setup().time(state, [&] {
      setup().raw_launch(f, config.grid, config.block, 0, {&pa, &pb, &pc, &n});
    });
  }
}

}  // namespace

void register_rajaperf_cuda() {
  register_kernel_case("rajaperf/DAXPY", daxpy);
  register_kernel_case("rajaperf/TRIAD", triad);
  register_kernel_case("rajaperf/ENERGY", energy);
  register_kernel_case("rajaperf/PI_ATOMIC", pi_atomic);
  register_kernel_case("rajaperf/REDUCE_SUM", reduce_sum);
  register_kernel_case("rajaperf/MAT_MAT_SHARED", mat_mat_shared);
  register_kernel_case("rajaperf/FIR", fir);
  register_kernel_case("rajaperf/JACOBI_2D", jacobi_2d);
}

}  // namespace kjit::bench
