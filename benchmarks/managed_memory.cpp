// Managed memory (Device::alloc_managed) against device memory, on the device KJIT_DEVICE selects:
//  - triad/<kjit|device>: a TRIAD kernel over managed buffers prefetched to the device, against
//    the same kernel over device buffers (the bandwidth a kernel gets from managed memory once it
//    is where the kernel runs);
//  - host_round_trip/<kjit|device>: the host writes the input, the kernel runs, the host reads the
//    output: in place through host() with prefetches, against upload() and download().
#include "bench_main.hpp"
#include "triad_source.hpp"

#include <kjit/kjit.hpp>

#include <benchmark/benchmark.h>

#include <algorithm>
#include <vector>

namespace {

using kjit::LaunchConfig;
using kjit::ManagedPlace;

constexpr int kElements = 1 << 24;

const char* const kTriad = kjit::bench::kTriadSource;

kjit::Device& device() {
  static kjit::Device d = kjit::Device::select();
  return d;
}

kjit::Kernel<float*, const float*, const float*, float, int> triad_kernel() {
  static const kjit::Program p = kjit::Program::from_source("triad.cu", kTriad);
  return p.kernel<float*, const float*, const float*, float, int>("triad", device());
}

void bytes(benchmark::State& state, std::size_t per_iteration) {
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * per_iteration));
}

template <class Buffer>
void run_triad(benchmark::State& state, Buffer& a, Buffer& b, Buffer& c) {
  auto k = triad_kernel();
  const LaunchConfig config = LaunchConfig::for_elements(kElements);
  k.launch(config, a, b, c, 0.5f, kElements);
  device().synchronize();
  for (auto _ : state) {
    for (int i = 0; i < 10; ++i) {
      k.launch(config, a, b, c, 0.5f, kElements);
    }
    device().synchronize();
  }
  bytes(state, std::size_t{10} * 3 * kElements * sizeof(float));
}

void triad_managed(benchmark::State& state) {
  auto a = device().alloc_managed<float>(kElements);
  auto b = device().alloc_managed<float>(kElements);
  auto c = device().alloc_managed<float>(kElements);
  std::fill(b.host().begin(), b.host().end(), 1.0f);
  std::fill(c.host().begin(), c.host().end(), 2.0f);
  for (auto* m : {&a, &b, &c}) {
    m->prefetch(ManagedPlace::device);
  }
  run_triad(state, a, b, c);
}

void triad_device(benchmark::State& state) {
  auto a = device().alloc<float>(kElements);
  auto b = device().upload(std::vector<float>(kElements, 1.0f));
  auto c = device().upload(std::vector<float>(kElements, 2.0f));
  run_triad(state, a, b, c);
}

void round_trip_managed(benchmark::State& state) {
  auto k = triad_kernel();
  auto a = device().alloc_managed<float>(kElements);
  auto b = device().alloc_managed<float>(kElements);
  auto c = device().alloc_managed<float>(kElements);
  std::fill(c.host().begin(), c.host().end(), 2.0f);
  c.prefetch(ManagedPlace::device);
  float check = 0.0f;
  for (auto _ : state) {
    std::fill(b.host().begin(), b.host().end(), 1.0f);
    b.prefetch(ManagedPlace::device);
    a.prefetch(ManagedPlace::device);
    k.launch(LaunchConfig::for_elements(kElements), a, b, c, 0.5f, kElements);
    a.prefetch(ManagedPlace::host);
    device().synchronize();
    check += a.host()[kElements - 1];
  }
  benchmark::DoNotOptimize(check);
  bytes(state, std::size_t{2} * kElements * sizeof(float));
}

void round_trip_device(benchmark::State& state) {
  auto k = triad_kernel();
  auto a = device().alloc<float>(kElements);
  auto b = device().alloc<float>(kElements);
  auto c = device().upload(std::vector<float>(kElements, 2.0f));
  std::vector<float> in(kElements);
  std::vector<float> out(kElements);
  float check = 0.0f;
  for (auto _ : state) {
    std::fill(in.begin(), in.end(), 1.0f);
    b.upload(in);
    k.launch(LaunchConfig::for_elements(kElements), a, b, c, 0.5f, kElements);
    a.download(out);
    check += out[kElements - 1];
  }
  benchmark::DoNotOptimize(check);
  bytes(state, std::size_t{2} * kElements * sizeof(float));
}

void ms(benchmark::internal::Benchmark* b) {
  b->Unit(benchmark::kMillisecond)->UseRealTime();
}

BENCHMARK(triad_managed)->Name("managed/triad/kjit")->Apply(ms);
BENCHMARK(triad_device)->Name("managed/triad/device")->Apply(ms);
BENCHMARK(round_trip_managed)->Name("managed/host_round_trip/kjit")->Apply(ms);
BENCHMARK(round_trip_device)->Name("managed/host_round_trip/device")->Apply(ms);

}  // namespace

int main(int argc, char** argv) {
  return kjit::bench::run_on_device(argc, argv, device().info());
}
