// The main() of a benchmark program that runs on one kjit device: the device's name in the
// results' context, then Google Benchmark's usual run.
#pragma once

#include <kjit/kjit.hpp>

#include <benchmark/benchmark.h>

namespace kjit::bench {

inline int run_on_device(int argc, char** argv, const kjit::DeviceInfo& info) {
  benchmark::AddCustomContext("kjit_device", info.id() + " " + info.name + " " + info.arch);
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}

}  // namespace kjit::bench
