// A program built against an installed kjit (find_package or pkg-config), as a user builds one:
// runs saxpy on random inputs on the selected device and checks every value on the host. With
// no argument it uses the kernel embedded by kjit_add_kernels(); else the kernel file named.
#include <kjit/kjit.hpp>

#include <cmath>
#include <cstdio>
#include <random>
#include <vector>

int main(int argc, char** argv) {
  try {
    const kjit::Device device = kjit::Device::select();
    // The CMake build embeds the kernel (kjit_add_kernels); the pkg-config build names its file.
    const kjit::Program program = argc > 1 ? kjit::Program::from_file(argv[1])
                                           : kjit::Program::from_embedded("consumer_saxpy.cu");
    auto saxpy = program.kernel<float, const float*, float*, int>("saxpy", device);
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
    const kjit::CacheStats stats = kjit::cache_stats();
    std::printf("consumer: saxpy on %s: %d of %d values wrong (compiled %llu, loaded %llu)\n",
                device.info().id().c_str(), wrong, n,
                static_cast<unsigned long long>(stats.compiles),
                static_cast<unsigned long long>(stats.hits));
    return wrong == 0 ? 0 : 1;
  } catch (const kjit::Error& e) {
    std::printf("consumer: %s\n", e.what());
    return 1;
  }
}
