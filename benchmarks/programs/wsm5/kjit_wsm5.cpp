// wsm5 (HeCBench, as Proteus benchmarks it) on kjit: the host code of upstream/main.cu written on
// kjit's API, the kernel file loaded as shipped. Same inputs (utils.h's TODEV sets every value to
// 0.001), same launches, same report lines; --specialise defines ENABLE_JIT, which turns on the
// kernel's Proteus annotation (delt and the 18 bounds): kjit then runs the variant for those
// arguments' values. --out writes the last launch's th, q, qc, qi, qr and qs for comparison with
// the nvcc build's: rain, snow, sr, rainncv and snowncv (and upstream's checksum of rain and
// snow) depend on fallc_k, which the kernel reads before it ever sets it, so they differ from one
// compiler to another. --nx and --ny shrink the grid of columns (upstream's 60 x 46, fixed in its
// main) so that the CPU backend runs it in seconds. --expect FILE compares the outputs with those
// another build wrote (kRelative says within what); --wait-for-variant makes the launches wait for
// their variant (CompileOptions::launch_waits_for_variants) instead of running the kernel itself
// while it compiles, so that a check of --specialise checks the variant.
#include <kjit/kjit.hpp>

#include "../expected_output.h"

#include <array>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

int usage(const char* self) {
  std::fprintf(
      stderr,
      "usage: %s <repeat> [--specialise] [--wait-for-variant] [--out FILE] [--expect FILE] "
      "[--nx N (60)] [--ny N (46)]\n",
      self);
  return 2;
}

