// rsbench's baseline on the CPU: upstream/simulation.cu's lookup kernel as an OpenMP `parallel for`
// over the lookups, its device functions as they are written there (derived from that file, under
// its license), built ahead of time with upstream's flags (-O3, no fast math) and -march=native.
// upstream's host files (main.cu, its main renamed rsbench_main, io.cu, init.cu, material.cu,
// utils.cu) are built with it as C++, against host/cuda.h. Same options, inputs and report lines
// as kjit_rsbench, and the same --out and --expect-hash. HeCBench's own rsbench-omp offloads with
// `omp target teams distribute parallel for`, which g++ without an offload target runs on one
// thread, so this runs the loop kjit runs, on every core.
#include <omp.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "upstream/rsbench.h"

using std::atan;
using std::cos;
using std::sin;
using std::sqrt;

int rsbench_main(int argc, char* argv[]);  // upstream/main.cu's main, renamed by the build

namespace {

struct Options {
  std::string out;
  // The sum of the lookups' results, before main.cu's final hash step.
  unsigned long long vhash = 0;
};
Options options;

}  // namespace

// upstream/simulation.cu's lookup kernel: one iteration per thread.
static void lookup(const int* __restrict__ num_nucs, const double* __restrict__ concs,
                   const int* __restrict__ mats, int* __restrict__ verification,
                   const int* __restrict__ n_windows, const double* __restrict__ pseudo_K0RS,
                   const Window* __restrict__ windows, const Pole* __restrict__ poles,
                   int n_lookups, int input_doppler, int input_numL, int max_num_windows,
                   int max_num_poles, int max_num_nucs) {
#pragma omp parallel for schedule(static)
  for (int i = 0; i < n_lookups; i++) {
    // Set the initial seed value
    uint64_t seed = STARTING_SEED;

    // Forward seed to lookup index (we need 2 samples per lookup)
    seed = fast_forward_LCG(seed, 2 * i);

    // Randomly pick an energy and material for the particle
    double p_energy = LCG_random_double(&seed);
    int mat = pick_mat(&seed);

    double macro_xs_vector[4] = {0};

    // Perform macroscopic Cross Section Lookup
    calculate_macro_xs(macro_xs_vector, mat, p_energy, input_doppler, input_numL, num_nucs, mats,
                       max_num_nucs, concs, n_windows, pseudo_K0RS, windows, poles, max_num_windows,
                       max_num_poles);

    double max = -DBL_MAX;
    int max_idx = 0;
    for (int j = 0; j < 4; j++) {
      if (macro_xs_vector[j] > max) {
        max = macro_xs_vector[j];
        max_idx = j;
      }
    }
    verification[i] = max_idx + 1;
  }
}

// upstream/simulation.cu's run_event_based_simulation, the launch a call of the loop above.
void run_event_based_simulation(Input in, SimulationData SD, unsigned long* vhash_result,
                                double* kernel_time) {
  std::printf("Beginning event based simulation...\n");
  std::printf("Allocating an additional %.1lf MB of memory for verification arrays...\n",
              in.lookups * sizeof(int) / 1024.0 / 1024.0);
  std::vector<int> verification(static_cast<std::size_t>(in.lookups));
  std::printf("OpenMP threads %d\n", omp_get_max_threads());

  const auto start = std::chrono::steady_clock::now();
  lookup(SD.num_nucs, SD.concs, SD.mats, verification.data(), SD.n_windows, SD.pseudo_K0RS,
         SD.windows, SD.poles, in.lookups, in.doppler, in.numL, SD.max_num_windows,
         SD.max_num_poles, SD.max_num_nucs);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("Kernel initialization, compilation, and execution took %.2lf seconds.\n", seconds);
  std::printf("Average kernel execution time %f (ms)\n", seconds * 1e3);

  if (!options.out.empty()) {
    std::ofstream file(options.out, std::ios::binary);
    file.write(reinterpret_cast<const char*>(verification.data()),
               static_cast<std::streamsize>(verification.size() * sizeof(int)));
  }
  unsigned long long verification_scalar = 0;
  for (const int value : verification) {
    verification_scalar += value;
  }
  options.vhash = verification_scalar;
  *vhash_result = verification_scalar;
  *kernel_time = seconds;
}

int main(int argc, char* argv[]) {
  std::vector<char*> upstream_args{argv[0]};
  long expected_hash = -1;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--out") == 0 && i + 1 < argc) {
      options.out = argv[++i];
    } else if (std::strcmp(argv[i], "--expect-hash") == 0 && i + 1 < argc) {
      expected_hash = std::atol(argv[++i]);
    } else {
      upstream_args.push_back(argv[i]);
    }
  }
  upstream_args.push_back(nullptr);
  const int status = rsbench_main(static_cast<int>(upstream_args.size()) - 1, upstream_args.data());
  if (expected_hash >= 0) {
    const unsigned long long hash = options.vhash % 999983;  // main.cu's final hash step
    std::printf("Checksum %llu, expected %ld: %s\n", hash, expected_hash,
                hash == static_cast<unsigned long long>(expected_hash) ? "PASS" : "FAIL");
    return hash == static_cast<unsigned long long>(expected_hash) ? 0 : 3;
  }
  return status;
}

// upstream/simulation.cu's device functions, its lines from 191 to the end, which bench.sh
// writes to rs-device-functions.h (host/cuda.h makes their qualifiers empty).
#include "rs-device-functions.h"
