// Warp shuffles, votes and reductions whose lanes all reach them together run as vectors of a
// warp's lanes on the CPU (cpu_warp_lanes.cpp): read from the optimised IR that KJIT_DUMP_DIR
// leaves, a converged shuffle reduction makes no meeting (no wait, no call into the runtime per
// shuffle) but permutes vectors, a vote is a mask operation and a reduction a horizontal one,
// also under a branch on data behind a barrier the lowering places before it; a shuffle whose
// mask is known only at run time still meets through memory, and KJIT_CPU_WARPS=meetings makes
// every shuffle a meeting. What the kernels compute is checked by
// WarpLanes.* on both ways.
#include "cpu_dumped_ir.hpp"
#include "test_support.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>

namespace kjit {
namespace {

/// Calls of `symbol` in the IR.
long calls(const std::string& ir, const std::string& symbol) {
  const std::regex call("call [^\\n]*@" + symbol + "\\(");
  return std::distance(std::sregex_iterator(ir.begin(), ir.end(), call), std::sregex_iterator());
}

/// The definition of function `name` in the IR; empty if there is none.
std::string function(const std::string& ir, const std::string& name) {
  const std::size_t at = ir.find("@" + name + "(");
  const std::size_t begin = ir.rfind("\ndefine ", at);
  const std::size_t end = ir.find("\n}\n", at);
  return at == std::string::npos || begin == std::string::npos || end == std::string::npos
             ? std::string()
             : ir.substr(begin, end - begin);
}

/// A warp's sum by shuffles after a grid-stride loop (its threads come to them from a loop stop),
/// which each warp's lane 0 writes; with `divergent`, the shuffles under a branch on data (which
/// a full mask says every lane of a warp takes alike); with `mask_at_run_time`, their mask a
/// parameter, which the lowering cannot know is full.
std::string warp_sum(bool divergent, bool mask_at_run_time = false) {
  return std::string(R"(
    __global__ void warp_sum(const float* in, float* out, int n, unsigned mask) {
      float acc = 0;
      for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        acc += in[i];
      )") +
         (divergent ? "if (in[threadIdx.x] > 0) " : "") +
         "for (int offset = 16; offset > 0; offset /= 2) acc += __shfl_down_sync(" +
         (mask_at_run_time ? "mask" : "~0u") + R"(, acc, offset);
      if (threadIdx.x % 32 == 0) out[blockIdx.x * blockDim.x / 32 + threadIdx.x / 32] = acc;
    })";
}

TEST(CpuWarpLanes, AConvergedShuffleReductionPermutesVectorsAndMeetsNowhere) {
  const std::string ir = test::optimised_ir(warp_sum(false), "warp_sum");
  ASSERT_FALSE(ir.empty()) << "KJIT_DUMP_DIR left no optimised IR";
  EXPECT_EQ(calls(ir, "__kjit_warp_release"), 0) << ir;
  EXPECT_EQ(calls(ir, "__kjit_warp_wait"), 0) << ir;
  EXPECT_EQ(calls(ir, "__kjit_warp_shfl32"), 0) << ir;
  EXPECT_EQ(calls(ir, "__kjit_warp_shfl32.lanes"), 0) << ir;  // inlined
  // The five steps, each a permute of the 32 lanes (two halves of a vector of 32 floats).
  const std::regex permute("shufflevector <32 x float>");
  EXPECT_GE(
      std::distance(std::sregex_iterator(ir.begin(), ir.end(), permute), std::sregex_iterator()), 5)
      << ir;
}

TEST(CpuWarpLanes, AFullMaskUnderABranchOnDataAfterALoopRunsInStepBehindABarrierBeforeTheBranch) {
  const std::string ir = test::optimised_ir(warp_sum(true), "warp_sum");
  ASSERT_FALSE(ir.empty()) << "KJIT_DUMP_DIR left no optimised IR";
  EXPECT_EQ(calls(ir, "__kjit_warp_release"), 0) << ir;
  EXPECT_EQ(calls(ir, "__kjit_warp_wait"), 0) << ir;
  EXPECT_NE(function(ir, "__kjit_block_0").find("shufflevector <32 x float>"), std::string::npos)
      << ir;
}

TEST(CpuWarpLanes, TheFirstWarpsShufflesAfterALoopOfBarriersRunInStep) {
  // cuda-samples' reduce4: the threads come to `if (t < 32)` from a loop with a barrier, and
  // the function also splits range checks that guard shared loads (never the loop of lanes).
  std::stringstream source;  // tests/kernels/warp_lanes.cu, whose kernel WarpLanes.* runs
  source << std::ifstream(test::test_kernel_path("warp_lanes.cu")).rdbuf();
  const std::string ir = test::optimised_ir(source.str(), "tree_then_warp");
  ASSERT_FALSE(ir.empty()) << "KJIT_DUMP_DIR left no optimised IR";
  EXPECT_EQ(calls(ir, "__kjit_warp_release"), 0) << ir;
  EXPECT_NE(function(ir, "__kjit_block_0").find("shufflevector <32 x float>"), std::string::npos)
      << ir;
}

TEST(CpuWarpLanes, AShuffleWithAMaskKnownOnlyAtRunTimeMeetsThroughMemory) {
  const std::string ir = test::optimised_ir(warp_sum(true, true), "warp_sum");
  ASSERT_FALSE(ir.empty()) << "KJIT_DUMP_DIR left no optimised IR";
  EXPECT_GT(calls(ir, "__kjit_warp_release"), 0) << ir;
  EXPECT_EQ(calls(ir, "__kjit_warp_shfl32"), 0) << ir;
  EXPECT_EQ(ir.find("shufflevector <32 x float>"), std::string::npos) << ir;
}

TEST(CpuWarpLanes, MeetingsAsTheSettingMakeEveryShuffleAMeeting) {
  setenv("KJIT_CPU_WARPS", "meetings", 1);  // NOLINT(concurrency-mt-unsafe): one thread
  const std::string ir = test::optimised_ir(warp_sum(false), "warp_sum");
  unsetenv("KJIT_CPU_WARPS");  // NOLINT(concurrency-mt-unsafe)
  ASSERT_FALSE(ir.empty()) << "KJIT_DUMP_DIR left no optimised IR";
  EXPECT_GT(calls(ir, "__kjit_warp_release"), 0) << ir;
  EXPECT_EQ(calls(ir, "__kjit_warp_shfl32"), 0) << ir;
  EXPECT_EQ(ir.find("shufflevector <32 x float>"), std::string::npos) << ir;
}

TEST(CpuWarpLanes, ConvergedVotesAndReductionsAreMaskAndHorizontalOperations) {
  const std::string ir = test::optimised_ir(R"(
    __global__ void vote_sum(const int* in, unsigned* out) {
      const int t = blockIdx.x * blockDim.x + threadIdx.x;
      out[t] = __ballot_sync(~0u, in[t] > 0) + __all_sync(~0u, in[t] != 0) +
               __reduce_add_sync(~0u, (unsigned)in[t]) + __reduce_max_sync(~0u, in[t]);
    })",
                                            "vote_sum");
  ASSERT_FALSE(ir.empty()) << "KJIT_DUMP_DIR left no optimised IR";
  EXPECT_EQ(calls(ir, "__kjit_warp_release"), 0) << ir;
  EXPECT_EQ(calls(ir, "__kjit_warp_wait"), 0) << ir;
  EXPECT_EQ(calls(ir, "__kjit_warp_ballot.lanes"), 0) << ir;  // inlined
  EXPECT_EQ(calls(ir, "__kjit_warp_reduce32.lanes"), 0) << ir;
  // In the block's code (not the vector forms the module keeps): the votes, the vector of 32
  // predicates as the bits of one word; the reductions, each its own horizontal operation.
  const std::string block = function(ir, "__kjit_block_0");
  ASSERT_FALSE(block.empty()) << ir;
  EXPECT_NE(block.find("bitcast <32 x i1>"), std::string::npos) << block;
  EXPECT_GT(calls(block, "llvm.vector.reduce.add.v32i32"), 0) << block;
  EXPECT_GT(calls(block, "llvm.vector.reduce.smax.v32i32"), 0) << block;
  EXPECT_EQ(calls(block, "llvm.vector.reduce.umin.v32i32"), 0) << block;
}

