// AMD GPU target IDs are parsed strictly: hipRTC aborts the process on an arch or feature it does
// not know, so only well-formed IDs with features the processor has may reach it.
#include "backends/hip/amdgpu_target.hpp"

#include <kjit/error.hpp>

#include <gtest/gtest.h>

namespace kjit::hip {
namespace {

TEST(AmdgpuTarget, ProcessorsAndFeaturesParseToTheCanonicalId) {
  EXPECT_EQ(parse_amdgpu_target("gfx90a").id(), "gfx90a");
  EXPECT_EQ(parse_amdgpu_target("gfx1030").id(), "gfx1030");
  EXPECT_EQ(parse_amdgpu_target("gfx90a:xnack-").id(), "gfx90a:xnack-");
  EXPECT_EQ(parse_amdgpu_target("gfx90a:xnack+:sramecc-").id(), "gfx90a:sramecc-:xnack+");
  const AmdgpuTarget t = parse_amdgpu_target("gfx942:sramecc+:xnack-");
  EXPECT_EQ(t.processor, "gfx942");
  EXPECT_EQ(t.sramecc, true);
  EXPECT_EQ(t.xnack, false);
  EXPECT_FALSE(parse_amdgpu_target("gfx908").xnack.has_value());
}

TEST(AmdgpuTarget, MalformedIdsAreConfigErrorsNamingTheProblem) {
  const std::vector<std::pair<std::string, std::string>> bad = {
      {"", "not an AMD GPU processor"},
      {"sm_90", "not an AMD GPU processor"},
      {"gfx", "not an AMD GPU processor"},
      {"gfx90", "not an AMD GPU processor"},
      {"gfx90A", "not an AMD GPU processor"},
      {"gfx9000000", "not an AMD GPU processor"},
      {"gfx90a ", "not an AMD GPU processor"},
      {"gfx90a:", "ends with ':'"},
      {"gfx90a::xnack+", "not a target feature"},
      {"gfx90a:xnack", "not a target feature"},
      {"gfx90a:xnack*", "not a target feature"},
      {"gfx90a:wavefrontsize64+", "not a target feature"},
      {"gfx90a:xnack+:xnack-", "set twice"},
      {"gfx1030:xnack+", "gfx1030 has no 'xnack' setting"},
      {"gfx1100:sramecc-", "gfx1100 has no 'sramecc' setting"},
      {"gfx900:sramecc+", "gfx900 has no 'sramecc' setting"},
  };
  for (const auto& [text, problem] : bad) {
    try {
      (void)parse_amdgpu_target(text);
      ADD_FAILURE() << "'" << text << "' parsed";
    } catch (const ConfigError& e) {
      EXPECT_NE(std::string(e.what()).find(problem), std::string::npos)
          << "'" << text << "': " << e.what();
    }
  }
}

TEST(AmdgpuTarget, ADevicesArchNameKeepsOnlyFeaturesItsProcessorHas) {
  EXPECT_EQ(device_amdgpu_target("gfx90a:sramecc+:xnack-").id(), "gfx90a:sramecc+:xnack-");
  EXPECT_EQ(device_amdgpu_target("gfx1030").id(), "gfx1030");
  EXPECT_EQ(device_amdgpu_target("gfx1100:xnack-").id(), "gfx1100");  // reported, but meaningless
  EXPECT_THROW((void)device_amdgpu_target("gfx90a:bogus+"), BackendError);
  EXPECT_THROW((void)device_amdgpu_target(""), BackendError);
}

TEST(AmdgpuTarget, FeatureTablesFollowLlvm) {
  EXPECT_TRUE(supports_xnack("gfx90a"));
  EXPECT_TRUE(supports_sramecc("gfx90a"));
  EXPECT_TRUE(supports_xnack("gfx1010"));
  EXPECT_FALSE(supports_sramecc("gfx1010"));
  EXPECT_FALSE(supports_xnack("gfx1030"));
  EXPECT_FALSE(supports_xnack("gfx803"));
  EXPECT_TRUE(is_known({"gfx908", "gfx90a"}, "gfx90a"));
  EXPECT_FALSE(is_known({"gfx908", "gfx90a"}, "gfx942"));
}

}  // namespace
}  // namespace kjit::hip
