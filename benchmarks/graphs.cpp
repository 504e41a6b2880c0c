// Launch graphs (kjit::Graph) on the device KJIT_DEVICE selects: 100 launches of an empty kernel
// and a wait, replayed from a recorded graph (<case>/kjit) against the same 100 typed launches
// (<case>/launches). kjit_bench_cuda compares the replay with raw cuLaunchKernel calls.
#include "bench_main.hpp"

#include <kjit/kjit.hpp>

#include <benchmark/benchmark.h>

namespace {

constexpr int kLaunches = 100;

kjit::Device& device() {
  static kjit::Device d = kjit::Device::select();
  return d;
}

kjit::Kernel<> empty_kernel() {
  static const kjit::Program p =
      kjit::Program::from_source("empty.cu", "__global__ void empty() {}");
  return p.kernel<>("empty", device());
}

/// One block of one thread, as raw launch comparisons use, or a block of 256 threads per core
/// (a launch the CPU spreads over its workers).
kjit::LaunchConfig config(bool wide) {
  return wide ? kjit::LaunchConfig{.grid = {device().info().compute_units}, .block = {256}}
              : kjit::LaunchConfig{};
}

void replayed(benchmark::State& state, bool wide) {
  const auto k = empty_kernel();
  const kjit::Stream stream = device().default_stream();
  const kjit::Graph graph = kjit::Graph::record(stream, [&] {
    for (int i = 0; i < kLaunches; ++i) {
      k.launch(stream, config(wide));
    }
  });
  for (auto _ : state) {
    graph.launch(stream);
    stream.synchronize();
  }
}

void launched(benchmark::State& state, bool wide) {
  const auto k = empty_kernel();
  const kjit::Stream stream = device().default_stream();
  for (auto _ : state) {
    for (int i = 0; i < kLaunches; ++i) {
      k.launch(stream, config(wide));
    }
    stream.synchronize();
  }
}

void us(benchmark::internal::Benchmark* b) {
  b->Unit(benchmark::kMicrosecond)->UseRealTime();
}

BENCHMARK_CAPTURE(replayed, one, false)->Name("graph100/empty/kjit")->Apply(us);
BENCHMARK_CAPTURE(launched, one, false)->Name("graph100/empty/launches")->Apply(us);
BENCHMARK_CAPTURE(replayed, wide, true)->Name("graph100/empty_wide/kjit")->Apply(us);
BENCHMARK_CAPTURE(launched, wide, true)->Name("graph100/empty_wide/launches")->Apply(us);

}  // namespace

int main(int argc, char** argv) {
  return kjit::bench::run_on_device(argc, argv, device().info());
}
