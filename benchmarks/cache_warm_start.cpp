// Cold compile against warm load from the disk cache, on the device KJIT_DEVICE selects, in one
// process: one program, and 32 distinct programs asked for at startup (one after another, and
// from all cores at once). Every iteration makes fresh Program objects, so nothing is reused in
// memory; "cold" runs with the cache off, "warm" from a cache filled before timing. "remote"
// loads from the remote tier (a redis-server of the benchmark's own, on a unix socket) into an
// empty disk cache each iteration, as a fresh node would. The device is opened before timing:
// context creation is not counted.
#include "core/cache/disk_cache.hpp"
#include "core/cache/remote_tier.hpp"
#include "redis_server.hpp"

#include <kjit/kjit.hpp>

#include <benchmark/benchmark.h>
#include <fmt/format.h>
#include <unistd.h>

#include <chrono>

#include <filesystem>
#include <vector>

namespace {

namespace fs = std::filesystem;
namespace cache = kjit::detail::cache;

/// Distinct programs of the size of a typical kernel file (salted saxpy-like kernels).
std::string program_source(int salt) {
  return fmt::format(
      "__device__ float twist(float v) {{ return v * {0}.0f + 1.0f / ({0}.0f + v * v); }}\n"
      "__global__ void k{0}(float a, const float* x, float* y, int n) {{\n"
      "  const int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
      "  if (i < n) y[i] = a * twist(x[i]) + y[i];\n}}\n",
      salt);
}

kjit::Device& device() {
  static kjit::Device d = kjit::Device::select();
  return d;
}

fs::path cache_dir() {
  static const fs::path dir =
      fs::temp_directory_path() / fmt::format("kjit-bench-cache-{}", getpid());
  return dir;
}

void use_cache(bool on) {
  cache::CacheSettings s;
  s.mode = on ? kjit::detail::environment::CacheMode::read_write
              : kjit::detail::environment::CacheMode::off;
  s.user_dir = cache_dir();
  cache::use_disk_cache(s);
}

/// The disk cache in `dir` (a fresh node's when the folder is new).
void use_cache_in(const fs::path& dir) {
  cache::CacheSettings s;
  s.user_dir = dir;
  cache::use_disk_cache(s);
}

/// A redis-server of the benchmark's own (the tests' RedisServer), started on first use; null
/// when redis-server is not installed. Stopped at exit.
kjit::test::RedisServer* redis() {
  static const std::unique_ptr<kjit::test::RedisServer> server =
      kjit::test::have_redis() ? std::make_unique<kjit::test::RedisServer>(cache_dir() / "redis")
                               : nullptr;
  return server.get();
}

void use_remote(bool on) {
  cache::RemoteSettings r;
  if (on) {
    r.address = cache::parse_remote_address(redis()->socket_url(), "benchmark");
    r.timeout = std::chrono::milliseconds(2000);
  }
  cache::use_remote_tier(r);
}

kjit::Program program(int salt) {
  return kjit::Program::from_source(fmt::format("k{}.cu", salt), program_source(salt),
                                    {.kernels = {fmt::format("k{}", salt)}});
}

void get_kernel(const kjit::Program& p, int salt) {
  auto k = p.kernel<float, const float*, float*, int>(fmt::format("k{}", salt), device());
  benchmark::DoNotOptimize(k);
}

/// Programs salted from `base`: each iteration of a cold run needs new ones (NVRTC and Clang keep
/// no cache of their own, but new text also rules out any other reuse).
/// Serial: each kernel() compiles (or loads) its program in turn. Parallel: kjit::build_all
/// builds them all on all cores first, as a program that registers many kernels would at startup.
void programs(int base, int count, bool parallel) {
  std::vector<kjit::Program> ps;
  ps.reserve(static_cast<std::size_t>(count));
  for (int i = 0; i < count; ++i) {
    ps.push_back(program(base + i));
  }
  if (parallel) {
    kjit::build_all(ps, device());
  }
  for (int i = 0; i < count; ++i) {
    get_kernel(ps[static_cast<std::size_t>(i)], base + i);
  }
}

void cold(benchmark::State& state) {
  const int count = static_cast<int>(state.range(0));
  const bool parallel = state.range(1) != 0;
  use_cache(false);
  int base = 100000;
  for (auto _ : state) {
    programs(base, count, parallel);
    base += count;
  }
}

void warm(benchmark::State& state) {
  const int count = static_cast<int>(state.range(0));
  const bool parallel = state.range(1) != 0;
  use_cache(true);
  programs(0, count, true);  // fill the cache (not timed)
  const kjit::CacheStats before = kjit::cache_stats();
  for (auto _ : state) {
    programs(0, count, parallel);
  }
  // Proof that the timed loads were hits: no compile ran while timing.
  state.counters["compiles"] = static_cast<double>(kjit::cache_stats().compiles - before.compiles);
}

void remote(benchmark::State& state) {
  if (redis() == nullptr) {
    state.SkipWithError("redis-server is not installed");
    return;
  }
  const int count = static_cast<int>(state.range(0));
  const bool parallel = state.range(1) != 0;
  use_remote(true);
  use_cache(true);
  programs(0, count, true);  // compile and publish (not timed)
  const kjit::CacheStats before = kjit::cache_stats();
  static int nodes = 0;  // every iteration of every run a node of its own, with an empty disk
  int node = 0;
  for (auto _ : state) {
    state.PauseTiming();
    use_cache_in(cache_dir() / fmt::format("node{}", nodes++));
    ++node;
    state.ResumeTiming();
    programs(0, count, parallel);
  }
  const kjit::CacheStats after = kjit::cache_stats();
  state.counters["compiles"] = static_cast<double>(after.compiles - before.compiles);
  state.counters["remote_hits"] =
      static_cast<double>(after.remote_hits - before.remote_hits) / static_cast<double>(node);
  state.counters["disk_hits"] = static_cast<double>(after.hits - before.hits) / node;
  state.counters["misses"] = static_cast<double>(after.misses - before.misses) / node;
  use_remote(false);
}

BENCHMARK(cold)->Name("cache/cold/1")->Args({1, 0})->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(warm)->Name("cache/warm/1")->Args({1, 0})->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(cold)
    ->Name("cache/cold/32_serial")
    ->Args({32, 0})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK(warm)
    ->Name("cache/warm/32_serial")
    ->Args({32, 0})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK(cold)
    ->Name("cache/cold/32_parallel")
    ->Args({32, 1})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK(warm)
    ->Name("cache/warm/32_parallel")
    ->Args({32, 1})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

BENCHMARK(remote)
    ->Name("cache/remote/1")
    ->Args({1, 0})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK(remote)
    ->Name("cache/remote/32_serial")
    ->Args({32, 0})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK(remote)
    ->Name("cache/remote/32_parallel")
    ->Args({32, 1})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  try {
    (void)device();
  } catch (const kjit::Error& e) {
    std::fprintf(stderr, "kjit_bench_cache: %s\n", e.what());
    return 1;
  }
  std::printf("device: %s\n", device().info().id().c_str());
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  if (redis() != nullptr) {
    redis()->stop();
  }
  fs::remove_all(cache_dir());
  return 0;
}
