// A kernel that faults on the device: the error of that asynchronous work must surface at the
// next synchronisation as a kjit::Error naming the kernel. Its own process, because a CUDA fault
// leaves the context unusable.
#include <kjit/kjit.hpp>

#include <cstdio>

int main() {
  try {
    const kjit::Device device = kjit::Device::select();
    auto k =
        kjit::Program::from_source("fault.cu", "__global__ void null_write(int* p) { p[2] = 1; }")
            .kernel<int*>("null_write", device);
    k.launch(kjit::LaunchConfig{}, nullptr);
    std::printf("launched\n");
    device.synchronize();
    std::printf("no error reported\n");
    return 1;
  } catch (const kjit::DeviceError& e) {
    std::printf("DeviceError: %s\n", e.what());
    return 1;
  } catch (const kjit::Error& e) {
    std::printf("reported: %s\n", e.what());
    return 0;
  }
}
