// A program that returns while variants of an annotated kernel compile in the background: it
// selects its device, launches the kernel with several values of its annotated argument (each
// value a variant, compiled on the background queue) and returns at once. It must exit with 0
// every time, on every backend (failing_compiles_test.cpp runs it many times).
#include <kjit/kjit.hpp>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

int main(int argc, char** argv) {
  const int values = argc > 1 ? std::atoi(argv[1]) : 6;
  try {
    const kjit::Device device = kjit::Device::select();
    // A text of its own (a comment with the time), so that each run compiles its variants.
    const std::string source =
        "// run " + std::to_string(std::chrono::steady_clock::now().time_since_epoch().count()) +
        "\n__global__ __attribute__((annotate(\"jit\", 2))) void k(int* p, int m, int n) {\n"
        "  const int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "  if (i < n) { p[i] = p[i] * m + i; }\n"
        "}\n";
    const auto k = kjit::Program::from_source("exit_while_compiling.cu", source)
                       .kernel<int*, int, int>("k", device);
    auto data = device.upload(std::vector<int>(256, 1));
    for (int m = 0; m < values; ++m) {
      k.launch(kjit::LaunchConfig::for_elements(256, 64), data, m + 2, 256);
    }
    device.synchronize();
    std::printf("launched %d values; returning while their variants compile\n", values);
    return 0;
  } catch (const kjit::DeviceError& e) {
    std::printf("no device: %s\n", e.what());
    return 0;
  }
}
