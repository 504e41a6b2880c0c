// A program built against an installed kjit (find_package or pkg-config), as a user builds one:
// runs saxpy on random inputs on the selected device and checks every value on the host.
#include <kjit/kjit.hpp>

#include <cmath>
#include <cstdio>
#include <random>
#include <vector>

int main() {
  try {
    const kjit::Device device = kjit::Device::select();
    auto saxpy =
        kjit::Program::from_source("consumer_saxpy.cu",
                                   "__global__ void saxpy(float a, const float* x, "
                                   "float* y, int n) {\n"
                                   "  const int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                                   "  if (i < n) y[i] = a * x[i] + y[i];\n"
                                   "}\n")
            .kernel<float, const float*, float*, int>("saxpy", device);
    const int n = 100000;
    std::mt19937 random(12345);
    std::uniform_real_distribution<float> value(-10.0F, 10.0F);
    std::vector<float> x(n);
    std::vector<float> y(n);
    for (int i = 0; i < n; ++i) {
      x[i] = value(random);
      y[i] = value(random);
    }
    kjit::DeviceBuffer<float> dx = device.upload(x);
    kjit::DeviceBuffer<float> dy = device.upload(y);
    saxpy.launch(kjit::LaunchConfig::for_elements(n), 3.0F, dx, dy, n);
    const std::vector<float> out = dy.download();
    int wrong = 0;
    for (int i = 0; i < n; ++i) {
      if (std::fabs(out[i] - (3.0F * x[i] + y[i])) > 1e-4F * (1.0F + std::fabs(out[i]))) {
        ++wrong;
      }
    }
    std::printf("consumer: saxpy on %s: %d of %d values wrong\n", device.info().id().c_str(), wrong,
                n);
    return wrong == 0 ? 0 : 1;
  } catch (const kjit::Error& e) {
    std::printf("consumer: %s\n", e.what());
    return 1;
  }
}
