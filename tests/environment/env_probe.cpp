// Prints what Device::select() and the first compile do under the environment CTest gives it,
// so that tests can check how each variable is read (the registry reads them once per process).
#include <kjit/kjit.hpp>

#include <cstdio>

int main() {
  try {
    const kjit::Device device = kjit::Device::select();
    const kjit::DeviceInfo& info = device.info();
    std::printf("selected %s compute_units=%u\n", info.id().c_str(), info.compute_units);
    auto k = kjit::Program::from_source("probe.cu", "__global__ void k(int* v) { *v = 7; }")
                 .kernel<int*>("k", device);
    auto v = device.alloc<int>(1);
    k.launch(kjit::LaunchConfig{}, v);
    std::printf("kernel result %d\n", v.download()[0]);
    return 0;
  } catch (const kjit::ConfigError& e) {
    std::printf("ConfigError: %s\n", e.what());
  } catch (const kjit::DeviceError& e) {
    std::printf("DeviceError: %s\n", e.what());
  } catch (const std::exception& e) {
    std::printf("other error: %s\n", e.what());
  }
  return 1;
}
