// The cost of checked mode on the CPU: the same kernels compiled checked (<case>/kjit) and
// unchecked (<case>/unchecked), timed in one process, with the checks KJIT_CHECK names when the
// process starts ('memory' if it is unset; scripts/benchmarks.sh runs 'memory' and
// 'memory,race'). The checks are the process's from the start (allocations get red zones); each
// program is compiled checked or not as KJIT_CHECK is set when it compiles, so the unchecked rows
// run with the registry present (which their kernels never consult).
#include "triad_source.hpp"

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

const char* const kTriad = kjit::bench::kTriadSource;

kjit::Device& device() {
  static kjit::Device d = kjit::Device::select("cpu");
  return d;
}

/// The process's checks, as main() found them.
std::string& process_checks() {
  static std::string checks = "memory";
  return checks;
}

/// A program compiled checked or not as `checked` says, whatever the environment.
kjit::Program compiled(kjit::Program program, bool checked, void (*warm)(const kjit::Program&)) {
  if (checked) {
    setenv("KJIT_CHECK", process_checks().c_str(), 1);
  } else {
    unsetenv("KJIT_CHECK");
  }
  warm(program);
  setenv("KJIT_CHECK", process_checks().c_str(), 1);
  return program;
}

void triad(benchmark::State& state, bool checked) {
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

void reduce_sum(benchmark::State& state, bool checked) {
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

int main(int argc, char** argv) {
  // Before the first allocation: red zones for every buffer, when 'memory' is among the checks.
  const char* checks = std::getenv("KJIT_CHECK");
  if (checks != nullptr && *checks != '\0') {
    process_checks() = checks;
  }
  setenv("KJIT_CHECK", process_checks().c_str(), 1);
  for (const bool checked : {true, false}) {
    const char* row = checked ? "kjit" : "unchecked";
    benchmark::RegisterBenchmark((std::string("TRIAD/") + row).c_str(), triad, checked)
        ->UseRealTime()
        ->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark((std::string("reduce_sum/") + row).c_str(), reduce_sum, checked)
        ->UseRealTime()
        ->Unit(benchmark::kMillisecond);
  }
  benchmark::AddCustomContext("kjit_device", device().info().id() + " " + device().info().name);
  benchmark::AddCustomContext("kjit_check", process_checks());
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
