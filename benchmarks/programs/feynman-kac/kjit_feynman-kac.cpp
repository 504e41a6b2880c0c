// feynman-kac (HeCBench, as Proteus benchmarks it) on kjit: the host code of upstream/main.cu
// written on kjit's API, the kernel files loaded as shipped. Same inputs, same launches, same
// report lines; --specialise defines ENABLE_JIT, which turns on the kernel's Proteus annotation
// (a, b, h and rth): kjit then runs the variant for those arguments' values, the kernel itself
// while it compiles; with --wait-for-variant the launch waits for it. --out writes the
// last launch's n_inside (int32) and err (the sum of squared errors, a double) for comparison with
// the nvcc build's. --nj and --paths shrink the problem (upstream's are 128 and 1000, fixed in its
// main) so that the CPU backend runs it in seconds. --expect FILE compares the outputs with those
// another run wrote: the sum of err is in the order the atomics ran, so it may differ in its last
// bits from run to run; n_inside must be equal and err within 1e-12 of FILE's, relatively.
#include <kjit/kjit.hpp>

#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <span>
#include <stdexcept>
#include <string>
#include <utility>

namespace {

int usage(const char* self) {
  std::fprintf(stderr,
               "usage: %s <iterations> [--specialise] [--wait-for-variant] [--out FILE] "
               "[--expect FILE] [--nj N (128)] [--paths N (1000)]\n",
               self);
  return 2;
}

std::string read_text(const char* path) {
  std::ifstream file(path, std::ios::binary);
  if (!file) {
    throw std::runtime_error(std::string("cannot read ") + path);
  }
  return {std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>()};
}

// upstream/util.h's i4_ceiling, a host function: the device build of util.h leaves it out.
int i4_ceiling(double x) {
  int value = static_cast<int>(x);
  if (value < x) {
    value = value + 1;
  }
  return value;
}

}  // namespace

