// Kernels that kjit_add_kernels(... PRECOMPILE ...) compiled at build time: with no usable disk
// cache (the test runs with KJIT_CACHE=ro and an empty KJIT_CACHE_DIR), they load from the entries
// embedded in this binary without running a compiler; other options miss them and compile.
#include "embedded_fixture.hpp"

#include <kjit/kjit.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
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

class Precompiled : public EmbeddedKernelTest {
 protected:
  void SetUp() override {
    EmbeddedKernelTest::SetUp();
    if (IsSkipped()) {
      return;
    }
    const std::vector<std::string> targets = precompiled_targets();
    if (std::find(targets.begin(), targets.end(), target_of(device)) == targets.end()) {
      GTEST_SKIP() << "nothing was precompiled for " << target_of(device)
                   << " (PRECOMPILE listed: " << KJIT_TEST_PRECOMPILED << ")";
    }
  }
};

TEST_F(Precompiled, EmbeddedProgramsLoadFromTheEmbeddedEntriesWithoutCompiling) {
  const CacheConfig config = cache_config();
  ASSERT_FALSE(config.writable) << "the test runs with KJIT_CACHE=ro, so only embedded entries hit";
  EXPECT_GT(config.embedded_entries, 0U);
  const CacheStats before = cache_stats();
  EXPECT_EQ(scaled_mismatches(Program::from_embedded("scaled.cu"), 3), 0);
  EXPECT_EQ(negate_mismatches(Program::from_embedded("negate.cu")), 0);
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

/// Run by cuda.precompiled_without_nvrtc, with an NVRTC that cannot be used: what was precompiled
/// still loads, and anything else fails for want of the compiler.
TEST_F(Precompiled, WithoutItsCompilerOnlyPrecompiledProgramsLoad) {
  if (std::getenv("KJIT_TEST_WITHOUT_COMPILER") == nullptr) {
    GTEST_SKIP() << "runs with an unusable compiler (cuda.precompiled_without_nvrtc)";
  }
  EXPECT_EQ(scaled_mismatches(Program::from_embedded("scaled.cu"), 3), 0);
  EXPECT_EQ(negate_mismatches(Program::from_embedded("negate.cu")), 0);
  CompileOptions options;
  options.defines["NOT_PRECOMPILED"] = "1";
  EXPECT_THROW((void)scaled_mismatches(Program::from_embedded("scaled.cu", options), 3),
               BackendError);
  EXPECT_EQ(cache_stats().compiles, 0U);
}

}  // namespace
}  // namespace kjit::test
