// Loops in step ask for their next iteration's lines: a grid-stride loop that the threads of a
// block run together jumps a whole grid ahead each iteration, where the hardware's prefetchers
// lose the stream. The request must leave the loop over threads vectorised. Read from the
// optimised IR that KJIT_DUMP_DIR leaves.
#include "cpu_dumped_ir.hpp"

#include <gtest/gtest.h>

#include <string>

namespace kjit {
namespace {

using test::optimised_ir;

TEST(CpuPrefetch, AGridStrideLoopInStepPrefetchesItsNextIteration) {
  const std::string ir = optimised_ir(test::grid_stride_block_sums("acc += in[i];"), "block_sums");
  ASSERT_FALSE(ir.empty()) << "KJIT_DUMP_DIR left no optimised IR";
  EXPECT_NE(ir.find("call void @llvm.prefetch"), std::string::npos)
      << "no prefetch for the grid-stride reads";
  EXPECT_EQ(ir.find("__kjit_ahead_"), std::string::npos) << "a prefetch request was left unlowered";
  // Reads, into the second level of cache: requests into the first made the pass slower with the
  // data in memory (cpu_prefetch.cpp).
  EXPECT_NE(ir.find(", i32 0, i32 2, i32 1)"), std::string::npos)
      << "the grid-stride reads are not prefetched into the second level of cache";
  EXPECT_EQ(ir.find(", i32 3, i32 1)"), std::string::npos)
      << "a prefetch asks for a line in the first level of cache";
  // The pass over the threads still reads a vector of consecutive elements.
  EXPECT_TRUE(test::loads_vectors_of_double(ir))
      << "the prefetch request stopped the loop over threads from vectorising";
}

TEST(CpuPrefetch, AKernelWithoutALoopInStepPrefetchesNothing) {
  const std::string ir = optimised_ir(R"(
    __global__ void scale(double* x, double a, int n) {
      const int i = blockIdx.x * blockDim.x + threadIdx.x;
      if (i < n) x[i] *= a;
    })",
                                      "scale");
  ASSERT_FALSE(ir.empty()) << "KJIT_DUMP_DIR left no optimised IR";
  EXPECT_EQ(ir.find("llvm.prefetch"), std::string::npos)
      << "a kernel whose threads walk memory in order got prefetches";
}

}  // namespace
}  // namespace kjit
