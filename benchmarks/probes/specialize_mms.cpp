// Why is MAT_MAT_SHARED's variant (n and the block fixed) 3% slower than the kernel as written on
// an H200, while nvcc's code for the same constants matches? Times, in one process, interleaved,
// on the same buffers (median of rounds of 20 launches and a wait): the kernel as written, with
// n fixed, with the block fixed, and with both. Run with KJIT_CACHE_DIR set to an empty folder,
// then disassemble the cubins it holds (cuobjdump -res-usage) to compare registers.
// Usage: specialize_mms KERNEL_DIR [ROUNDS]. Not part of the build: compiled by hand against
// build/src/libkjit.so into .carry-run/bin (after scripts/pack-for-gpu.sh), as in
// docs/records/2026-11-28-h200-graph-arguments-bounds.md:
//   g++ -std=c++20 -O2 -Iinclude benchmarks/probes/specialize_mms.cpp \
//       -o .carry-run/bin/specialize_mms -Lbuild/src -lkjit -Wl,-rpath,'$ORIGIN'
#include <kjit/kjit.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: specialize_mms KERNEL_DIR [ROUNDS]\n");
    return 2;
  }
  const int rounds = argc > 2 ? std::atoi(argv[2]) : 11;
  const int n = 2048;
  kjit::Device device = kjit::Device::select();
  const kjit::Program p = kjit::Program::from_file(std::string(argv[1]) + "/rajaperf.cu");
  auto k = p.kernel<const double*, const double*, double*, int>("mat_mat_shared", device);
  const std::size_t n2 = static_cast<std::size_t>(n) * n;
  auto a = device.upload(std::vector<double>(n2, 1.0));
  auto b = device.upload(std::vector<double>(n2, 2.0));
  auto c = device.alloc<double>(n2);
  const unsigned tiles = (n + 15) / 16;
  const kjit::LaunchConfig config{.grid = {tiles, tiles}, .block = {16, 16}};
  auto value = k.specialize<3>(n);
  auto block = k.specialize_block(config.block);
  auto both = value.specialize_block(config.block);
  struct Case {
    const char* name;
    std::function<void()> launch;
    std::vector<double> ms;
  };
  std::vector<Case> cases{
      {"as written", [&] { k.launch(config, a, b, c, n); }, {}},
      {"n fixed", [&] { value.launch(config, a, b, c); }, {}},
      {"block fixed", [&] { block.launch(config, a, b, c, n); }, {}},
      {"both", [&] { both.launch(config, a, b, c); }, {}},
  };
  for (int r = 0; r < rounds + 1; ++r) {
    for (Case& cs : cases) {
      const auto start = std::chrono::steady_clock::now();
      for (int i = 0; i < 20; ++i) {
        cs.launch();
      }
      device.synchronize();
      const std::chrono::duration<double, std::milli> t = std::chrono::steady_clock::now() - start;
      if (r > 0) {  // the first round warms up
        cs.ms.push_back(t.count());
      }
    }
  }
  for (Case& cs : cases) {
    std::sort(cs.ms.begin(), cs.ms.end());
    std::printf("%-12s median %.3f ms (min %.3f, max %.3f)\n", cs.name, cs.ms[cs.ms.size() / 2],
                cs.ms.front(), cs.ms.back());
  }
  return 0;
}
