// A split kernel's passes over the block's threads (cpu_block_driver.cpp): inlined into its block
// entry while they are small, kept apart when together they are large, where one function of
// them all cost the code generator several times its time. Read from the optimised IR that
// KJIT_DUMP_DIR leaves; what the kernels compute is checked by the corpus and kernel suites.
#include "cpu_dumped_ir.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <regex>
#include <set>
#include <string>

namespace kjit {
namespace {

/// How many pass functions the optimised IR still defines.
long passes_defined(const std::string& ir) {
  const std::regex define(R"(\ndefine internal [^\n]*@__kjit_thread_[0-9]+\.pass[0-9]+\.)");
  return std::distance(std::sregex_iterator(ir.begin(), ir.end(), define), std::sregex_iterator());
}

/// A kernel of `stages` block-wide maxima over a row: each a strided loop, a warp's five
/// shuffles, the warps' results through shared memory and three barriers.
std::string staged_maxima(int stages) {
  std::string text = R"(
    __global__ void stages(const float* in, float* out, int n) {
      __shared__ float part[32];
      const float* row = in + blockIdx.x * n;
      float acc = 0;)";
  for (int s = 1; s <= stages; ++s) {
    text += R"(
      {
        float m = -1e30f;
        for (int i = threadIdx.x; i < n; i += blockDim.x) m = fmaxf(m, row[i] * )" +
            std::to_string(s) + R"(.0f);
        for (int o = 16; o > 0; o /= 2) m = fmaxf(m, __shfl_down_sync(0xffffffffu, m, o));
        if (threadIdx.x % 32 == 0) part[threadIdx.x / 32] = m;
        __syncthreads();
        if (threadIdx.x == 0) {
          float t = part[0];
          for (int w = 1; w < blockDim.x / 32; ++w) t = fmaxf(t, part[w]);
          part[0] = t;
        }
        __syncthreads();
        acc += part[0];
        __syncthreads();
      })";
  }
  return text + R"(
      out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
    })";
}

TEST(CpuPassInlining, ASmallBarrierKernelsPassesAreInlinedIntoItsBlockEntry) {
  const std::string ir =
      test::optimised_ir(test::grid_stride_block_sums("acc += in[i];"), "block_sums");
  ASSERT_FALSE(ir.empty()) << "KJIT_DUMP_DIR left no optimised IR";
  EXPECT_EQ(passes_defined(ir), 0) << ir;
}

TEST(CpuPassInlining, AKernelOfManyWarpMeetingsAndBarriersKeepsItsPassesApart) {
  const std::string ir = test::optimised_ir(staged_maxima(4), "stages");
  ASSERT_FALSE(ir.empty()) << "KJIT_DUMP_DIR left no optimised IR";
  // Inlined, they made one function that took the code generator twice as long (3.0 s against
  // 1.4 s on two cores; with six stages 15 s against 4 s).
  EXPECT_GE(passes_defined(ir), 8);
  EXPECT_TRUE(std::regex_search(ir, std::regex(R"(call [^\n]*@__kjit_thread_[0-9]+\.pass)")));
}

/// The passes over the live threads alone that the lowered IR defines, by the state they run.
std::set<int> live_passes(const std::string& ir) {
  const std::regex define(R"(\ndefine internal [^\n]*@__kjit_thread_[0-9]+\.pass([0-9]+)\.live\()");
  std::set<int> out;
  for (auto it = std::sregex_iterator(ir.begin(), ir.end(), define); it != std::sregex_iterator();
       ++it) {
    out.insert(std::stoi((*it)[1]));
  }
  return out;
}

/// The warp-shuffle block sum of kernels/warp_reduction.cu: five shuffles in every warp before
/// its barrier, five more in the first warp after it, where the other threads have ended.
const char* const kShuffleBlockSum = R"(
  __global__ void shuffle_sum(const float* in, float* sum, int n) {
    __shared__ float warp_sums[32];
    const unsigned t = threadIdx.x;
    float acc = 0;
    for (int i = blockIdx.x * blockDim.x + t; i < n; i += gridDim.x * blockDim.x) acc += in[i];
    for (int offset = 16; offset > 0; offset /= 2) acc += __shfl_down_sync(~0u, acc, offset);
    if (t % 32 == 0) warp_sums[t / 32] = acc;
    __syncthreads();
    if (t < 32) {
      acc = t < blockDim.x / 32 ? warp_sums[t] : 0.0f;
      for (int offset = 16; offset > 0; offset /= 2) acc += __shfl_down_sync(~0u, acc, offset);
      if (t == 0) atomicAdd(sum, acc);
    }
  })";

TEST(CpuPassInlining, OnlyWaitsThreadsReachAfterOthersEndedGetAPassOverTheLiveThreads) {
  // Every shuffle a meeting (the first five would otherwise run as vectors, cpu_warp_lanes.cpp).
  setenv("KJIT_CPU_WARPS", "meetings", 1);  // NOLINT(concurrency-mt-unsafe): one thread
  const std::string ir = test::dumped_ir(kShuffleBlockSum, "shuffle_sum", ".lowered.ll");
  unsetenv("KJIT_CPU_WARPS");  // NOLINT(concurrency-mt-unsafe)
  ASSERT_FALSE(ir.empty()) << "KJIT_DUMP_DIR left no lowered IR";
  // States: 1 the barrier, 2 and 3 the two shuffles, 4 the grid-stride loop's stop. Threads
  // 32 and up end past the barrier while the first warp meets at the second shuffle; before
  // the barrier no thread can have ended.
  const std::set<int> live = live_passes(ir);
  EXPECT_EQ(live, (std::set<int>{3})) << ir;
}

}  // namespace
}  // namespace kjit
