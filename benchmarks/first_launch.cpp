// Time to first launch, in a fresh process: from nothing to finished first launches on the device
// KJIT_DEVICE selects. Prints one line of milliseconds.
//   --programs N   N distinct programs (one vadd kernel each, built together by kjit::build_all),
//                  each launched once; 1 by default.
//   --sequential   wait for the device's context before compiling, which is what a runtime
//                  without kjit's overlap of context creation and compilation pays.
// scripts/first-launch.sh runs it cold and warm, several times each, and summarises.
#include <kjit/kjit.hpp>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

int main(int argc, char** argv) {
  using clock = std::chrono::steady_clock;
  bool sequential = false;
  int programs = 1;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--sequential") == 0) {
      sequential = true;
    } else if (std::strcmp(argv[i], "--programs") == 0 && i + 1 < argc) {
      programs = std::stoi(argv[++i]);
    } else {
      std::fprintf(stderr, "usage: %s [--sequential] [--programs N]\n", argv[0]);
      return 2;
    }
  }
  const auto ms = [](clock::time_point a, clock::time_point b) {
    return std::chrono::duration<double, std::milli>(b - a).count();
  };
  try {
    const auto t0 = clock::now();
    const kjit::Device device = kjit::Device::select();
    const auto t1 = clock::now();
    if (sequential) {
      device.synchronize();  // waits until the device's context exists
    }
    const auto t2 = clock::now();
    std::vector<kjit::Program> sources;
    for (int p = 0; p < programs; ++p) {
      // Each program adds its own constant: distinct sources, distinct cache entries.
      std::string source =
          "__global__ void vadd(const float* a, const float* b, float* c, int n) {\n"
          "  const int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
          "  if (i < n) c[i] = a[i] + b[i] + ";
      source += std::to_string(p);
      source += ".0f;\n}\n";
      kjit::CompileOptions options;
      options.kernels = {"vadd"};
      sources.push_back(kjit::Program::from_source("vadd" + std::to_string(p) + ".cu",
                                                   std::move(source), std::move(options)));
    }
    kjit::build_all(sources, device);
    std::vector<kjit::Kernel<const float*, const float*, float*, int>> kernels;
    for (const kjit::Program& program : sources) {
      kernels.push_back(program.kernel<const float*, const float*, float*, int>("vadd", device));
    }
    const auto t3 = clock::now();
    const int n = 1 << 20;
    auto a = device.upload(std::vector<float>(n, 1.0f));
    std::vector<kjit::DeviceBuffer<float>> c;
    for (std::size_t k = 0; k < kernels.size(); ++k) {
      c.push_back(device.alloc<float>(n));
      kernels[k].launch(kjit::LaunchConfig::for_elements(n), a, a, c.back(), n);
    }
    bool right = true;
    for (std::size_t k = 0; k < kernels.size(); ++k) {
      const std::vector<float> result = c[k].download();
      right = right && result.front() == 2.0f + static_cast<float>(k) &&
              result.back() == 2.0f + static_cast<float>(k);
    }
    const auto t4 = clock::now();
    std::printf(
        "%s %s, %d programs: select %.1f, wait for context %.1f, compile and load %.1f, launch "
        "and download %.1f, first launch %.1f ms (%s)\n",
        sequential ? "sequential" : "overlapped", device.info().id().c_str(), programs, ms(t0, t1),
        ms(t1, t2), ms(t2, t3), ms(t3, t4), ms(t0, t4), right ? "right" : "WRONG");
    return right ? 0 : 1;
  } catch (const kjit::Error& e) {
    std::printf("error: %s\n", e.what());
    return 1;
  }
}
