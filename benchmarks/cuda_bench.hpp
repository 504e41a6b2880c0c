// What the CUDA benchmarks share: the device, the nvcc-built CUBIN of the same kernels, the
// stream both sides launch on, event timing, and the registration of kjit/nvcc pairs.
#pragma once

#include "source_dir.hpp"

#include <kjit/kjit.hpp>

#include <benchmark/benchmark.h>

#include <cuda.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace kjit::bench {

inline void check(CUresult r, const char* what) {
  if (r != CUDA_SUCCESS) {
    const char* s = "?";
    cuGetErrorString(r, &s);
    throw std::runtime_error(std::string(what) + ": " + s);
  }
}

inline std::string read(const std::filesystem::path& p) {
  std::ifstream in(p);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

inline std::filesystem::path kernel(const std::string& name) {
  return kjit::bench::kernel_file(name);
}

/// The device, the nvcc-built CUBIN, and the stream both sides launch on.
struct Setup {
  kjit::Device device = kjit::Device::select("cuda");
  CUmodule nvcc = nullptr;
  CUstream stream = nullptr;
  CUevent start = nullptr;
  CUevent stop = nullptr;

  Setup() {
    stream = static_cast<CUstream>(device.default_stream().native_handle());  // context current
    // KJIT_BENCH_NVCC_CUBIN: where the CUBIN is when the build was carried to another machine.
    const char* moved = std::getenv("KJIT_BENCH_NVCC_CUBIN");
    const std::string cubin = read(moved != nullptr && *moved != '\0' ? moved : KJIT_NVCC_CUBIN);
    check(cuModuleLoadData(&nvcc, cubin.data()), "loading the nvcc CUBIN");
    check(cuEventCreate(&start, CU_EVENT_DEFAULT), "cuEventCreate");
    check(cuEventCreate(&stop, CU_EVENT_DEFAULT), "cuEventCreate");
  }

  CUfunction nvcc_function(const char* mangled) const {
    CUfunction f = nullptr;
    check(cuModuleGetFunction(&f, nvcc, mangled), mangled);
    return f;
  }

  /// Runs launch() between two events on the stream; its time is the benchmark's.
  template <class Launch>
  void time(benchmark::State& state, Launch&& launch) const {
    launch();  // warm up
    check(cuStreamSynchronize(stream), "warm-up");
    for (auto _ : state) {
      check(cuEventRecord(start, stream), "cuEventRecord");
      launch();
      check(cuEventRecord(stop, stream), "cuEventRecord");
      check(cuEventSynchronize(stop), "cuEventSynchronize");
      float ms = 0;
      check(cuEventElapsedTime(&ms, start, stop), "cuEventElapsedTime");
      state.SetIterationTime(ms / 1000.0);
    }
  }

  void raw_launch(CUfunction f, kjit::Dim3 grid, kjit::Dim3 block, unsigned shared,
                  std::vector<void*> args) const {
    check(cuLaunchKernel(f, grid.x, grid.y, grid.z, block.x, block.y, block.z, shared, stream,
                         args.data(), nullptr),
          "cuLaunchKernel");
  }
};

inline Setup& setup() {
  static Setup s;
  return s;
}

template <class T>
CUdeviceptr address(const kjit::DeviceBuffer<T>& b) {
  return static_cast<CUdeviceptr>(b.ptr().address());
}

/// Registers `name`/kjit and `name`/nvcc: fn(state, true) times kjit's launch, fn(state, false)
/// the nvcc-built kernel launched raw; both with CUDA events (manual time).
inline void register_kernel_case(const std::string& name, void (*fn)(benchmark::State&, bool)) {
  benchmark::RegisterBenchmark((name + "/kjit").c_str(), [fn](benchmark::State& s) { fn(s, true); })
      ->Unit(benchmark::kMicrosecond)
      ->UseManualTime();
  benchmark::RegisterBenchmark((name + "/nvcc").c_str(),
                               [fn](benchmark::State& s) { fn(s, false); })
      ->Unit(benchmark::kMicrosecond)
      ->UseManualTime();
}

/// The RAJAPerf kernels of kernels/rajaperf.cu (rajaperf_vs_nvcc.cpp).
void register_rajaperf_cuda();

}  // namespace kjit::bench
