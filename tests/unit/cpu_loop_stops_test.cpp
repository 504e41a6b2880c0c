// Loops in step run several iterations of each thread per pass (cpu_loop_stops.cpp): what a pass
// costs besides the iterations (each thread's values through the frame, its state, the check of
// kept indices) is then paid once for all of them. Read from the lowered IR that KJIT_DUMP_DIR
// leaves: the region that a thread runs from the loop's stop holds one copy of the loop's body
// per iteration, each asking for its next line (cpu_prefetch.hpp) once.
#include "cpu_dumped_ir.hpp"

#include <gtest/gtest.h>

#include <string>

namespace kjit {
namespace {

/// How many times the lowered IR's function named `*<suffix>(` holds `what`; -1 if there is no
/// such function.
int count_in(const std::string& ir, const std::string& suffix, const std::string& what) {
  const std::size_t define = ir.find(suffix + "(");
  if (define == std::string::npos) {
    return -1;
  }
  const std::size_t end = ir.find("\n}\n", define);
  const std::string body = ir.substr(define, end - define);
  int n = 0;
  for (std::size_t at = body.find(what); at != std::string::npos; at = body.find(what, at + 1)) {
    ++n;
  }
  return n;
}

/// How many prefetch requests that function makes.
int requests_in(const std::string& ir, const std::string& suffix) {
  return count_in(ir, suffix, "call void @__kjit_ahead_");
}

TEST(CpuLoopStops, AGridStrideLoopInStepRunsFourIterationsPerPass) {
  const std::string ir =
      test::dumped_ir(test::grid_stride_block_sums("acc += in[i];"), "block_sums", ".lowered.ll");
  ASSERT_FALSE(ir.empty()) << "KJIT_DUMP_DIR left no lowered IR";
  // The region that runs on past stops: the loop's body, four times over, each reading in[].
  EXPECT_EQ(requests_in(ir, ".through"), 4) << ir;
  // The region a block starts with runs the loop's first iteration, peeled off, and no more
  // before a stop: a thread that runs the loop once (a grid as large as the data) needs no pass
  // of its own, and that region holds no copies of the body (with them, one element per thread
  // took four times as long).
  EXPECT_EQ(count_in(ir, ".region0", "load double"), 1) << ir;
}

TEST(CpuLoopStops, ALoopInStepWithALargeBodyRunsOneIterationPerPass) {
  // Four copies of a body this size would cost more code than the pass's own work they save.
  const std::string ir = test::dumped_ir(test::grid_stride_block_sums(R"(
        double x = in[i], p = x;
        for (int k = 0; k < 3; ++k) {
          p = p * x + c; p = p * p - x; p = p / (x + c); p = p * c + x; p = p - c * x;
          p = p * x + 1.5; p = p * p - 2.5; p = p / (x + 3.5); p = p * 4.5 + x; p = p - 5.5;
        }
        acc += p;)"),
                                         "block_sums", ".lowered.ll");
  ASSERT_FALSE(ir.empty()) << "KJIT_DUMP_DIR left no lowered IR";
  EXPECT_EQ(requests_in(ir, ".through"), 1) << ir;
}

TEST(CpuLoopStops, ALongLoopThatRevisitsAnInnerLoopsAddressesRunsWhole) {
  // wsm5's shape: a long loop of unknown length around a short one over a column's levels, which
  // touches the same three addresses on every step. Nothing streams in: in step, each step of
  // each thread would be a pass of its own (wsm5 ran 2.2 times OpenMP's time).
  const auto settle = [](const std::string& level) {
    return R"(
      __global__ void settle(float* column, int steps, int stride, int n) {
        const int i = blockIdx.x * blockDim.x + threadIdx.x;
        if (i < n) {
          for (int s = 0; s < steps; ++s) {
            for (int k = 0; k < 3; ++k) {
              column[)" +
           level + R"(] = column[)" + level + R"(] * 0.5f + 1.0f;
            }
          }
        }
      })";
  };
  const std::string same = test::dumped_ir(settle("i + k * stride"), "settle", ".lowered.ll");
  ASSERT_FALSE(same.empty()) << "KJIT_DUMP_DIR left no lowered IR";
  EXPECT_EQ(same.find(".through("), std::string::npos) << same;
  // Where each step walks further down (the inner walk starts elsewhere each time), the long
  // loop still runs in step.
  const std::string walking =
      test::dumped_ir(settle("i + (s * 3 + k) * stride"), "settle", ".lowered.ll");
  ASSERT_FALSE(walking.empty()) << "KJIT_DUMP_DIR left no lowered IR";
  EXPECT_NE(walking.find(".through("), std::string::npos) << walking;
}

TEST(CpuLoopStops, ALoopBoundedByAThreadsOwnSmallArrayRunsWhole) {
  // wsm5's level loops: run-time bounds, but each step writes the thread's own `float t[4]`, so
  // no more than five steps can run. In step, each level of each thread was a pass of its own
  // (wsm5 took 4.7 times OpenMP's time).
  const auto levels = [](int size) {
    return R"(
      __global__ void levels(const float* th, float* out, int k0, int k1, int stride, int n) {
        const int i = blockIdx.x * blockDim.x + threadIdx.x;
        if (i < n) {
          float t[)" +
           std::to_string(size) + R"(];
          for (int k = k0; k <= k1; ++k) {
            t[k] = th[i + k * stride] * 2.0f;
          }
          float s = 0;
          for (int k = k0; k <= k1; ++k) {
            s += t[k] * t[(k + 1) % )" +
           std::to_string(size) + R"(];
          }
          out[i] = s;
        }
      })";
  };
  const std::string small = test::dumped_ir(levels(4), "levels", ".lowered.ll");
  ASSERT_FALSE(small.empty()) << "KJIT_DUMP_DIR left no lowered IR";
  EXPECT_EQ(small.find(".through("), std::string::npos) << small;
  // An array of 64 floats allows 65 steps: the loop that reads th[] across the grid runs in step.
  const std::string large = test::dumped_ir(levels(64), "levels", ".lowered.ll");
  ASSERT_FALSE(large.empty()) << "KJIT_DUMP_DIR left no lowered IR";
  EXPECT_NE(large.find(".through("), std::string::npos) << large;
}

}  // namespace
}  // namespace kjit
