// adam (HeCBench, as Proteus benchmarks it) on kjit: the host code of upstream/main.cu written on
// kjit's API, the kernel file loaded as shipped. Same inputs, same launches, same report line;
// --specialise defines ENABLE_JIT, which turns on the kernel's Proteus annotation: kjit then
// runs the variant for the annotated arguments' values (the kernel itself while the variant
// compiles; with --wait-for-variant, launches wait for it); --out writes p, m and v for comparison
// with the nvcc build's.
#include <kjit/kjit.hpp>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <initializer_list>
#include <string>
#include <vector>

namespace {

int usage(const char* self) {
  std::fprintf(stderr,
               "usage: %s <vector size> <number of time steps> <repeat> [--specialise] "
               "[--wait-for-variant] [--out FILE]\n",
               self);
  return 2;
}

/// Nanoseconds that `repeat` calls of `launch` take, to the last kernel's end.
template <class Launch>
std::int64_t timed(const kjit::Device& device, int repeat, Launch&& launch) {
  device.synchronize();
  const auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < repeat; i++) {
    launch();
  }
  device.synchronize();
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() -
                                                              start)
      .count();
}

}  // namespace

int main(int argc, char* argv[]) {
  if (argc < 4) {
    return usage(argv[0]);
  }
  const int vector_size = std::atoi(argv[1]);
  const int time_step = std::atoi(argv[2]);
  const int repeat = std::atoi(argv[3]);
  bool specialise = false;
  bool wait_for_variant = false;
  std::string out;
  for (int i = 4; i < argc; ++i) {
    if (std::strcmp(argv[i], "--specialise") == 0) {
      specialise = true;
    } else if (std::strcmp(argv[i], "--wait-for-variant") == 0) {
      wait_for_variant = true;
    } else if (std::strcmp(argv[i], "--out") == 0 && i + 1 < argc) {
      out = argv[++i];
    } else {
      return usage(argv[0]);
    }
  }
  if (vector_size <= 0 || time_step < 0 || repeat <= 0) {
    return usage(argv[0]);
  }
  try {
    // The kernel is asked for first: kjit compiles it while the device's context is made.
    const kjit::Device device = kjit::Device::select();
    kjit::CompileOptions options;
    options.fast_math = true;  // as upstream builds it (-O3 -ffast-math)
    if (specialise) {
      // The kernel's annotate("jit", 5, 6, 7, 8, 9, 10, 11, 13), which upstream puts behind
      // ENABLE_JIT: each launch runs the variant for those arguments' values.
      options.defines["ENABLE_JIT"] = "";
      options.launch_waits_for_variants = wait_for_variant;
    }
    const kjit::Program program = kjit::Program::from_file(KJIT_ADAM_KERNEL_FILE, options);
    auto adam = program.kernel<float*, float*, float*, const float*, float, float, float, float,
                               float, int, std::size_t, int, float>("adam<float, float>", device);
    const auto n = static_cast<std::size_t>(vector_size);
    std::vector<float> m(n);
    std::vector<float> v(n);
    std::vector<float> g(n);
    std::vector<float> p(n);
    std::srand(123);  // the upstream program's inputs, drawn in its order
    for (std::size_t i = 0; i < n; i++) {
      m[i] = static_cast<float>(std::rand()) / static_cast<float>(RAND_MAX);
      v[i] = static_cast<float>(std::rand()) / static_cast<float>(RAND_MAX);
      g[i] = static_cast<float>(std::rand()) / static_cast<float>(RAND_MAX);
      p[i] = static_cast<float>(std::rand()) / static_cast<float>(RAND_MAX);
    }

    auto d_m = device.upload(m);
    auto d_v = device.upload(v);
    auto d_g = device.upload(g);
    auto d_p = device.upload(p);

    const float step_size = 1e-3F;
    const float decay = 0.5F;
    const float beta1 = 0.9F;
    const float beta2 = 0.999F;
    const float eps = 1e-8F;
    const float grad_scale = 256.F;
    const int mode = 0;  // ADAM_MODE_0
    const std::uint32_t threads_per_block = 256;
    const kjit::LaunchConfig config{
        kjit::Dim3{(static_cast<std::uint32_t>(vector_size) + threads_per_block - 1) /
                   threads_per_block},
        kjit::Dim3{threads_per_block}};

    // The first launch apart (a variant compiles in it), then the others.
    const auto launch = [&] {
      adam.launch(config, d_p, d_m, d_v, d_g, beta1, beta2, eps, grad_scale, step_size, time_step,
                  n, mode, decay);
    };
    const std::int64_t first = timed(device, 1, launch);
    const std::int64_t rest = timed(device, repeat - 1, launch);
    std::printf("First launch %f (ms)\n", static_cast<double>(first) * 1e-6);
    std::printf("Average kernel execution time %f (ms)\n",
                static_cast<double>(repeat > 1 ? rest : first) * 1e-6 / std::max(repeat - 1, 1));
    if (!out.empty()) {  // p, m and v: p is NaN as shipped (the kernel divides by 0 at t = 0)
      std::ofstream file(out, std::ios::binary);
      for (const auto* buffer : {&d_p, &d_m, &d_v}) {
        const std::vector<float> result = buffer->download();
        file.write(reinterpret_cast<const char*>(result.data()),
                   static_cast<std::streamsize>(result.size() * sizeof(float)));
      }
    }
  } catch (const kjit::Error& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 1;
  }
  return 0;
}
