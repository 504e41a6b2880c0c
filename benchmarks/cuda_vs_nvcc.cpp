// The CUDA backend against what a user would write by hand, in one process and one run:
//  - launch enqueue of an empty kernel: kjit's typed launch vs a raw cuLaunchKernel;
//  - each kernel of kernels/: compiled by kjit (NVRTC) vs compiled ahead of time by nvcc -O3,
//    both timed with CUDA events around the kernel alone, on the same stream;
//  - a device-to-device copy, the bandwidth vadd is measured against;
//  - cold compile to a launchable kernel: kjit vs plain NVRTC + cuModuleLoadData.
// scripts/gpu-check.sh --bench runs it; benchmarks/report.py turns it into ratios.
#include <kjit/kjit.hpp>

#include <benchmark/benchmark.h>

#include <cstdlib>

#include <cuda.h>
#include <nvrtc.h>
#include <algorithm>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <span>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "cuda_bench.hpp"
#include "mandelbrot.h"

namespace {

using kjit::bench::address;
using kjit::bench::check;
using kjit::bench::kernel;
using kjit::bench::read;
using kjit::bench::setup;

constexpr int kElements = 1 << 26;

// ---- launch overhead ------------------------------------------------------------------------

void launch_kjit(benchmark::State& state) {
  auto k = kjit::Program::from_source("empty.cu", "__global__ void empty_kernel() {}")
               .kernel<>("empty_kernel", setup().device);
  const kjit::LaunchConfig one{};
  for (auto _ : state) {
    k.launch(one);
  }
  check(cuStreamSynchronize(setup().stream), "sync");
}

// 100 launches of an empty kernel and a wait: replayed from a kjit::Graph (a CUDA graph) against
// 100 raw cuLaunchKernel calls.
constexpr int kGraphLaunches = 100;

void graph100_kjit(benchmark::State& state) {
  auto k = kjit::Program::from_source("empty.cu", "__global__ void empty_kernel() {}")
               .kernel<>("empty_kernel", setup().device);
  const kjit::Stream stream = setup().device.default_stream();
  const kjit::Graph graph = kjit::Graph::record(stream, [&] {
    for (int i = 0; i < kGraphLaunches; ++i) {
      k.launch(stream, kjit::LaunchConfig{});
    }
  });
  for (auto _ : state) {
    graph.launch(stream);
    check(cuStreamSynchronize(setup().stream), "sync");
  }
}

void graph100_raw(benchmark::State& state) {
  const CUfunction f = setup().nvcc_function("_Z12empty_kernelv");
  const CUstream s = setup().stream;
  for (auto _ : state) {
    for (int i = 0; i < kGraphLaunches; ++i) {
      check(cuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, s, nullptr, nullptr), "cuLaunchKernel");
    }
    check(cuStreamSynchronize(s), "sync");
  }
}

void launch_raw(benchmark::State& state) {
  const CUfunction f = setup().nvcc_function("_Z12empty_kernelv");
  const CUstream s = setup().stream;
  for (auto _ : state) {
    check(cuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, s, nullptr, nullptr), "cuLaunchKernel");
  }
  check(cuStreamSynchronize(s), "sync");
}

// ---- kernels --------------------------------------------------------------------------------

struct Vectors {
  kjit::DeviceBuffer<float> a = setup().device.upload(std::vector<float>(kElements, 1.0f));
  kjit::DeviceBuffer<float> b = setup().device.upload(std::vector<float>(kElements, 2.0f));
  kjit::DeviceBuffer<float> c = setup().device.alloc<float>(kElements);
};

Vectors& vectors() {
  static Vectors v;
  return v;
}

void vadd(benchmark::State& state, bool kjit_side) {
  Vectors& v = vectors();
  const auto config = kjit::LaunchConfig::for_elements(kElements);
  if (kjit_side) {
    auto k = kjit::Program::from_file(kernel("vadd.cu"))
                 .kernel<const float*, const float*, float*, int>("vadd", setup().device);
    setup().time(state, [&] { k.launch(config, v.a, v.b, v.c, kElements); });
  } else {
    const CUfunction f = setup().nvcc_function("_Z4vaddPKfS0_Pfi");
    CUdeviceptr a = address(v.a), b = address(v.b), c = address(v.c);
    int n = kElements;
    setup().time(state, [&] {
      setup().raw_launch(f, config.grid, config.block, 0, {&a, &b, &c, &n});
    });
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) * 3LL * kElements * 4);
}

