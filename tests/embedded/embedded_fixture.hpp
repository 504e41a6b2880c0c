// The fixture of the embedded-kernel tests: runs tests/embedded/kernels/ on random input and
// counts wrong values.
#pragma once

#include "test_support.hpp"

#include <kjit/kjit.hpp>

namespace kjit::test {

class EmbeddedKernelTest : public DeviceTest {
 protected:
  /// Runs scaled.cu's kernel (out = in * SCALE + salt); the number of wrong values for `scale`.
  int scaled_mismatches(const Program& program, int scale) {
    const int n = 5000;
    const int salt = 11;
    const std::vector<int> in = random_vector<int>(n, -1000, 1000);
    auto kernel = program.kernel<const int*, int*, int, int>("scaled", device);
    DeviceBuffer<int> din = device.upload(in);
    DeviceBuffer<int> dout = poisoned<int>(n);
    kernel.launch(LaunchConfig::for_elements(n), din, dout, salt, n);
    const std::vector<int> out = dout.download();
    int wrong = 0;
    for (int i = 0; i < n; ++i) {
      wrong += out[i] != in[i] * scale + salt ? 1 : 0;
    }
    return wrong;
  }

  /// Runs negate.cu's kernel in place; the number of wrong values.
  int negate_mismatches(const Program& program) {
    const int n = 777;
    const std::vector<int> in = random_vector<int>(n, -50, 50);
    DeviceBuffer<int> v = device.upload(in);
    program.kernel<int*, int>("negate", device).launch(LaunchConfig::for_elements(n), v, n);
    const std::vector<int> out = v.download();
    int wrong = 0;
    for (int i = 0; i < n; ++i) {
      wrong += out[i] != -in[i] ? 1 : 0;
    }
    return wrong;
  }
};

}  // namespace kjit::test