// --expect wants every value within a relative 1e-5, or by 1e-30 at most: kjit's CPU backend
// contracts a * b + c into fused multiply-adds, as CUDA does, where the host build need not;
// those last bits grow over qs's sedimentation steps (hundreds of thousands per column on
// upstream's inputs), which end in subnormal values that keep only a few bits.
constexpr float kRelative = 1e-5F;
constexpr float kAbsolute = 1e-30F;

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
  int nx = 60;
  int ny = 46;
  for (int i = 2; i < argc; ++i) {
    if (std::strcmp(argv[i], "--specialise") == 0) {
      specialise = true;
    } else if (std::strcmp(argv[i], "--wait-for-variant") == 0) {
      wait_for_variant = true;
    } else if (std::strcmp(argv[i], "--out") == 0 && i + 1 < argc) {
      out = argv[++i];
    } else if (std::strcmp(argv[i], "--expect") == 0 && i + 1 < argc) {
      expect = argv[++i];
    } else if (std::strcmp(argv[i], "--nx") == 0 && i + 1 < argc) {
      nx = std::atoi(argv[++i]);
    } else if (std::strcmp(argv[i], "--ny") == 0 && i + 1 < argc) {
      ny = std::atoi(argv[++i]);
    } else {
      return usage(argv[0]);
    }
  }
  if (repeat <= 0 || nx <= 0 || ny <= 0) {
    return usage(argv[0]);
  }
  // upstream/main.cu's patch: ims = ips = 0, ime = ipe = nx - 1 (59), likewise j (45), and three
  // levels (kme = kpe = 2); the kernel takes them 1-based.
  const float delt = 10.f;
  const int kpe = 2;
  const int d3 = nx * ny * (kpe + 1);
  const int d2 = nx * ny;
  const int dipe = nx;
  const int djpe = ny;
  const int dkpe = kpe + 1;
  const std::uint32_t block_x = 8;  // upstream/utils.h's XXX and YYY
  const std::uint32_t block_y = 8;
  const kjit::LaunchConfig config{
      kjit::Dim3{(static_cast<std::uint32_t>(dipe) + block_x - 1) / block_x,
                 (static_cast<std::uint32_t>(djpe) + block_y - 1) / block_y},
      kjit::Dim3{block_x, block_y}};

  try {
    const kjit::Device device = kjit::Device::select();
    kjit::CompileOptions options;  // upstream builds with -O3, no fast math
    options.defines["MKX"] = "4";  // as upstream's Makefile: the most levels a column has
    if (specialise) {
      // The kernel's annotate("jit", 16, ..., 34), which upstream puts behind ENABLE_JIT: each
      // launch runs the variant for the values of delt and the bounds.
      options.defines["ENABLE_JIT"] = "";
    }
    options.launch_waits_for_variants = wait_for_variant;
    const kjit::Program program = kjit::Program::from_file(KJIT_WSM5_KERNEL_FILE, options);
    auto wsm = program.kernel<float*, const float*, float*, float*, float*, float*, float*,
                              const float*, const float*, const float*, float*, float*, float*,
                              float*, float*, float, int, int, int, int, int, int, int, int, int,
                              int, int, int, int, int, int, int, int, int>("wsm", device);

    float rain_sum = 0;
    float snow_sum = 0;
    std::vector<std::vector<float>> outputs;  // th, q, qc, qi, qr, qs of the last launch
    std::int64_t time = 0;
    std::int64_t first = 0;
    for (int i = 0; i < repeat; i++) {
      // utils.h's TODEV3 and TODEV2, upstream's order: every value 0.001, uploaded each time.
      const std::vector<float> level3(static_cast<std::size_t>(d3), 0.001F);
      const std::vector<float> level2(static_cast<std::size_t>(d2), 0.001F);
      auto pii = device.upload(level3);
      auto den = device.upload(level3);
      auto p = device.upload(level3);
      auto delz = device.upload(level3);
      auto th = device.upload(level3);
      auto q = device.upload(level3);
      auto qc = device.upload(level3);
      auto qi = device.upload(level3);
      auto qr = device.upload(level3);
      auto qs = device.upload(level3);
      auto rain = device.upload(level2);
      auto rainncv = device.upload(level2);
      auto sr = device.upload(level2);
      auto snow = device.upload(level2);
      auto snowncv = device.upload(level2);

      device.synchronize();
      const auto start = std::chrono::steady_clock::now();

      wsm.launch(config, th, pii, q, qc, qi, qr, qs, den, p, delz, rain, rainncv, sr, snow, snowncv,
                 delt, 1, dipe,  // ids, ide
                 1, djpe,        // jds, jde
                 1, dkpe,        // kds, kde
                 1, dipe,        // ims, ime
                 1, djpe,        // jms, jme
                 1, dkpe,        // kms, kme
                 1, dipe,        // ips, ipe
                 1, djpe,        // jps, jpe
                 1, dkpe);       // kps, kpe

      device.synchronize();
      const auto end = std::chrono::steady_clock::now();
      const std::int64_t ns =
          std::chrono::duration_cast<std::chrono::nanoseconds>(end - start).count();
      if (i == 0) {
        first = ns;  // a variant compiles in it
      } else {
        time += ns;
      }

      const std::vector<float> rain_h = rain.download();
      const std::vector<float> snow_h = snow.download();
      rain_sum = snow_sum = 0;
      for (int j = 0; j < d2; j++) {
        rain_sum += rain_h[static_cast<std::size_t>(j)];
        snow_sum += snow_h[static_cast<std::size_t>(j)];
      }
      if (i == repeat - 1 && (!out.empty() || !expect.empty())) {
        for (const auto* buffer : std::array{&th, &q, &qc, &qi, &qr, &qs}) {
          outputs.push_back(buffer->download());
        }
      }
    }
    // Upstream's line averages every launch, the first included; kjit's figure leaves out the
    // first launch, in which kjit compiles (its own line).
    std::printf("Average kernel execution time: %lf (ms)\n",
                static_cast<double>(time + first) * 1e-6 / repeat);
    std::printf("Checksum: rain = %f snow = %f\n", static_cast<double>(rain_sum),
                static_cast<double>(snow_sum));
    std::printf("First launch %f (ms)\n", static_cast<double>(first) * 1e-6);
    std::printf(
        "Average kernel execution time %f (ms)\n",
        static_cast<double>(repeat > 1 ? time : first) * 1e-6 / (repeat > 1 ? repeat - 1 : 1));

    std::vector<float> all;
    for (const auto& values : outputs) {
      all.insert(all.end(), values.begin(), values.end());
    }
    if (!out.empty()) {
      programs::write_values(out, all);
    }
    if (!expect.empty()) {
      return programs::check_expected(expect, all, kRelative, kAbsolute);
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 1;
  }
  return 0;
}
