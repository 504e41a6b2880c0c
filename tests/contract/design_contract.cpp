// The public API exactly as shared/DESIGN.md writes it, in a program of its own that sees only
// include/ and libkjit.so. Run from the repository root (kernels/saxpy.cu is a relative path).
#include <kjit/kjit.hpp>

#include <cstdio>
#include <span>
#include <vector>

int main() {
  const std::size_t n = 100003;
  std::vector<float> hx(n), hy(n);
  for (std::size_t i = 0; i < n; ++i) {
    hx[i] = static_cast<float>(i % 1000);
    hy[i] = 1.0f;
  }
  try {
    kjit::Device dev = kjit::Device::select();
    kjit::Program prog = kjit::Program::from_file("kernels/saxpy.cu");
    auto saxpy = prog.kernel<float, const float*, float*, int>("saxpy", dev);
    kjit::DeviceBuffer<float> x = dev.upload(std::span<const float>(hx));
    kjit::DeviceBuffer<float> y = dev.alloc<float>(n);
    y.upload(hy);
    saxpy.launch(kjit::LaunchConfig::for_elements(n), 2.0f, x, y, static_cast<int>(n));
    std::vector<float> out = y.download();
    for (std::size_t i = 0; i < n; ++i) {
      if (out[i] != 2.0f * hx[i] + 1.0f) {
        std::printf("wrong: out[%zu] = %f\n", i, out[i]);
        return 1;
      }
    }
    const kjit::LaunchConfig grid{.grid = {7, 7, 1}, .block = {16, 16, 1}, .shared_bytes = 0};
    std::printf("contract ok on %s; %u x %u blocks\n", dev.info().id().c_str(), grid.grid.x,
                grid.block.x);
    return 0;
  } catch (const kjit::Error& e) {
    std::printf("error: %s\n", e.what());
    return 1;
  }
}
