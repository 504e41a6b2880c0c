#include <kjit/error.hpp>
#include <kjit/types.hpp>

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>

namespace kjit {
namespace {

TEST(LaunchConfig, IsAnAggregateWithDesignatedInitialisers) {
  const LaunchConfig c{.grid = {7, 7, 1}, .block = {16, 16, 1}, .shared_bytes = 128};
  EXPECT_EQ(c.grid, (Dim3{7, 7, 1}));
  EXPECT_EQ(c.block.volume(), 256U);
  EXPECT_EQ(c.shared_bytes, 128U);
  EXPECT_EQ(Dim3{5}, (Dim3{5, 1, 1}));
}

TEST(LaunchConfig, ForElementsCoversEveryElement) {
  for (const std::size_t n : {std::size_t{1}, std::size_t{255}, std::size_t{256}, std::size_t{257},
                              std::size_t{1} << 24, (std::size_t{1} << 24) + 3}) {
    for (const std::uint32_t block : {1U, 64U, 256U, 1024U}) {
      const LaunchConfig c = LaunchConfig::for_elements(n, block);
      EXPECT_EQ(c.block, (Dim3{block, 1, 1}));
      EXPECT_GE(std::uint64_t{c.grid.x} * block, n);
      EXPECT_LT(std::uint64_t{c.grid.x - 1} * block, n);
      EXPECT_EQ(c.grid.y, 1U);
      EXPECT_EQ(c.shared_bytes, 0U);
    }
  }
}

TEST(LaunchConfig, ForElementsRejectsWhatItCannotCover) {
  EXPECT_THROW((void)LaunchConfig::for_elements(0), UsageError);
  EXPECT_THROW((void)LaunchConfig::for_elements(10, 0), UsageError);
  EXPECT_THROW((void)LaunchConfig::for_elements(std::numeric_limits<std::size_t>::max(), 1),
               UsageError);
}

TEST(DeviceInfo, IdIsTheSelectionSpelling) {
  DeviceInfo info;
  info.backend = BackendKind::cuda;
  info.ordinal = 3;
  EXPECT_EQ(info.id(), "cuda:3");
  EXPECT_STREQ(to_string(BackendKind::hip), "hip");
}

}  // namespace
}  // namespace kjit
