// Bounds checks that guard loads every thread shares: the CPU backend splits the loop over a
// block's threads at the bound, so that the loads need no mask (FIR's coefficients were masked
// gathers from one address). Loops without such loads stay whole. Read from the optimised IR
// that KJIT_DUMP_DIR leaves.
#include "cpu_dumped_ir.hpp"

#include <gtest/gtest.h>

#include <string>

namespace kjit {
namespace {

using test::optimised_ir;

TEST(CpuRangeChecks, ABoundsCheckOverSharedLoadsSplitsTheThreadLoop) {
  const std::string ir = optimised_ir(R"(
    __global__ void fir(double* out, const double* in, const double* coeff, int n) {
      const int i = blockIdx.x * blockDim.x + threadIdx.x;
      if (i < n - 15) {
        double sum = 0.0;
        for (int j = 0; j < 16; ++j) sum += coeff[j] * in[i + j];
        out[i] = sum;
      }
    })",
                                      "fir");
  ASSERT_FALSE(ir.empty()) << "KJIT_DUMP_DIR left no optimised IR";
  EXPECT_EQ(ir.find("llvm.masked.gather"), std::string::npos)
      << "the coefficients are still gathered under a mask";
  EXPECT_NE(ir.find("postloop"), std::string::npos) << "the thread loop was not split";
  EXPECT_TRUE(test::loads_vectors_of_double(ir)) << "the split loop is not vectorised";
}

TEST(CpuRangeChecks, ABoundsCheckWithoutSharedLoadsLeavesTheLoopWhole) {
  const std::string ir = optimised_ir(R"(
    __global__ void vadd(const float* a, const float* b, float* c, int n) {
      const int i = blockIdx.x * blockDim.x + threadIdx.x;
      if (i < n) c[i] = a[i] + b[i];
    })",
                                      "vadd");
  ASSERT_FALSE(ir.empty()) << "KJIT_DUMP_DIR left no optimised IR";
  EXPECT_EQ(ir.find("postloop"), std::string::npos)
      << "split although no load is shared (it made vadd slower)";
}

}  // namespace
}  // namespace kjit