void saxpy(benchmark::State& state, bool kjit_side) {
  Vectors& v = vectors();
  const auto config = kjit::LaunchConfig::for_elements(kElements);
  float alpha = 0.5f;
  if (kjit_side) {
    auto k = kjit::Program::from_file(kernel("saxpy.cu"))
                 .kernel<float, const float*, float*, int>("saxpy<float>", setup().device);
    setup().time(state, [&] { k.launch(config, alpha, v.a, v.c, kElements); });
  } else {
    const CUfunction f = setup().nvcc_function("_Z5saxpyIfEvT_PKS0_PS0_i");
    CUdeviceptr x = address(v.a), y = address(v.c);
    int n = kElements;
    setup().time(state, [&] {
      setup().raw_launch(f, config.grid, config.block, 0, {&alpha, &x, &y, &n});
    });
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) * 3LL * kElements * 4);
}

void mandelbrot(benchmark::State& state, bool kjit_side) {
  MandelbrotView view{-2.1f, -1.5f, 3.0f / 2048.0f, 2048, 2048, 256};
  auto out = setup().device.alloc<int>(2048 * 2048);
  const kjit::LaunchConfig config{.grid = {128, 128, 1}, .block = {16, 16, 1}};
  if (kjit_side) {
    auto k = kjit::Program::from_file(kernel("mandelbrot.cu"))
                 .kernel<MandelbrotView, int*>("mandelbrot", setup().device);
    setup().time(state, [&] { k.launch(config, view, out); });
  } else {
    const CUfunction f = setup().nvcc_function("_Z10mandelbrot14MandelbrotViewPi");
    CUdeviceptr o = address(out);
    setup().time(state, [&] { setup().raw_launch(f, config.grid, config.block, 0, {&view, &o}); });
  }
}

void matmul(benchmark::State& state, bool kjit_side) {
  int m = 2048, n = 2048, k = 2048;
  auto a = setup().device.upload(std::vector<float>(std::size_t(m) * k, 0.5f));
  auto b = setup().device.upload(std::vector<float>(std::size_t(k) * n, 0.25f));
  auto c = setup().device.alloc<float>(std::size_t(m) * n);
  const unsigned tile = 16;
  const kjit::LaunchConfig config{.grid = {n / tile, m / tile, 1},
                                  .block = {tile, tile, 1},
                                  .shared_bytes = 2 * tile * tile * sizeof(float)};
  if (kjit_side) {
    auto kk = kjit::Program::from_file(kernel("matmul.cu"))
                  .kernel<const float*, const float*, float*, int, int, int>("matmul_tiled",
                                                                             setup().device);
    setup().time(state, [&] { kk.launch(config, a, b, c, m, n, k); });
  } else {
    const CUfunction f = setup().nvcc_function("_Z12matmul_tiledPKfS0_Pfiii");
    CUdeviceptr pa = address(a), pb = address(b), pc = address(c);
    setup().time(state, [&] {
      setup().raw_launch(f, config.grid, config.block, static_cast<unsigned>(config.shared_bytes),
                         {&pa, &pb, &pc, &m, &n, &k});
    });
  }
}

void transpose(benchmark::State& state, bool kjit_side) {
  int rows = 8192, cols = 8192;
  auto in = setup().device.upload(std::vector<float>(std::size_t(rows) * cols, 1.0f));
  auto out = setup().device.alloc<float>(std::size_t(rows) * cols);
  const kjit::LaunchConfig config{.grid = {256, 256, 1}, .block = {32, 8, 1}};
  if (kjit_side) {
    auto k = kjit::Program::from_file(kernel("transpose.cu"))
                 .kernel<const float*, float*, int, int>("transpose", setup().device);
    setup().time(state, [&] { k.launch(config, in, out, rows, cols); });
  } else {
    const CUfunction f = setup().nvcc_function("_Z9transposePKfPfii");
    CUdeviceptr pi = address(in), po = address(out);
    setup().time(state, [&] {
      setup().raw_launch(f, config.grid, config.block, 0, {&pi, &po, &rows, &cols});
    });
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) * 2LL * rows * cols * 4);
}

void jacobi(benchmark::State& state, bool kjit_side) {
  int w = 8192, h = 8192;
  auto in = setup().device.upload(std::vector<float>(std::size_t(w) * h, 1.0f));
  auto out = setup().device.alloc<float>(std::size_t(w) * h);
  const kjit::LaunchConfig config{.grid = {512, 512, 1}, .block = {16, 16, 1}};
  if (kjit_side) {
    auto k = kjit::Program::from_file(kernel("stencil2d.cu"))
                 .kernel<const float*, float*, int, int>("jacobi2d", setup().device);
    setup().time(state, [&] { k.launch(config, in, out, w, h); });
  } else {
    const CUfunction f = setup().nvcc_function("_Z8jacobi2dPKfPfii");
    CUdeviceptr pi = address(in), po = address(out);
    setup().time(state, [&] {
      setup().raw_launch(f, config.grid, config.block, 0, {&pi, &po, &w, &h});
    });
  }
}

