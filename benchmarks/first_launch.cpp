// Time to first launch, in a fresh process: from nothing to a finished first kernel on the device
// KJIT_DEVICE selects. Prints one line of milliseconds. With --sequential the program waits for the
// device's context before compiling, which is what a runtime without kjit's overlap of context
// creation and compilation pays. scripts/gpu-check.sh --bench runs both several times.
#include <kjit/kjit.hpp>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <vector>

int main(int argc, char** argv) {
  using clock = std::chrono::steady_clock;
  const bool sequential = argc > 1 && std::strcmp(argv[1], "--sequential") == 0;
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
    auto vadd = kjit::Program::from_source("vadd.cu", R"(
      __global__ void vadd(const float* a, const float* b, float* c, int n) {
        const int i = blockIdx.x * blockDim.x + threadIdx.x;
        if (i < n) c[i] = a[i] + b[i];
      })")
                    .kernel<const float*, const float*, float*, int>("vadd", device);
    const auto t3 = clock::now();
    const int n = 1 << 20;
    auto a = device.upload(std::vector<float>(n, 1.0f));
    auto c = device.alloc<float>(n);
    vadd.launch(kjit::LaunchConfig::for_elements(n), a, a, c, n);
    const float first = c.download()[0];
    const auto t4 = clock::now();
    std::printf(
        "%s %s: select %.1f, wait for context %.1f, compile and load %.1f, launch and "
        "download %.1f, first launch %.1f ms (result %.0f)\n",
        sequential ? "sequential" : "overlapped", device.info().id().c_str(), ms(t0, t1),
        ms(t1, t2), ms(t2, t3), ms(t3, t4), ms(t0, t4), first);
    return first == 2.0f ? 0 : 1;
  } catch (const kjit::Error& e) {
    std::printf("error: %s\n", e.what());
    return 1;
  }
}
