// Variants of annotated kernels (annotate("jit", ...)) compile in the background: the launch that
// first asks for one runs the kernel itself, as do launches until the variant is ready, which
// then takes over. Across the switch no launch is lost and no result changes; a variant that does
// not compile is logged once and its values keep running the kernel itself;
// CompileOptions::launch_waits_for_variants keeps the first launch waiting for it instead.
#include "test_support.hpp"

#include <bit>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>

#include <unistd.h>

namespace kjit::test {
namespace {

namespace fs = std::filesystem;

/// Variants built (compiled, or loaded from a cache) so far in this process.
std::uint64_t builds() {
  const CacheStats s = cache_stats();
  return s.compiles + s.hits + s.remote_hits;
}

/// Each launch scales acc[i] `k` times (a = a * scale + 1) and counts itself in `count`; the same
/// kernel without the annotation next to it.
constexpr const char* kSteps = R"(
#define STEP_BODY                                                   \
  const int i = blockIdx.x * blockDim.x + threadIdx.x;              \
  if (i == 0) {                                                     \
    atomicAdd(count, 1ULL);                                         \
  }                                                                 \
  if (i < n) {                                                      \
    float a = acc[i];                                               \
    for (int j = 0; j < k; ++j) {                                   \
      a = a * scale + 1.0f;                                         \
    }                                                               \
    acc[i] = a;                                                     \
  }
__global__ __attribute__((annotate("jit", 3, 4)))
void step(float* acc, unsigned long long* count, float scale, int k, int n) { STEP_BODY }
__global__ void step_plain(float* acc, unsigned long long* count, float scale, int k, int n) {
  STEP_BODY
}
)";

using Step = Kernel<float*, unsigned long long*, float, int, int>;

class JitBackground : public DeviceTest {
 public:
  /// A compiler's first compile in a process runs on the launching thread even for a variant
  /// (program_variants.cpp says why); these tests are about the later ones, so the compiler
  /// compiles a program of its own first, whatever the disk cache holds.
  void SetUp() override {
    DeviceTest::SetUp();
    if (!IsSkipped()) {
      const std::string text = "// " + std::to_string(::getpid()) + " " + std::to_string(rng()) +
                               "\n__global__ void k(int* p) { p[0] = 1; }\n";
      (void)Program::from_source("first_compile.cu", text).kernel<int*>("k", device);
    }
  }

  static Program windows(CompileOptions options = {}) {
    options.kernels = {"window", "window_plain"};
    return Program::from_file(test_kernel_path("jit_annotated.cu"), std::move(options));
  }