void bitonic(benchmark::State& state, bool kjit_side) {
  int n = 1 << 26, j = 1 << 12, k = 1 << 13;
  auto keys = setup().device.upload(std::vector<unsigned>(std::size_t(n), 7U));
  const auto config = kjit::LaunchConfig::for_elements(std::size_t(n));
  if (kjit_side) {
    auto step = kjit::Program::from_file(kernel("bitonic_sort.cu"))
                    .kernel<unsigned*, int, int, int>("bitonic_step", setup().device);
    setup().time(state, [&] { step.launch(config, keys, n, j, k); });
  } else {
    const CUfunction f = setup().nvcc_function("_Z12bitonic_stepPjiii");
    CUdeviceptr p = address(keys);
    setup().time(state, [&] {
      setup().raw_launch(f, config.grid, config.block, 0, {&p, &n, &j, &k});
    });
  }
}

void reduce(benchmark::State& state, bool kjit_side) {
  int n = kElements;
  auto in = setup().device.upload(std::vector<int>(std::size_t(n), 1));
  auto sum = setup().device.alloc<int>(1);
  const kjit::LaunchConfig config{.grid = {1024}, .block = {256}};
  if (kjit_side) {
    auto k = kjit::Program::from_file(kernel("reduction.cu"))
                 .kernel<const int*, int*, int>("reduce_sum<int>", setup().device);
    setup().time(state, [&] { k.launch(config, in, sum, n); });
  } else {
    const CUfunction f = setup().nvcc_function("_Z10reduce_sumIiEvPKT_PS0_i");
    CUdeviceptr pi = address(in), ps = address(sum);
    setup().time(state, [&] {
      setup().raw_launch(f, config.grid, config.block, 0, {&pi, &ps, &n});
    });
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) * std::int64_t{n} * 4);
}

void copy_d2d(benchmark::State& state) {
  Vectors& v = vectors();
  setup().time(state, [&] {
    check(cuMemcpyDtoDAsync(address(v.c), address(v.a), std::size_t(kElements) * 4, setup().stream),
          "cuMemcpyDtoDAsync");
  });
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) * 2LL * kElements * 4);
}

// ---- transfers between pageable host memory and the device --------------------------------

constexpr std::size_t kTransferBytes = std::size_t{1} << 30;

std::vector<char>& host_bytes() {
  static std::vector<char> h(kTransferBytes, 1);
  return h;
}

kjit::DeviceBuffer<char>& device_bytes() {
  static kjit::DeviceBuffer<char> d = setup().device.alloc<char>(kTransferBytes);
  return d;
}

void upload_kjit(benchmark::State& state) {
  for (auto _ : state) {
    device_bytes().upload(host_bytes());  // synchronous: returns when the data has arrived
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * kTransferBytes));
}

void download_kjit(benchmark::State& state) {
  for (auto _ : state) {
    device_bytes().download(std::span<char>(host_bytes()));
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * kTransferBytes));
}

void host_buffer_kjit(benchmark::State& state, bool upload) {
  kjit::HostBuffer<char> host = setup().device.alloc_host<char>(kTransferBytes);
  std::fill(host.begin(), host.end(), 1);
  for (auto _ : state) {
    if (upload) {
      device_bytes().upload(host);
    } else {
      device_bytes().download(host);
    }
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * kTransferBytes));
}

void transfer_raw(benchmark::State& state, bool upload, bool pinned) {
  void* host = host_bytes().data();
  if (pinned) {
    check(cuMemAllocHost(&host, kTransferBytes), "cuMemAllocHost");
  }
  const CUdeviceptr dev = address(device_bytes());
  for (auto _ : state) {
    check(upload ? cuMemcpyHtoDAsync(dev, host, kTransferBytes, setup().stream)
                 : cuMemcpyDtoHAsync(host, dev, kTransferBytes, setup().stream),
          "cuMemcpy");
    check(cuStreamSynchronize(setup().stream), "sync");
  }
  if (pinned) {
    cuMemFreeHost(host);
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * kTransferBytes));
}

// ---- cold compile ---------------------------------------------------------------------------

void compile_kjit(benchmark::State& state, const char* file, const char* name) {
  for (auto _ : state) {
    auto k = kjit::Program::from_file(kernel(file))
                 .kernel<const float*, const float*, float*, int>(name, setup().device);
    benchmark::DoNotOptimize(k);
  }
}

