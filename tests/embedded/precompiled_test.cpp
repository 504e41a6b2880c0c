// Kernels that kjit_add_kernels(... PRECOMPILE ...) compiled at build time: with no usable disk
// cache (the test runs with KJIT_CACHE=ro and an empty KJIT_CACHE_DIR), they load from the entries
// embedded in this binary without running a compiler; other options miss them and compile.
#include "test_support.hpp"

#include <kjit/kjit.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>

namespace kjit::test {
namespace {

/// The targets PRECOMPILE listed (tests/CMakeLists.txt), such as "cpu,cuda:sm_90".
std::vector<std::string> precompiled_targets() {
  std::vector<std::string> targets;
  std::istringstream list(KJIT_TEST_PRECOMPILED);
  for (std::string t; std::getline(list, t, ',');) {
    targets.push_back(t);
  }
  return targets;
}

/// The device's target as kjit-warm names it.
std::string target_of(const Device& device) {
  const DeviceInfo& info = device.info();
  return info.backend == BackendKind::cpu ? std::string("cpu")
                                          : std::string(to_string(info.backend)) + ":" + info.arch;
}

class Precompiled : public DeviceTest {
 protected:
  void SetUp() override {
    DeviceTest::SetUp();
    if (IsSkipped()) {
      return;
    }
    const std::vector<std::string> targets = precompiled_targets();
    if (std::find(targets.begin(), targets.end(), target_of(device)) == targets.end()) {
      GTEST_SKIP() << "nothing was precompiled for " << target_of(device)
                   << " (PRECOMPILE listed: " << KJIT_TEST_PRECOMPILED << ")";
    }
  }

  /// Runs scaled.cu's kernel on random input; the number of wrong values for `scale`.
  int scaled_mismatches(const Program& program, int scale) {
    const int n = 3000;
    const int salt = -7;
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
};

TEST_F(Precompiled, EmbeddedProgramsLoadFromTheEmbeddedEntriesWithoutCompiling) {
  const CacheConfig config = cache_config();
  ASSERT_FALSE(config.writable) << "the test runs with KJIT_CACHE=ro, so only embedded entries hit";
  EXPECT_GT(config.embedded_entries, 0U);
  const CacheStats before = cache_stats();
  EXPECT_EQ(scaled_mismatches(Program::from_embedded("scaled.cu"), 3), 0);
  const std::vector<int> in = random_vector<int>(999, -50, 50);
  DeviceBuffer<int> v = device.upload(in);
  Program::from_embedded("negate.cu")
      .kernel<int*, int>("negate", device)
      .launch(LaunchConfig::for_elements(999), v, 999);
  const std::vector<int> out = v.download();
  for (std::size_t i = 0; i < in.size(); ++i) {
    ASSERT_EQ(out[i], -in[i]) << i;
  }
  const CacheStats after = cache_stats();
  EXPECT_EQ(after.compiles, before.compiles) << "an embedded entry must spare the compile";
  EXPECT_EQ(after.hits, before.hits + 2);
  EXPECT_EQ(after.rejected, before.rejected);
}

TEST_F(Precompiled, OtherOptionsMissTheEmbeddedEntriesAndCompile) {
  CompileOptions options;
  options.headers["include/scale.h"] = "#define SCALE 4\n";
  const CacheStats before = cache_stats();
  EXPECT_EQ(scaled_mismatches(Program::from_embedded("scaled.cu", options), 4), 0);
  const CacheStats after = cache_stats();
  EXPECT_EQ(after.compiles, before.compiles + 1) << "another header is another key";
  EXPECT_EQ(after.hits, before.hits);
}

}  // namespace
}  // namespace kjit::test
