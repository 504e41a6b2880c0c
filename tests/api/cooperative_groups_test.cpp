// Cooperative groups (kjit's <cooperative_groups.h>) on every backend: blocks and grids, tiles and
// their collectives (reduce, scans, shuffles, votes).
#include "test_support.hpp"

#include <algorithm>
#include <numeric>

namespace kjit::test {
namespace {

class CooperativeGroups : public DeviceTest {};

TEST_F(CooperativeGroups, BlocksAndGridsRunOnEveryBackend) {
  auto k = Program::from_file(test_kernel_path("cg_block.cu"))
               .kernel<const float*, float*, unsigned long long*>("block_sum", device);
  constexpr unsigned kBlock = 128;
  constexpr unsigned kBlocks = 12;
  const std::vector<float> in = random_vector<float>(kBlock * kBlocks, -4.0f, 4.0f);
  auto d_in = device.upload(in);
  auto d_out = poisoned<float>(kBlocks);
  auto info = poisoned<unsigned long long>(5);
  k.launch(LaunchConfig{.grid = {kBlocks}, .block = {kBlock}, .shared_bytes = kBlock * 4}, d_in,
           d_out, info);
  const std::vector<float> out = d_out.download();
  for (unsigned b = 0; b < kBlocks; ++b) {
    const float want =
        std::accumulate(in.begin() + b * kBlock, in.begin() + (b + 1) * kBlock, 0.0f);
    EXPECT_NEAR(out[b], want, 1e-3f) << "block " << b;
  }
  EXPECT_EQ(info.download(),
            (std::vector<unsigned long long>{kBlock * kBlocks, kBlocks, kBlocks - 1,
                                             2 * kBlock + kBlock - 1, 0}));
}

TEST_F(CooperativeGroups, TilesReduceScanShuffleAndVote) {
  auto k = Program::from_file(test_kernel_path("cg_tiles.cu"))
               .kernel<const int*, int*>("tile_ops", device);
  constexpr int kThreads = 64;
  const std::vector<int> in = random_vector<int>(kThreads, 0, 100);
  auto d_in = device.upload(in);
  auto d_out = poisoned<int>(kThreads * 8);
  k.launch(LaunchConfig{.grid = {1}, .block = {kThreads}}, d_in, d_out);
  const std::vector<int> out = d_out.download();
  for (int r = 0; r < kThreads; ++r) {
    const int t8 = r / 8 * 8;
    const int t32 = r / 32 * 32;
    const auto at = [&](int base, int n) { return in.begin() + base + n; };
    const int sum8 = std::accumulate(at(t8, 0), at(t8, 8), 0);
    const int max32 = *std::max_element(at(t32, 0), at(t32, 32));
    const int inclusive8 = std::accumulate(at(t8, 0), at(r, 1), 0);
    const int exclusive32 = std::accumulate(at(t32, 0), at(r, 0), 0);
    const int down = (r % 8 == 7) ? in[r] : in[r + 1];  // the last lane keeps its own value
    unsigned ballot = 0;
    bool any7 = false;
    for (int i = 0; i < 32; ++i) {
      ballot |= static_cast<unsigned>(in[t32 + i] > 50) << i;
      any7 = any7 || in[t32 + i] == 7;
    }
    const std::vector<int> want{sum8,
                                max32,
                                inclusive8,
                                exclusive32,
                                down,
                                static_cast<int>(ballot),
                                (r % 32) / 8 * 100 + r % 8,
                                static_cast<int>(any7) + 2 + 4 * 2};
    EXPECT_EQ(std::vector<int>(out.begin() + r * 8, out.begin() + r * 8 + 8), want)
        << "thread " << r;
  }
}

TEST_F(CooperativeGroups, CoalescedGroupsAndPartitionsWorkByRank) {
  // As cuda-samples' warpAggregatedAtomicsCG and binaryPartitionCG use them: the odd lanes of a
  // warp as a coalesced group (ranks, shuffles by rank, a ballot by rank, reduce), a warp split
  // by a predicate and by a label.
  auto k = Program::from_source("coalesced.cu", R"(
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;
__global__ void k(const int* in, int* out) {
  const int t = threadIdx.x;
  const int v = in[t];
  int* o = out + 8 * t;
  if (t % 2 == 1) {
    cg::coalesced_group odd = cg::coalesced_threads();
    o[0] = odd.thread_rank();
    o[1] = odd.size();
    o[2] = odd.shfl(v, 0);
    o[3] = odd.shfl_down(v, 1);
    o[4] = (int)odd.ballot(v > 50);
    o[5] = cg::reduce(odd, v, cg::plus<int>());
  }
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(cg::this_thread_block());
  cg::coalesced_group same = cg::binary_partition(warp, (v & 1) != 0);
  o[6] = cg::reduce(same, v, cg::plus<int>());
  o[7] = cg::labeled_partition(warp, v % 3).size();
}
)")
               .kernel<const int*, int*>("k", device);
  constexpr int kThreads = 64;
  const std::vector<int> in = random_vector<int>(kThreads, 0, 100);
  auto d_in = device.upload(in);
  auto d_out = poisoned<int>(8 * kThreads);
  k.launch(LaunchConfig{.grid = {1}, .block = {kThreads}}, d_in, d_out);
  const std::vector<int> out = d_out.download();
  for (int t = 0; t < kThreads; ++t) {
    const int warp = t / 32 * 32;
    if (t % 2 == 1) {
      std::vector<int> odd;  // the odd lanes' values, by rank
      for (int u = warp + 1; u < warp + 32; u += 2) {
        odd.push_back(in[u]);
      }
      const int rank = (t - warp) / 2;
      unsigned ballot = 0;
      for (std::size_t r = 0; r < odd.size(); ++r) {
        ballot |= static_cast<unsigned>(odd[r] > 50) << r;
      }
      EXPECT_EQ(out[8 * t + 0], rank) << t;
      EXPECT_EQ(out[8 * t + 1], 16) << t;
      EXPECT_EQ(out[8 * t + 2], odd[0]) << t;
      EXPECT_EQ(out[8 * t + 3], rank + 1 < 16 ? odd[rank + 1] : odd[rank]) << t;
      EXPECT_EQ(static_cast<unsigned>(out[8 * t + 4]), ballot) << t;
      EXPECT_EQ(out[8 * t + 5], std::accumulate(odd.begin(), odd.end(), 0)) << t;
    }
    int same_sum = 0;
    int same_label = 0;
    for (int u = warp; u < warp + 32; ++u) {
      same_sum += (in[u] & 1) == (in[t] & 1) ? in[u] : 0;
      same_label += in[u] % 3 == in[t] % 3 ? 1 : 0;
    }
    EXPECT_EQ(out[8 * t + 6], same_sum) << t;
    EXPECT_EQ(out[8 * t + 7], same_label) << t;
  }
}

TEST_F(CooperativeGroups, AGridWideBarrierIsACompileErrorThatSaysWhy) {
  auto e = expect_throw<CompileError>([&] {
    (void)Program::from_source("cg_grid.cu",
                               "#include <cooperative_groups.h>\n"
                               "__global__ void k(int* p) {\n"
                               "  cooperative_groups::this_grid().sync();\n"
                               "  p[0] = 1;\n"
                               "}\n")
        .kernel<int*>("k", device);
  });
  EXPECT_TRUE(contains(e.what(), "cooperative launch")) << e.what();
  EXPECT_TRUE(contains(e.what(), "cg_grid.cu:3")) << e.what();
}

}  // namespace
}  // namespace kjit::test
