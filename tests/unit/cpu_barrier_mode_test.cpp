// KJIT_CPU_BARRIERS chooses how the CPU backend runs a kernel that calls __syncthreads(): the
// compiler's identity (so the cache key) says which, and the object holds the matching entry.
#include "backends/cpu/compile/cpu_compiler.hpp"
#include "binary_symbols.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <string>

namespace kjit {
namespace {

std::string barriers_fact(const backend::TargetIdentity& id) {
  for (const auto& [key, value] : id.facts) {
    if (key == "barriers") {
      return value;
    }
  }
  return "(none)";
}

TEST(CpuBarrierMode, TheSettingChoosesTheEntryAndIsInTheIdentity) {
  backend::CompileRequest r;
  r.program_name = "rotate.cu";
  r.source = R"(
    __global__ void rotate(int* v) {
      __shared__ int s[256];
      s[threadIdx.x] = v[threadIdx.x];
      __syncthreads();
      v[threadIdx.x] = s[(threadIdx.x + 1) % blockDim.x];
    })";
  r.kernel_names = {"rotate"};
  r.kernel_signatures.resize(1);
  for (const std::string mode : {"regions", "fibers"}) {
    SCOPED_TRACE(mode);
    setenv("KJIT_CPU_BARRIERS", mode.c_str(), 1);  // NOLINT(concurrency-mt-unsafe): one thread
    cpu::CpuCompiler compiler("cpu");
    EXPECT_EQ(barriers_fact(compiler.identity()), mode);
    const backend::Binary b = compiler.compile(r);
    EXPECT_EQ(has_symbol(b, "__kjit_block_0"), mode == "regions");
    EXPECT_EQ(has_symbol(b, "__kjit_thread_0"), mode == "fibers");
  }
  unsetenv("KJIT_CPU_BARRIERS");  // NOLINT(concurrency-mt-unsafe)
}

backend::Binary compile_split(const std::string& loop) {
  backend::CompileRequest r;
  r.program_name = "loop.cu";
  r.source = R"(
    __global__ void walk(const float* in, float* out, int n, int stride) {
      __shared__ float s[256];
      float acc = 0;
      )" + loop +
             R"(
      s[threadIdx.x] = acc;
      __syncthreads();
      out[blockIdx.x * blockDim.x + threadIdx.x] = s[blockDim.x - 1 - threadIdx.x];
    })";
  r.kernel_names = {"walk"};
  r.kernel_signatures.resize(1);
  setenv("KJIT_CPU_BARRIERS", "regions", 1);  // NOLINT(concurrency-mt-unsafe): one thread
  cpu::CpuCompiler compiler("cpu");
  unsetenv("KJIT_CPU_BARRIERS");  // NOLINT(concurrency-mt-unsafe)
  return compiler.compile(r);
}

TEST(CpuBarrierMode, LoopsThatWalkMemoryAcrossTheThreadsRunInStep) {
  // A loop in step is cut at its back edge; the threads that leave it at different times each
  // run on through a region's copy that ignores the cut (named '.through').
  const auto in_step = [](const std::string& loop) {
    const backend::Binary b = compile_split(loop);
    const std::string suffix = ".through";
    return std::search(b.bytes.begin(), b.bytes.end(), suffix.begin(), suffix.end()) !=
           b.bytes.end();
  };
  // A grid-stride loop, and a walk down a column: each iteration moves by a run-time stride.
  EXPECT_TRUE(in_step(R"(
      for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        acc += in[i];)"));
  EXPECT_TRUE(in_step(R"(
      for (int r = 0; r < n; ++r) acc += in[r * stride + threadIdx.x];)"));
  // A thread walking its own row element by element: LLVM vectorises that loop itself.
  EXPECT_FALSE(in_step(R"(
      for (int j = 0; j < n; ++j) acc += in[threadIdx.x * n + j];)"));
  // A short loop of known length: LLVM unrolls it.
  EXPECT_FALSE(in_step(R"(
      for (int j = 0; j < 8; ++j) acc += in[j * stride + threadIdx.x];)"));
}

TEST(CpuBarrierMode, AKernelWithoutBarriersIsSplitOnlyForALoopInStep) {
  const auto compile = [](const std::string& body) {
    backend::CompileRequest r;
    r.program_name = "plain.cu";
    r.source = "__global__ void plain(const float* in, float* out, int n) {" + body + "}";
    r.kernel_names = {"plain"};
    r.kernel_signatures.resize(1);
    return cpu::CpuCompiler("cpu").compile(r);
  };
  const backend::Binary grid_stride = compile(R"(
      for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        out[i] = 2 * in[i];)");
  EXPECT_TRUE(has_symbol(grid_stride, "__kjit_block_0"));
  EXPECT_TRUE(has_symbol(grid_stride, "__kjit_thread_0.region1.through"));
  const backend::Binary one_each = compile(R"(
      const int i = blockIdx.x * blockDim.x + threadIdx.x;
      if (i < n) out[i] = 2 * in[i];)");
  EXPECT_TRUE(has_symbol(one_each, "__kjit_block_0"));
  EXPECT_FALSE(has_symbol(one_each, "__kjit_thread_0.region1.through"));
}

}  // namespace
}  // namespace kjit
