// The library from several host threads at once: launches on separate and shared streams, many
// threads asking for the same kernel of one program, and threads compiling programs of their own.
#include "test_support.hpp"

#include <atomic>
#include <functional>
#include <string>
#include <thread>
#include <vector>

namespace kjit::test {
namespace {

class Concurrency : public DeviceTest {};

/// Runs body(t) for each t in [0, count) on a thread of its own, and returns how many threads
/// failed: returned false, or threw (reported with the thread's number).
int failures_on_threads(int count, const std::function<bool(int)>& body) {
  std::atomic<int> failures{0};
  std::vector<std::thread> threads;
  threads.reserve(static_cast<std::size_t>(count));
  for (int t = 0; t < count; ++t) {
    threads.emplace_back([&, t] {
      try {
        if (!body(t)) {
          ++failures;
        }
      } catch (const std::exception& e) {
        ADD_FAILURE() << "thread " << t << ": " << e.what();
        ++failures;
      }
    });
  }
  for (auto& th : threads) {
    th.join();
  }
  return failures.load();
}

TEST_F(Concurrency, EightThreadsLaunchAtOnce) {
  KJIT_SEED_TRACE();
  auto saxpy = Program::from_file(kernel_path("saxpy.cu"))
                   .kernel<float, const float*, float*, int>("saxpy<float>", device);
  const auto run = [&](int t) {
    const int n = 10000 + 1000 * t;
    Stream stream = device.create_stream();
    std::vector<float> x(n);
    for (int i = 0; i < n; ++i) {
      x[i] = static_cast<float>(i % 97);
    }
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
        return false;
      }
    }
    return true;
  };
  EXPECT_EQ(failures_on_threads(8, run), 0);
}

TEST_F(Concurrency, SixteenThreadsAskForTheSameKernel) {
  const Program program = Program::from_file(kernel_path("vadd.cu"));
  std::vector<Kernel<const float*, const float*, float*, int>> kernels(16);
  const auto ask = [&](int t) {
    kernels[t] = program.kernel<const float*, const float*, float*, int>("vadd", device);
    return true;
  };
  ASSERT_EQ(failures_on_threads(16, ask), 0);
  auto a = device.upload(std::vector<float>{1, 2});
  auto c = poisoned<float>(2);
  for (auto& k : kernels) {
    ASSERT_TRUE(k);
    k.launch(LaunchConfig{.grid = {1}, .block = {2}}, a, a, c, 2);
    EXPECT_EQ(c.download(), (std::vector<float>{2, 4}));
  }
}

TEST_F(Concurrency, SixteenThreadsCompileAndLaunchTheirOwnProgramsOnTheirOwnStreams) {
  // Each thread compiles a program of its own (its salt in the text keeps earlier runs' cache
  // entries out), makes its own stream, and launches 20 times, each launch reading the last
  // one's output. ctest's timeout bounds the test, should anything deadlock.
  KJIT_SEED_TRACE();
  const std::string seed = std::to_string(test_seed());
  const auto run = [&](int t) {
    const std::string s = std::to_string(t + 2);
    std::string source = "// ";
    source += seed;
    source += "\n__global__ void step(int* v, int n) {\n";
    source += "  const int i = blockIdx.x * blockDim.x + threadIdx.x;\n";
    source += "  if (i < n) v[i] = v[i] * " + s + " % 1000003 + i;\n}\n";
    auto k = Program::from_source("thread" + s + ".cu", source).kernel<int*, int>("step", device);
    Stream stream = device.create_stream();
    const int n = 1000 + 37 * t;
    std::vector<int> want(n, 1);
    auto v = device.upload(want);
    for (int r = 0; r < 20; ++r) {
      k.launch(stream, LaunchConfig::for_elements(n, 128), v, n);
      for (int i = 0; i < n; ++i) {
        want[i] = want[i] * (t + 2) % 1000003 + i;
      }
    }
    stream.synchronize();
    if (v.download() != want) {
      ADD_FAILURE() << "thread " << t << ": wrong result";
      return false;
    }
    return true;
  };
  EXPECT_EQ(failures_on_threads(16, run), 0);
}

}  // namespace
}  // namespace kjit::test