TEST(CpuWarpLanes, ATileOfSixteensReductionPermutesVectorsAndMeetsNowhere) {
  const std::string ir = test::optimised_ir(R"(
    #include <cooperative_groups.h>
    #include <cooperative_groups/reduce.h>
    namespace cg = cooperative_groups;
    __global__ void tile_sum(const float* in, float* out) {
      const int t = blockIdx.x * blockDim.x + threadIdx.x;
      const cg::thread_block_tile<16> tile = cg::tiled_partition<16>(cg::this_thread_block());
      out[t] = cg::reduce(tile, in[t], cg::plus<float>());
    })",
                                            "tile_sum");
  ASSERT_FALSE(ir.empty()) << "KJIT_DUMP_DIR left no optimised IR";
  EXPECT_EQ(calls(ir, "__kjit_warp_release"), 0) << ir;
  EXPECT_EQ(calls(ir, "__kjit_warp_wait"), 0) << ir;
  EXPECT_NE(function(ir, "__kjit_block_0").find("shufflevector <32 x float>"), std::string::npos)
      << ir;
}

TEST(CpuWarpLanes, TheSettingIsInTheCompilersIdentity) {
  for (const std::string mode : {"vectors", "meetings"}) {
    setenv("KJIT_CPU_WARPS", mode.c_str(), 1);  // NOLINT(concurrency-mt-unsafe): one thread
    cpu::CpuCompiler compiler("cpu");
    std::string fact;
    for (const auto& [key, value] : compiler.identity().facts) {
      fact = key == "warps" ? value : fact;
    }
    EXPECT_EQ(fact, mode);
  }
  unsetenv("KJIT_CPU_WARPS");  // NOLINT(concurrency-mt-unsafe)
}

}  // namespace
}  // namespace kjit
