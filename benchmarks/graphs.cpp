// Launch graphs (kjit::Graph) on the device KJIT_DEVICE selects: 100 launches of an empty kernel
// and a wait, replayed from a recorded graph (<case>/kjit) against the same 100 typed launches
// (<case>/launches); and 100 launches of a kernel with arguments, one of which set_arguments
// changes before each replay; and 100 launches of a kernel that computes for a while, recorded as
// four branches of 25 on four streams that join the recording (busy_branches/kjit) against the
// same launches recorded on one stream (busy_branches/one_stream): what a graph's independent
// branches give.
// kjit_bench_cuda compares the replay with raw cuLaunchKernel calls.
#include "bench_main.hpp"

#include <kjit/kjit.hpp>

#include <benchmark/benchmark.h>

#include <vector>

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

/// A kernel of two arguments that touches memory once per launch (from one thread).
kjit::Kernel<int*, int> bump_kernel() {
  static const kjit::Program p = kjit::Program::from_source(
      "bump.cu", "__global__ void bump(int* x, int v) { if (threadIdx.x == 0) x[0] += v; }");
  return p.kernel<int*, int>("bump", device());
}

void replayed_with_new_arguments(benchmark::State& state) {
  const auto k = bump_kernel();
  auto x = device().upload(std::vector<int>(1, 0));
  const kjit::Stream stream = device().default_stream();
  const kjit::Graph graph = kjit::Graph::record(stream, [&] {
    for (int i = 0; i < kLaunches; ++i) {
      k.launch(stream, kjit::LaunchConfig{}, x, i);
    }
  });
  int round = 0;
  for (auto _ : state) {
    graph.set_arguments(static_cast<std::size_t>(round % kLaunches), k, x, round);
    graph.launch(stream);
    stream.synchronize();
    ++round;
  }
}

void launched_with_arguments(benchmark::State& state) {
  const auto k = bump_kernel();
  auto x = device().upload(std::vector<int>(1, 0));
  const kjit::Stream stream = device().default_stream();
  int round = 0;
  for (auto _ : state) {
    for (int i = 0; i < kLaunches; ++i) {
      k.launch(stream, kjit::LaunchConfig{}, x, i == round % kLaunches ? round : i);
    }
    stream.synchronize();
    ++round;
  }
}

/// One block of 32 threads that computes for a while: a launch that leaves most of a GPU idle.
kjit::Kernel<float*, int> busy_kernel() {
  static const kjit::Program p = kjit::Program::from_source("busy.cu", R"(
__global__ void busy(float* x, int steps) {
  float v = x[threadIdx.x];
  for (int i = 0; i < steps; ++i) v = v * 0.999f + 0.001f;
  x[threadIdx.x] = v;
})");
  return p.kernel<float*, int>("busy", device());
}

constexpr int kBranches = 4;
constexpr int kBusySteps = 4000;

/// 100 launches of busy(): as kBranches branches on streams that join the recording, or as one
/// chain on one stream.
void replayed_busy(benchmark::State& state, bool branches) {
  const auto k = busy_kernel();
  std::vector<kjit::DeviceBuffer<float>> data;
  std::vector<kjit::Stream> streams{device().default_stream()};
  for (int b = 0; b < kBranches; ++b) {
    data.push_back(device().upload(std::vector<float>(32, 1.0f)));
    if (b > 0) {
      streams.push_back(device().create_stream());
    }
  }
  const kjit::Stream& main = streams[0];
  const kjit::Graph graph = kjit::Graph::record(main, [&] {
    const kjit::Event start = main.record();
    for (int b = 0; b < kBranches; ++b) {
      const kjit::Stream& on = branches ? streams[b] : main;
      if (b > 0 && branches) {
        on.wait(start);
      }
      for (int i = 0; i < kLaunches / kBranches; ++i) {
        k.launch(on, kjit::LaunchConfig{.grid = {1}, .block = {32}}, data[b], kBusySteps);
      }
    }
    for (int b = 1; b < kBranches && branches; ++b) {
      main.wait(streams[b].record());
    }
  });
  for (auto _ : state) {
    graph.launch(main);
    main.synchronize();
  }
}

void us(benchmark::internal::Benchmark* b) {
  b->Unit(benchmark::kMicrosecond)->UseRealTime();
}

BENCHMARK_CAPTURE(replayed, one, false)->Name("graph100/empty/kjit")->Apply(us);
BENCHMARK_CAPTURE(launched, one, false)->Name("graph100/empty/launches")->Apply(us);
BENCHMARK_CAPTURE(replayed, wide, true)->Name("graph100/empty_wide/kjit")->Apply(us);
BENCHMARK_CAPTURE(launched, wide, true)->Name("graph100/empty_wide/launches")->Apply(us);
BENCHMARK(replayed_with_new_arguments)->Name("graph100/set_arguments/kjit")->Apply(us);
BENCHMARK(launched_with_arguments)->Name("graph100/set_arguments/launches")->Apply(us);
BENCHMARK_CAPTURE(replayed_busy, branches, true)->Name("graph100/busy_branches/kjit")->Apply(us);
BENCHMARK_CAPTURE(replayed_busy, chain, false)
    ->Name("graph100/busy_branches/one_stream")
    ->Apply(us);

}  // namespace

int main(int argc, char** argv) {
  return kjit::bench::run_on_device(argc, argv, device().info());
}
