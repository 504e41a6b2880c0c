// The library from several host threads at once: launches on separate and shared streams, and
// many threads asking for the same kernel of one program.
#include "test_support.hpp"

#include <atomic>
#include <thread>

namespace kjit::test {
namespace {

class Concurrency : public DeviceTest {};

TEST_F(Concurrency, EightThreadsLaunchAtOnce) {
  KJIT_SEED_TRACE();
  auto saxpy = Program::from_file(kernel_path("saxpy.cu"))
                   .kernel<float, const float*, float*, int>("saxpy<float>", device);
  std::atomic<int> failures{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t) {
    threads.emplace_back([&, t] {
      try {
        const int n = 10000 + 1000 * t;
        Stream stream = device.create_stream();
        std::vector<float> x(n);
        for (int i = 0; i < n; ++i)
          x[i] = static_cast<float>(i % 97);
        auto dx = device.upload(x);
        auto dy = device.upload(std::vector<float>(n, 0.0f));
        for (int r = 0; r < 25; ++r) {
          // Half the threads share the default stream, half use their own.
          if (t % 2 == 0) {
            saxpy.launch(stream, LaunchConfig::for_elements(n), 1.0f, dx, dy, n);
          } else {
            saxpy.launch(LaunchConfig::for_elements(n), 1.0f, dx, dy, n);
          }
        }
        const auto y = dy.download();
        for (int i = 0; i < n; ++i) {
          if (y[i] != 25.0f * x[i]) {
            ++failures;
            return;
          }
        }
      } catch (const std::exception& e) {
        ADD_FAILURE() << "thread " << t << ": " << e.what();
        ++failures;
      }
    });
  }
  for (auto& th : threads)
    th.join();
  EXPECT_EQ(failures.load(), 0);
}

TEST_F(Concurrency, SixteenThreadsAskForTheSameKernel) {
  const Program program = Program::from_file(kernel_path("vadd.cu"));
  std::vector<Kernel<const float*, const float*, float*, int>> kernels(16);
  std::vector<std::thread> threads;
  std::atomic<int> errors{0};
  for (int t = 0; t < 16; ++t) {
    threads.emplace_back([&, t] {
      try {
        kernels[t] = program.kernel<const float*, const float*, float*, int>("vadd", device);
      } catch (const std::exception& e) {
        ADD_FAILURE() << e.what();
        ++errors;
      }
    });
  }
  for (auto& th : threads)
    th.join();
  ASSERT_EQ(errors.load(), 0);
  auto a = device.upload(std::vector<float>{1, 2});
  auto c = poisoned<float>(2);
  for (auto& k : kernels) {
    ASSERT_TRUE(k);
    k.launch(LaunchConfig{.grid = {1}, .block = {2}}, a, a, c, 2);
    EXPECT_EQ(c.download(), (std::vector<float>{2, 4}));
  }
}

}  // namespace
}  // namespace kjit::test