void compile_nvrtc(benchmark::State& state, const char* file, const char* name) {
  const std::string source = read(kernel(file));
  for (auto _ : state) {
    nvrtcProgram p = nullptr;
    nvrtcCreateProgram(&p, source.c_str(), file, 0, nullptr, nullptr);
    nvrtcAddNameExpression(p, name);
    const char* options[] = {"--gpu-architecture=sm_90"};
    if (nvrtcCompileProgram(p, 1, options) != NVRTC_SUCCESS) {
      state.SkipWithError("plain NVRTC failed");
      break;
    }
    const char* lowered = nullptr;
    nvrtcGetLoweredName(p, name, &lowered);
    std::size_t size = 0;
    nvrtcGetCUBINSize(p, &size);
    std::vector<char> cubin(size);
    nvrtcGetCUBIN(p, cubin.data());
    CUmodule m = nullptr;
    check(cuModuleLoadData(&m, cubin.data()), "cuModuleLoadData");
    CUfunction f = nullptr;
    check(cuModuleGetFunction(&f, m, lowered), "cuModuleGetFunction");
    benchmark::DoNotOptimize(f);
    cuModuleUnload(m);
    nvrtcDestroyProgram(&p);
  }
}

}  // namespace

int main(int argc, char** argv) {
  // Cold compiles are measured here: the disk cache would turn them into loads
  // (kjit_bench_cache measures those).
  setenv("KJIT_CACHE", "off", 1);  // NOLINT(concurrency-mt-unsafe): before any thread starts
  benchmark::Initialize(&argc, argv);
  try {
    const kjit::DeviceInfo& info = setup().device.info();
    benchmark::AddCustomContext("kjit_device", info.id() + " " + info.name + " " + info.arch);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "kjit_bench_cuda: %s\n", e.what());
    return 1;
  }
  const auto real = [](const char* name, auto fn) {
    benchmark::RegisterBenchmark(name, fn)->Unit(benchmark::kMicrosecond)->UseRealTime();
  };
  const auto kernel_case = kjit::bench::register_kernel_case;
  real("launch_enqueue/empty/kjit", launch_kjit);
  real("launch_enqueue/empty/raw", launch_raw);
  real("graph100/empty/kjit", graph100_kjit);
  real("graph100/empty/raw", graph100_raw);
  kernel_case("kernel/vadd_2^26", vadd);
  kernel_case("kernel/saxpy_2^26", saxpy);
  kernel_case("kernel/mandelbrot_2048x2048x256", mandelbrot);
  kernel_case("kernel/matmul_tiled_2048", matmul);
  kernel_case("kernel/transpose_8192", transpose);
  kernel_case("kernel/jacobi2d_8192", jacobi);
  kernel_case("kernel/bitonic_step_2^26", bitonic);
  kernel_case("kernel/reduce_sum_2^26", reduce);
  kjit::bench::register_rajaperf_cuda();
  benchmark::RegisterBenchmark("copy/device_to_device_2^26", copy_d2d)
      ->Unit(benchmark::kMicrosecond)
      ->UseManualTime();
  real("transfer/upload_1GiB/kjit", upload_kjit);
  real("transfer/upload_1GiB/pageable_raw",
       [](benchmark::State& s) { transfer_raw(s, true, false); });
  real("transfer/upload_1GiB/pinned_raw", [](benchmark::State& s) { transfer_raw(s, true, true); });
  real("transfer/download_1GiB/kjit", download_kjit);
  real("transfer/download_1GiB/pageable_raw",
       [](benchmark::State& s) { transfer_raw(s, false, false); });
  real("transfer/download_1GiB/pinned_raw",
       [](benchmark::State& s) { transfer_raw(s, false, true); });
  real("transfer_host_buffer/upload_1GiB/kjit",
       [](benchmark::State& s) { host_buffer_kjit(s, true); });
  real("transfer_host_buffer/upload_1GiB/pinned_raw",
       [](benchmark::State& s) { transfer_raw(s, true, true); });
  real("transfer_host_buffer/download_1GiB/kjit",
       [](benchmark::State& s) { host_buffer_kjit(s, false); });
  real("transfer_host_buffer/download_1GiB/pinned_raw",
       [](benchmark::State& s) { transfer_raw(s, false, true); });
  for (const auto& [file, name] : {std::pair{"vadd.cu", "vadd"}, {"saxpy.cu", "saxpy<float>"}}) {
    const std::string base = std::string("cold_compile_") + name;
    benchmark::RegisterBenchmark((base + "/kjit").c_str(),
                                 [file = file, name = name](benchmark::State& s) {
                                   if (std::string(name) == "vadd") {
                                     compile_kjit(s, file, name);
                                   } else {
                                     for (auto _ : s) {
                                       auto k = kjit::Program::from_file(kernel(file))
                                                    .kernel<float, const float*, float*, int>(
                                                        name, setup().device);
                                       benchmark::DoNotOptimize(k);
                                     }
                                   }
                                 })
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime();
    benchmark::RegisterBenchmark(
        (base + "/nvrtc").c_str(),
        [file = file, name = name](benchmark::State& s) { compile_nvrtc(s, file, name); })
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime();
  }
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
