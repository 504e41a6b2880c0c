// A program that returns while variants of an annotated kernel compile in the background: it
// selects its device, launches the kernel with several values of its annotated argument (each
// value a variant) and returns at once. The kernel's text is the same in every run, so that from
// the second run on it comes from the disk cache and the process's first compile is a variant's;
// the values are new in each run, and the run returns after a wait of 0 to 175 ms that differs from
// run to run, so that exit meets the compiles at different stages. It must exit with 0 every
// time, on every backend (failing_compiles_test.cpp runs it many times).
#include <kjit/kjit.hpp>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

int main(int argc, char** argv) {
  const int values = argc > 1 ? std::atoi(argv[1]) : 6;
  try {
    const kjit::Device device = kjit::Device::select();
    const auto k = kjit::Program::from_source("exit_while_compiling.cu", R"(
__global__ __attribute__((annotate("jit", 2))) void k(int* p, int m, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    p[i] = p[i] * m + i;
  }
}
)")
                       .kernel<int*, int, int>("k", device);
    const auto now = std::chrono::steady_clock::now().time_since_epoch().count();
    const int first = static_cast<int>(now % 1000000) * values;
    auto data = device.upload(std::vector<int>(256, 1));
    for (int m = first; m < first + values; ++m) {
      k.launch(kjit::LaunchConfig::for_elements(256, 64), data, m, 256);
    }
    device.synchronize();
    std::this_thread::sleep_for(std::chrono::milliseconds(now / 1000 % 8 * 25));
    std::printf("launched %d values; returning while their variants compile\n", values);
    return 0;
  } catch (const kjit::DeviceError& e) {
    std::printf("no device: %s\n", e.what());
    return 0;
  }
}
