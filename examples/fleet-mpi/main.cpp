// A job of many ranks, as on many nodes, sharing one kernel cache: each rank has a disk cache of
// its own (as a node would) and all share the Redis server KJIT_CACHE_REMOTE names, so the job
// compiles each kernel once, whichever rank gets to it first; the others wait for its entry.
// Every rank checks its results on the host; rank 0 prints the job's totals.
//
//   KJIT_CACHE_REMOTE=redis://host:6379 mpirun -np 8 kjit-fleet-mpi --node-caches /tmp/nodes
#include <kjit/kjit.hpp>

#include <mpi.h>

#include <CLI/CLI.hpp>

#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

namespace {

/// vadd and transpose from the kernels folder on this rank's own random inputs; the outputs
/// that differ from the host's.
std::size_t run_kernels(const kjit::Device& device, const std::string& kernels, int rank) {
  std::mt19937 rng(1234U + static_cast<unsigned>(rank));
  std::uniform_real_distribution<float> value(-1.0F, 1.0F);
  constexpr int rows = 300;
  constexpr int cols = 200;
  constexpr int n = rows * cols;
  std::vector<float> a(n);
  std::vector<float> b(n);
  for (int i = 0; i < n; ++i) {
    a[i] = value(rng);
    b[i] = value(rng);
  }
  std::size_t wrong = 0;

  auto vadd = kjit::Program::from_file(kernels + "/vadd.cu")
                  .kernel<const float*, const float*, float*, int>("vadd", device);
  auto da = device.upload(std::span<const float>(a));
  auto db = device.upload(std::span<const float>(b));
  auto dc = device.upload(std::span<const float>(std::vector<float>(n, -7.0F)));
  vadd.launch(kjit::LaunchConfig::for_elements(n), da, db, dc, n);
  const std::vector<float> c = dc.download();
  for (int i = 0; i < n; ++i) {
    wrong += c[i] != a[i] + b[i];
  }

  auto transpose = kjit::Program::from_file(kernels + "/transpose.cu")
                       .kernel<const float*, float*, int, int>("transpose", device);
  auto dt = device.upload(std::span<const float>(std::vector<float>(n, -7.0F)));
  const kjit::LaunchConfig grid{{(cols + 31) / 32, (rows + 31) / 32, 1}, {32, 8, 1}};
  transpose.launch(grid, da, dt, rows, cols);
  const std::vector<float> t = dt.download();
  for (int r = 0; r < rows; ++r) {
    for (int col = 0; col < cols; ++col) {
      wrong += t[col * rows + r] != a[r * cols + col];
    }
  }
  return wrong;
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  int ranks = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);

  CLI::App app{
      "kjit-fleet-mpi: ranks with caches of their own share one Redis (KJIT_CACHE_REMOTE)"};
  std::string node_caches;
  std::string kernels = KJIT_KERNELS_DIR;
  app.add_option("--node-caches", node_caches,
                 "give each rank the disk cache <DIR>/rank<N>, as separate nodes would have");
  app.add_option("--kernels", kernels, "the kernels folder");
  CLI11_PARSE(app, argc, argv);
  if (!node_caches.empty()) {
    const std::string mine = node_caches + "/rank" + std::to_string(rank);
    setenv("KJIT_CACHE_DIR", mine.c_str(), 1);  // before kjit reads it
  }

  unsigned long long wrong = 0;
  int failed = 0;
  MPI_Barrier(MPI_COMM_WORLD);  // every rank starts cold at once
  try {
    const kjit::Device device = kjit::Device::select();
    wrong = run_kernels(device, kernels, rank);
  } catch (const kjit::Error& e) {
    std::fprintf(stderr, "rank %d: %s\n", rank, e.what());
    failed = 1;
  }
  const kjit::CacheStats s = kjit::cache_stats();
  const unsigned long long mine[] = {s.compiles,     s.remote_hits,
                                     s.remote_waits, s.hits,
                                     wrong,          static_cast<unsigned long long>(failed)};
  unsigned long long total[6] = {};
  MPI_Reduce(mine, total, 6, MPI_UNSIGNED_LONG_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank == 0) {
    std::printf(
        "fleet: %d ranks, 2 programs: %llu compiles, %llu from the remote cache (%llu after "
        "waiting for another rank's compile), %llu from disk\n",
        ranks, total[0], total[1], total[2], total[3]);
    std::printf("verify: %s (%llu wrong outputs, %llu ranks failed)\n",
                total[4] == 0 && total[5] == 0 ? "every rank's results equal the host's" : "FAILED",
                total[4], total[5]);
  }
  MPI_Finalize();
  return total[4] == 0 && total[5] == 0 ? 0 : 1;
}
