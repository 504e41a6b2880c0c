// KJIT_CPU_BARRIERS chooses how the CPU backend runs a kernel that calls __syncthreads(): the
// compiler's identity (so the cache key) says which, and the object holds the matching entry.
#include "backends/cpu/cpu_compiler.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <string>

namespace kjit {
namespace {

bool has_symbol(const backend::Binary& b, const std::string& name) {
  const std::string needle = name + '\0';  // whole names in the string table
  return std::search(b.bytes.begin(), b.bytes.end(), needle.begin(), needle.end()) != b.bytes.end();
}

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

}  // namespace
}  // namespace kjit
