// The Conan package's test: runs the embedded saxpy on the selected device and checks it.
#include <kjit/kjit.hpp>

#include <cmath>
#include <cstdio>
#include <vector>

int main() {
  try {
    const kjit::Device device = kjit::Device::select();
    auto saxpy = kjit::Program::from_embedded("saxpy.cu")
                     .kernel<float, const float*, float*, int>("saxpy", device);
    const int n = 4096;
    std::vector<float> x(n);
    std::vector<float> y(n);
    for (int i = 0; i < n; ++i) {
      x[i] = static_cast<float>(i % 97) * 0.5F;
      y[i] = static_cast<float>(i % 13) - 6.0F;
    }
    kjit::DeviceBuffer<float> dx = device.upload(x);
    kjit::DeviceBuffer<float> dy = device.upload(y);
    saxpy.launch(kjit::LaunchConfig::for_elements(n), 2.0F, dx, dy, n);
    const std::vector<float> out = dy.download();
    int wrong = 0;
    for (int i = 0; i < n; ++i) {
      wrong += std::fabs(out[i] - (2.0F * x[i] + y[i])) > 1e-5F ? 1 : 0;
    }
    std::printf("kjit test_package: saxpy on %s: %d of %d values wrong\n",
                device.info().id().c_str(), wrong, n);
    return wrong == 0 ? 0 : 1;
  } catch (const kjit::Error& e) {
    std::printf("kjit test_package: %s\n", e.what());
    return 1;
  }
}
