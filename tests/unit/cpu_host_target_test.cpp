// The CPU backend's target: the features it leaves out of what LLVM detected, and why.
#include "backends/cpu/compile/cpu_host_target.hpp"

#include <llvm/Config/llvm-config.h>

#include <gtest/gtest.h>

#include <string>

namespace kjit::cpu {
namespace {

TEST(HostTarget, LeavesOutTheFeaturesWhoseCodeLlvmGetsWrong) {
#if LLVM_VERSION_MAJOR < 22
  // llvm/llvm-project#159723: masked half-precision compares commuted without their predicate.
  EXPECT_TRUE(left_out("avx512fp16"));
  EXPECT_TRUE(left_out("avx10.1-256"));
  EXPECT_TRUE(left_out("avx10.1-512"));
#endif
  EXPECT_FALSE(left_out("avx512f"));
  EXPECT_FALSE(left_out("avx512bw"));
  EXPECT_FALSE(left_out("f16c"));
  EXPECT_FALSE(left_out("avx2"));
}

TEST(HostTarget, NoFeatureLeftOutIsEnabled) {
  const HostTarget& target = host_target();
  ASSERT_FALSE(target.features.empty());
  for (const std::string& feature : target.features) {
    ASSERT_TRUE(feature[0] == '+' || feature[0] == '-') << feature;
    if (left_out(feature.substr(1))) {
      EXPECT_EQ(feature[0], '-') << feature;
    }
  }
}

}  // namespace
}  // namespace kjit::cpu
