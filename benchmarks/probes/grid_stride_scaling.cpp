// Why does a grid-stride reduction lose to OpenMP on many cores but not on one? Times, in one
// process and interleaved (median of rounds): kjit's reduce_sum<double> (kernels/reduction.cu)
// over 2^24 doubles with 1 to 16 blocks of 256 threads per worker; OpenMP's simd reduction; and
// OpenMP loops that read the array in the order kjit's workers do (each thread a few adjacent
// blocks' threads, four grid-stride iterations per pass), with each thread's sums in memory as
// kjit keeps them, so that the order of memory accesses and kjit's code can be told apart.
// Usage: grid_stride_scaling KERNEL_DIR [ROUNDS [grouped]]; KJIT_CPU_THREADS and OMP_NUM_THREADS
// agree. Rounds interleave the cases unless "grouped" (each case's rounds back to back, as
// Google Benchmark runs a repetition; OpenMP's idle threads spin after a region, by default, and
// take cores from the case that follows).
#include <kjit/kjit.hpp>

#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace {

constexpr int kN = 1 << 24;
constexpr int kBlock = 256;

double omp_sum(const double* x) {
  double sum = 0.0;
#pragma omp parallel for simd schedule(static) reduction(+ : sum)
  for (int i = 0; i < kN; ++i) {
    sum += x[i];
  }
  return sum;
}

/// kjit's order: `blocks` blocks of kBlock threads striding over the array, each OpenMP thread a
/// contiguous share of the blocks taking turns per pass, `per_pass` iterations per pass, each
/// thread's running sum in memory between passes.
double omp_grid_stride(const double* x, int blocks, int per_pass) {
  const int threads = omp_get_max_threads();
  const long stride = static_cast<long>(blocks) * kBlock;
  double total = 0.0;
#pragma omp parallel reduction(+ : total)
  {
    const int w = omp_get_thread_num();
    const int share = (blocks + threads - 1) / threads;
    const int first = std::min(blocks, w * share);
    const int last = std::min(blocks, first + share);
    std::vector<double> acc(static_cast<std::size_t>(std::max(0, last - first)) * kBlock, 0.0);
    for (long base = 0; base < kN; base += stride * per_pass) {
      for (int b = first; b < last; ++b) {
        double* a = acc.data() + static_cast<std::size_t>(b - first) * kBlock;
        const long start = base + static_cast<long>(b) * kBlock;
#pragma omp simd
        for (int t = 0; t < kBlock; ++t) {
          double s = a[t];
          for (int k = 0; k < per_pass; ++k) {
            const long i = start + t + k * stride;
            s += i < kN ? x[i] : 0.0;
          }
          a[t] = s;
        }
      }
    }
    for (const double v : acc) {
      total += v;
    }
  }
  return total;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: grid_stride_scaling KERNEL_DIR [ROUNDS]\n");
    return 2;
  }
  const int rounds = argc > 2 ? std::atoi(argv[2]) : 21;
  const bool grouped = argc > 3 && std::string(argv[3]) == "grouped";
  kjit::Device device = kjit::Device::select("cpu");
  const unsigned workers = device.info().compute_units;
  auto kernel = kjit::Program::from_file(std::string(argv[1]) + "/reduction.cu")
                    .kernel<const double*, double*, int>("reduce_sum<double>", device);
  const std::vector<double> host(kN, 1.0);
  auto x = device.upload(host);
  auto sum = device.upload(std::vector<double>{0.0});

  std::vector<std::pair<std::string, std::function<double()>>> cases;
  for (const unsigned per_worker : {1U, 2U, 4U, 8U, 16U}) {
    const kjit::LaunchConfig config{.grid = {per_worker * workers}, .block = {kBlock}};
    cases.emplace_back("kjit reduce_sum, " + std::to_string(per_worker) + " blocks per worker",
                       [&, config] {
                         kernel.launch(config, x, sum, kN);
                         device.synchronize();
                         return 0.0;
                       });
  }
  cases.emplace_back("openmp simd reduction", [&] { return omp_sum(host.data()); });
  for (const int per_pass : {1, 4}) {
    for (const unsigned per_worker : {4U, 16U}) {
      cases.emplace_back("openmp in kjit's order, " + std::to_string(per_worker) +
                             " blocks per worker, " + std::to_string(per_pass) + " per pass",
                         [&, per_pass, per_worker] {
                           return omp_grid_stride(host.data(),
                                                  static_cast<int>(per_worker * workers), per_pass);
                         });
    }
  }
  std::vector<std::vector<double>> times(cases.size());
  double checksum = 0.0;
  const auto time = [&](std::size_t c) {
    const auto start = std::chrono::steady_clock::now();
    checksum += cases[c].second();
    times[c].push_back(
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
            .count());
  };
  for (int r = 0; r < (grouped ? 1 : rounds); ++r) {
    for (std::size_t c = 0; c < cases.size(); ++c) {
      for (int g = 0; g < (grouped ? rounds : 1); ++g) {
        time(c);
      }
    }
  }
  std::printf("%u workers, %d OpenMP threads, %d rounds%s (checksum %g)\n", workers,
              omp_get_max_threads(), rounds, grouped ? " grouped" : "", checksum);
  for (std::size_t c = 0; c < cases.size(); ++c) {
    std::vector<double>& t = times[c];
    std::sort(t.begin(), t.end());
    std::printf("%8.3f ms  (min %.3f)  %s\n", t[t.size() / 2], t.front(), cases[c].first.c_str());
  }
  return 0;
}
