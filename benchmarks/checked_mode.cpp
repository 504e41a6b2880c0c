// The cost of checked mode (KJIT_CHECK=memory) on the CPU: the same kernels compiled checked and
// unchecked, timed in one process. Checked mode's allocations (red zones) are the process's from
// the start; each program is compiled checked or not as KJIT_CHECK is set when it compiles, so
// the unchecked rows run with the registry present (which their kernels never consult).
#include <kjit/kjit.hpp>

#include <benchmark/benchmark.h>

#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#ifndef KJIT_SOURCE_DIR
#error "KJIT_SOURCE_DIR must name the source tree (kernels/)"
#endif

namespace {

constexpr int kElements = 1 << 22;

const char* const kTriad = R"(
__global__ void triad(float* a, const float* b, const float* c, float s, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] = b[i] + s * c[i];
}
)";

kjit::Device& device() {
  static kjit::Device d = kjit::Device::select("cpu");
  return d;
}

/// A program compiled with KJIT_CHECK as `checked` says, whatever the environment.
kjit::Program compiled(kjit::Program program, bool checked, void (*warm)(const kjit::Program&)) {
  if (checked) {
    setenv("KJIT_CHECK", "memory", 1);
  } else {
    unsetenv("KJIT_CHECK");
  }
  warm(program);
  setenv("KJIT_CHECK", "memory", 1);
  return program;
}

void triad(benchmark::State& state) {
  const bool checked = state.range(0) != 0;
  const kjit::Program p =
      compiled(kjit::Program::from_source(checked ? "triad_checked.cu" : "triad.cu", kTriad),
               checked, [](const kjit::Program& q) {
                 (void)q.kernel<float*, const float*, const float*, float, int>("triad", device());
               });
  auto k = p.kernel<float*, const float*, const float*, float, int>("triad", device());
  auto a = device().alloc<float>(kElements);
  auto b = device().upload(std::vector<float>(kElements, 1.0F));
  auto c = device().upload(std::vector<float>(kElements, 2.0F));
  for (auto _ : state) {
    k.launch(kjit::LaunchConfig::for_elements(kElements), a, b, c, 3.0F, kElements);
    device().synchronize();
  }
  state.SetBytesProcessed(state.iterations() * 3LL * kElements * sizeof(float));
}

void reduce_sum(benchmark::State& state) {
  const bool checked = state.range(0) != 0;
  const std::filesystem::path file =
      std::filesystem::path(KJIT_SOURCE_DIR) / "kernels" / "reduction.cu";
  const kjit::Program p =
      compiled(kjit::Program::from_file(file), checked, [](const kjit::Program& q) {
        (void)q.kernel<const float*, float*, int>("reduce_sum<float>", device());
      });
  auto k = p.kernel<const float*, float*, int>("reduce_sum<float>", device());
  auto in = device().upload(std::vector<float>(kElements, 1.0F));
  auto sum = device().alloc<float>(1);
  for (auto _ : state) {
    k.launch(kjit::LaunchConfig{.grid = {256}, .block = {256}}, in, sum, kElements);
    device().synchronize();
  }
  state.SetBytesProcessed(state.iterations() * kElements * sizeof(float));
}

}  // namespace

BENCHMARK(triad)->ArgName("checked")->Arg(0)->Arg(1)->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(reduce_sum)
    ->ArgName("checked")
    ->Arg(0)
    ->Arg(1)
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);

int main(int argc, char** argv) {
  setenv("KJIT_CHECK", "memory", 1);  // before the first allocation: red zones for every buffer
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
