// Several devices of one backend in one process: each compiles its own kernels, memory and
// streams stay bound to their device, and both run at once from two host threads. Skipped, saying
// so, on machines with one device of the backend.
#include "test_support.hpp"

#include <thread>

namespace kjit::test {
namespace {

class MultiDevice : public DeviceTest {
 public:
  void SetUp() override {
    DeviceTest::SetUp();
    if (IsSkipped())
      return;
    for (const Device& d : Device::all()) {
      if (d.info().backend == device.info().backend) {
        devices.push_back(d);
      }
    }
    if (devices.size() < 2) {
      GTEST_SKIP() << "needs two devices of the " << to_string(device.info().backend)
                   << " backend; this machine has " << devices.size();
    }
  }
  std::vector<Device> devices;
};

TEST_F(MultiDevice, EachDeviceRunsItsOwnKernelsAndMemory) {
  KJIT_SEED_TRACE();
  const Program program = Program::from_file(kernel_path("saxpy.cu"));
  const int n = 1 << 20;
  const auto x = random_vector<float>(n, -1.0f, 1.0f);
  std::vector<std::thread> threads;
  std::vector<std::string> failures(devices.size());
  for (std::size_t d = 0; d < devices.size(); ++d) {
    threads.emplace_back([&, d] {
      try {
        const Device& dev = devices[d];
        auto saxpy = program.kernel<float, const float*, float*, int>("saxpy<float>", dev);
        auto dx = dev.upload(x);
        auto dy = dev.upload(std::vector<float>(n, static_cast<float>(d)));
        for (int r = 0; r < 10; ++r) {
          saxpy.launch(LaunchConfig::for_elements(n), 1.0f, dx, dy, n);
        }
        const auto y = dy.download();
        for (int i = 0; i < n; ++i) {
          const float expected = static_cast<float>(d) + 10.0f * x[i];
          if (std::abs(y[i] - expected) > 1e-4f * (1.0f + std::abs(expected))) {
            failures[d] = "wrong result at " + std::to_string(i) + " on " + dev.info().id();
            return;
          }
        }
      } catch (const std::exception& e) {
        failures[d] = e.what();
      }
    });
  }
  for (auto& t : threads)
    t.join();
  for (const std::string& f : failures) {
    EXPECT_TRUE(f.empty()) << f;
  }
}

TEST_F(MultiDevice, MemoryAndStreamsOfAnotherDeviceAreRefused) {
  const Device& first = devices[0];
  const Device& second = devices[1];
  auto k = Program::from_file(kernel_path("vadd.cu"))
               .kernel<const float*, const float*, float*, int>("vadd", first);
  auto mine = first.upload(std::vector<float>{1, 2, 3});
  auto theirs = second.upload(std::vector<float>{4, 5, 6});
  const LaunchConfig config{.grid = {1}, .block = {3}};
  try {
    k.launch(config, mine, mine, theirs, 3);
    ADD_FAILURE() << "a buffer of another device was accepted";
  } catch (const LaunchError& e) {
    EXPECT_NE(std::string(e.what()).find("points to memory of " + second.info().id()),
              std::string::npos)
        << e.what();
  }
  EXPECT_THROW(k.launch(second.default_stream(), config, mine, mine, mine, 3), LaunchError);
  EXPECT_THROW(theirs.copy_from(first.upload(std::vector<float>{0, 0, 0})), UsageError);
  EXPECT_EQ(theirs.download(), (std::vector<float>{4, 5, 6}));
}

}  // namespace
}  // namespace kjit::test