  /// Runs `launches` launches of `annotated` and of `plain` over `n` elements on copies of the
  /// same random accumulators, cycling through `values`; checks that every launch counted and
  /// that both give the same bits.
  void expect_same_sequence(const Step& annotated, const Step& plain, int launches, int n,
                            const std::vector<std::pair<float, int>>& values) {
    const std::vector<float> start = random_vector<float>(std::size_t(n), -1.0f, 1.0f);
    auto a = device.upload(start);
    auto p = device.upload(start);
    auto a_count = device.upload(std::vector<unsigned long long>{0});
    auto p_count = device.upload(std::vector<unsigned long long>{0});
    const LaunchConfig config = LaunchConfig::for_elements(std::size_t(n), 64);
    for (int l = 0; l < launches; ++l) {
      const auto& [scale, k] = values[std::size_t(l) % values.size()];
      annotated.launch(config, a, a_count, scale, k, n);
      plain.launch(config, p, p_count, scale, k, n);
    }
    EXPECT_EQ(a_count.download()[0], static_cast<unsigned long long>(launches));
    EXPECT_EQ(p_count.download()[0], static_cast<unsigned long long>(launches));
    const std::vector<float> got = a.download();
    const std::vector<float> want = p.download();
    for (int i = 0; i < n; ++i) {
      ASSERT_EQ(std::bit_cast<std::uint32_t>(got[i]), std::bit_cast<std::uint32_t>(want[i]))
          << "element " << i << ": annotated " << got[i] << ", plain " << want[i];
    }
  }
};

TEST_F(JitBackground, TheFirstLaunchRunsTheKernelItselfThenTheVariantTakesOver) {
  const Program p = windows();
  const auto annotated = p.kernel<const float*, float*, int, float, int>("window", device);
  const auto launches = p.symbol<unsigned long long>("launches", device);
  launches.write(0ULL);
  const int steps = 3 + static_cast<int>(rng() % 13);
  const float scale = random_vector<float>(1, -3.0f, 3.0f)[0];
  const int n = 1000;
  const std::vector<float> x = random_vector<float>(std::size_t(n), -2.0f, 2.0f);
  auto dx = device.upload(x);
  auto y = poisoned<float>(std::size_t(n));
  const LaunchConfig config = LaunchConfig::for_elements(std::size_t(n), 128);

  const std::uint64_t before = builds();
  annotated.launch(config, dx, y, steps, scale, n);
  device.synchronize();
  // The launch did not wait for the variant: the kernel itself ran, counted in the program's copy.
  EXPECT_EQ(launches.read(), 1ULL);
  const std::vector<float> first = y.download();

  annotated.wait_for_variants();
  EXPECT_EQ(builds() - before, 1U) << "the variant was built once";
  auto again = poisoned<float>(std::size_t(n));
  annotated.launch(config, dx, again, steps, scale, n);
  device.synchronize();
  EXPECT_EQ(launches.read(), 1ULL) << "the variant ran: its launch counted in its own copy";
  const std::vector<float> second = again.download();
  for (int i = 0; i < n; ++i) {
    ASSERT_EQ(std::bit_cast<std::uint32_t>(first[i]), std::bit_cast<std::uint32_t>(second[i]))
        << "element " << i << ": the kernel itself gave " << first[i] << ", the variant "
        << second[i];
  }
}

TEST_F(JitBackground, LaunchesAcrossTheSwitchLoseNothingAndChangeNoBit) {
  const Program p = Program::from_source("steps.cu", kSteps);
  const Step annotated = p.kernel<float*, unsigned long long*, float, int, int>("step", device);
  const Step plain = p.kernel<float*, unsigned long long*, float, int, int>("step_plain", device);
  const std::vector<std::pair<float, int>> values = {
      {0.5f, 3 + static_cast<int>(rng() % 5)}, {0.75f, 2}, {-0.25f, 9}};
  // One n for both sequences: the launch's grid is part of a variant's key, and another grid
  // would compile other variants, left compiling at exit.
  const int n = 300 + static_cast<int>(rng() % 300);
  expect_same_sequence(annotated, plain, 300, n, values);
  annotated.wait_for_variants();
  const std::uint64_t before = builds();
  expect_same_sequence(annotated, plain, 30, n, values);  // the variants only, now
  EXPECT_EQ(builds(), before) << "the second sequence compiled variants of its own";
}

TEST_F(JitBackground, LaunchesFromSeveralThreadsLoseNothing) {
  const Program p = Program::from_source("steps.cu", kSteps);
  const Step annotated = p.kernel<float*, unsigned long long*, float, int, int>("step", device);
  auto count = device.upload(std::vector<unsigned long long>{0});
  auto acc = device.upload(std::vector<float>(64, 0.0f));
  const int per_thread = 40;
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (int l = 0; l < per_thread; ++l) {
        annotated.launch(LaunchConfig{Dim3{1}, Dim3{64}}, acc, count, 0.0f, 1 + (l + t) % 3, 64);
      }
    });
  }
  for (std::thread& t : threads) {
    t.join();
  }
  annotated.wait_for_variants();
  EXPECT_EQ(count.download()[0], 4ULL * per_thread);
  for (const float v : acc.download()) {
    ASSERT_EQ(v, 1.0f);  // a * 0 + 1, whichever kernel ran last
  }
}