int main(int argc, char* argv[]) {
  if (argc < 2) {
    return usage(argv[0]);
  }
  const int repeat = std::atoi(argv[1]);
  bool specialise = false;
  bool wait_for_variant = false;
  std::string out;
  std::string expect;
  int nj = 128;
  int N = 1000;  // NOLINT(readability-identifier-naming): upstream's name
  for (int i = 2; i < argc; ++i) {
    if (std::strcmp(argv[i], "--specialise") == 0) {
      specialise = true;
    } else if (std::strcmp(argv[i], "--wait-for-variant") == 0) {
      wait_for_variant = true;
    } else if (std::strcmp(argv[i], "--out") == 0 && i + 1 < argc) {
      out = argv[++i];
    } else if (std::strcmp(argv[i], "--expect") == 0 && i + 1 < argc) {
      expect = argv[++i];
    } else if (std::strcmp(argv[i], "--nj") == 0 && i + 1 < argc) {
      nj = std::atoi(argv[++i]);
    } else if (std::strcmp(argv[i], "--paths") == 0 && i + 1 < argc) {
      N = std::atoi(argv[++i]);
    } else {
      return usage(argv[0]);
    }
  }
  if (repeat <= 0 || nj < 2 || N <= 0) {
    return usage(argv[0]);
  }
  const double a = 2.0;
  const double b = 1.0;
  const int dim = 2;
  const double h = 0.001;
  const int seed = 123456789;

  std::printf("\n");
  std::printf("\n");
  std::printf("FEYNMAN_KAC_2D:\n");
  std::printf("\n");
  std::printf("  Program parameters:\n");
  std::printf("\n");
  std::printf("  The calculation takes place inside a 2D ellipse.\n");
  std::printf("  A rectangular grid of points will be defined.\n");
  std::printf("  The solution will be estimated for those grid points\n");
  std::printf("  that lie inside the ellipse.\n");
  std::printf("\n");
  std::printf("  Each solution will be estimated by computing %d trajectories\n", N);
  std::printf("  from the point to the boundary.\n");
  std::printf("\n");
  std::printf("    (X/A)^2 + (Y/B)^2 = 1\n");
  std::printf("\n");
  std::printf("  The ellipse parameters A, B are set to:\n");
  std::printf("\n");
  std::printf("    A = %f\n", a);
  std::printf("    B = %f\n", b);
  std::printf("  Stepsize H = %6.4f\n", h);

  // scaled stepsize.
  const double rth = std::sqrt(static_cast<double>(dim) * h);
  // a > b
  const int ni = 1 + i4_ceiling(a / b) * (nj - 1);

  std::printf("\n");
  std::printf("  X coordinate marked by %d points\n", ni);
  std::printf("  Y coordinate marked by %d points\n", nj);

  try {
    const kjit::Device device = kjit::Device::select();
    kjit::CompileOptions options;  // upstream builds with -O3, no fast math
    if (specialise) {
      // The kernel's annotate("jit", 5, 6, 7, 8), which upstream puts behind ENABLE_JIT: each
      // launch runs the variant for the values of a, b, h and rth.
      options.defines["ENABLE_JIT"] = "";
      options.launch_waits_for_variants = wait_for_variant;
    }
    // upstream/main.cu includes util.h, then kernel.h (its own code is host code). kjit reads
    // annotations in a program's own text, not in the headers it includes: so the program here
    // is kernel.h's text after an include of util.h (the lines in its messages are kernel.h's
    // plus one). Without ENABLE_JIT, its annotation is behind an #ifdef that is off.
    options.headers["util.h"] = read_text(KJIT_FK_UTIL_FILE);
    std::string text = "#include \"util.h\"\n" + read_text(KJIT_FK_KERNEL_FILE);
    const kjit::Program program =
        kjit::Program::from_source("feynman-kac/fk.cu", std::move(text), options);
    auto fk = program.kernel<int, int, int, int, double, double, double, double, int*, double*>(
        "fk", device);

    const kjit::LaunchConfig config{kjit::Dim3{static_cast<std::uint32_t>((ni + 15) / 16),
                                               static_cast<std::uint32_t>((nj + 15) / 16)},
                                    kjit::Dim3{16, 16}};

    double err = 0.0;
    int n_inside = 0;
    auto d_err = device.alloc<double>(1);
    auto d_n_inside = device.alloc<int>(1);

    std::int64_t time = 0;
    std::int64_t first = 0;
    for (int i = 0; i < repeat; i++) {
      d_err.upload(std::span<const double>(&err, 1));
      d_n_inside.upload(std::span<const int>(&n_inside, 1));

      device.synchronize();
      const auto start = std::chrono::steady_clock::now();

      fk.launch(config, ni, nj, seed, N, a, b, h, rth, d_n_inside, d_err);

      device.synchronize();
      const auto end = std::chrono::steady_clock::now();
      const std::int64_t ns =
          std::chrono::duration_cast<std::chrono::nanoseconds>(end - start).count();
      if (i == 0) {
        first = ns;  // a variant compiles in it
      } else {
        time += ns;
      }
    }
    // Upstream's line averages every launch, the first included; kjit's figure leaves out the
    // first launch, in which kjit compiles (its own line).
    std::printf("Average kernel time: %lf (s)\n",
                static_cast<double>(time + first) * 1e-9 / repeat);
    std::printf("First launch %f (ms)\n", static_cast<double>(first) * 1e-6);
    std::printf(
        "Average kernel execution time %f (ms)\n",
        static_cast<double>(repeat > 1 ? time : first) * 1e-6 / (repeat > 1 ? repeat - 1 : 1));

    d_err.download(std::span<double>(&err, 1));
    d_n_inside.download(std::span<int>(&n_inside, 1));
    if (!out.empty()) {
      std::ofstream file(out, std::ios::binary);
      file.write(reinterpret_cast<const char*>(&n_inside), sizeof n_inside);
      file.write(reinterpret_cast<const char*>(&err), sizeof err);
    }
    const double sum = err;
    err = std::sqrt(err / static_cast<double>(n_inside));
    std::printf("\n");
    std::printf("  RMS absolute error in solution = %e\n", err);
    std::printf("\n");
    std::printf("FEYNMAN_KAC_2D:\n");
    std::printf("  Normal end of execution.\n");
    std::printf("\n");
    if (!expect.empty()) {
      const std::string bytes = read_text(expect.c_str());
      int expected_n = 0;
      double expected_err = 0.0;
      if (bytes.size() != sizeof expected_n + sizeof expected_err) {
        throw std::runtime_error(expect + " is not an output of this program");
      }
      std::memcpy(&expected_n, bytes.data(), sizeof expected_n);
      std::memcpy(&expected_err, bytes.data() + sizeof expected_n, sizeof expected_err);
      const double relative = std::fabs(sum - expected_err) / std::fabs(expected_err);
      std::printf(
          "Against %s: n_inside %d (expected %d), err %.17g (expected %.17g, relative "
          "difference %.3g)\n",
          expect.c_str(), n_inside, expected_n, sum, expected_err, relative);
      if (n_inside != expected_n || !(relative <= 1e-12)) {
        std::printf("FAIL\n");
        return 3;
      }
      std::printf("PASS\n");
    }

  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 1;
  }
  return 0;
}