TEST_F(JitBackground, TheWaitOptionMakesTheFirstLaunchWait) {
  CompileOptions options;
  options.launch_waits_for_variants = true;
  const Program p = windows(options);
  const auto annotated = p.kernel<const float*, float*, int, float, int>("window", device);
  const auto launches = p.symbol<unsigned long long>("launches", device);
  launches.write(0ULL);
  const int n = 500;
  auto dx = device.upload(random_vector<float>(std::size_t(n), -2.0f, 2.0f));
  auto y = poisoned<float>(std::size_t(n));
  const std::uint64_t before = builds();
  annotated.launch(LaunchConfig::for_elements(std::size_t(n), 128), dx, y,
                   2 + static_cast<int>(rng() % 20), 1.5f, n);
  EXPECT_EQ(builds() - before, 1U) << "the launch waited for the variant";
  device.synchronize();
  EXPECT_EQ(launches.read(), 0ULL) << "the variant ran, not the kernel itself";
}

TEST_F(JitBackground, AVariantThatDoesNotCompileIsLoggedOnceAndItsValuesRunTheKernel) {
  const fs::path dir =
      fs::temp_directory_path() /
      ("kjit-background-" + std::to_string(::getpid()) + "-" + std::to_string(rng() % 1000000));
  fs::create_directories(dir);
  const auto write = [&](const std::string& text) { std::ofstream(dir / "term.h") << text; };
  write("#define TERM(i) (i)\n");
  CompileOptions options;
  options.include_dirs = {dir};
  const Program p = Program::from_source("broken_variant.cu", R"(
#include "term.h"
__global__ __attribute__((annotate("jit", 3))) void k(const int* x, int* y, int m, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    y[i] = x[i] * m + TERM(i);
  }
}
)",
                                         options);
  const auto k = p.kernel<const int*, int*, int, int>("k", device);
  // The kernel itself is built; the variant, compiled later, reads the header as it is then.
  write("#error this header is broken for the variant\n");
  const int n = 200;
  const int m = 2 + static_cast<int>(rng() % 1000);
  const std::vector<int> x = random_vector<int>(std::size_t(n), -1000, 1000);
  auto dx = device.upload(x);
  testing::internal::CaptureStderr();
  for (int round = 0; round < 3; ++round) {
    auto y = poisoned<int>(std::size_t(n));
    k.launch(LaunchConfig::for_elements(std::size_t(n), 64), dx, y, m, n);
    k.wait_for_variants();
    const std::vector<int> got = y.download();
    for (int i = 0; i < n; ++i) {
      ASSERT_EQ(got[i], x[i] * m + i) << "round " << round << ", element " << i;
    }
  }
  const std::string log = testing::internal::GetCapturedStderr();
  fs::remove_all(dir);
  const std::string said = "did not compile; launches with these values run the kernel";
  EXPECT_TRUE(contains(log, said)) << log;
  EXPECT_EQ(log.find(said), log.rfind(said)) << "logged once: " << log;
  EXPECT_TRUE(contains(log, "broken_variant.cu")) << log;
  EXPECT_TRUE(contains(log, "this header is broken for the variant")) << log;
}

TEST_F(JitBackground, DroppingTheProgramWhileAVariantCompilesIsClean) {
  std::uint64_t before = 0;
  {
    const Program p = Program::from_source("steps.cu", kSteps);
    const Step annotated = p.kernel<float*, unsigned long long*, float, int, int>("step", device);
    before = builds();
    auto count = device.upload(std::vector<unsigned long long>{0});
    auto acc = device.upload(std::vector<float>(64, 0.0f));
    annotated.launch(LaunchConfig{Dim3{1}, Dim3{64}}, acc, count, 0.125f,
                     10 + static_cast<int>(rng() % 1000), 64);
    device.synchronize();
    EXPECT_EQ(count.download()[0], 1ULL);
  }  // the program, the kernel and the buffers go while the variant compiles
  // The compile finishes on its own and lets go of what it held (sanitizers check the rest).
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::minutes(2);
  while (builds() == before && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  EXPECT_GT(builds(), before) << "the background compile finished";
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
}

}  // namespace
}  // namespace kjit::test
