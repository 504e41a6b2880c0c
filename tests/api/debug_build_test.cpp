// CompileOptions::debug on every backend: kernels compiled for a debugger (on the CPU: O0, barrier
// kernels on fibers, the builtins as locals; on CUDA: NVRTC's -G) compute what optimised builds
// compute, on random inputs. tests/tools/gdb_test.py checks what gdb sees.
#include "test_support.hpp"

#include <cstdint>
#include <numeric>

namespace kjit::test {
namespace {

// Barriers, __shared__ memory, a warp shuffle and device functions that read threadIdx: each
// path of the CPU lowering that the debug build changes.
constexpr const char* kSource = R"(
__device__ unsigned lane() { return threadIdx.x % 32; }

__device__ int warp_sum(int v) {
  for (int offset = 16; offset > 0; offset /= 2) {
    v += __shfl_down_sync(0xffffffffu, v, offset);
  }
  return v;
}

__global__ void block_sums(const int* in, int* warp_totals, int* block_totals, int n) {
  __shared__ int partial[256];
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int v = i < n ? in[i] : 0;
  const int w = warp_sum(v);
  if (lane() == 0) {
    warp_totals[i / 32] = w;
  }
  partial[threadIdx.x] = v;
  __syncthreads();
  for (unsigned stride = blockDim.x / 2; stride > 0; stride /= 2) {
    if (threadIdx.x < stride) {
      partial[threadIdx.x] += partial[threadIdx.x + stride];
    }
    __syncthreads();
  }
  if (threadIdx.x == 0) {
    block_totals[blockIdx.x] = partial[0];
  }
}
)";

class DebugBuild : public DeviceTest {};

TEST_F(DebugBuild, KernelsComputeWhatOptimisedBuildsCompute) {
  constexpr int kBlocks = 37;
  constexpr int kThreads = 256;
  constexpr int n = kBlocks * kThreads - 100;  // the last block has idle threads
  const std::vector<int> in = random_vector<int>(n, -1000, 1000);
  std::vector<int> warps(kBlocks * kThreads / 32);
  std::vector<int> blocks(kBlocks);
  for (int i = 0; i < n; ++i) {
    warps[i / 32] += in[i];
    blocks[i / kThreads] += in[i];
  }
  const auto input = device.upload(in);
  for (const bool debug : {true, false}) {
    SCOPED_TRACE(debug ? "debug" : "optimised");
    const Program program =
        Program::from_source("block_sums.cu", kSource, CompileOptions{.debug = debug});
    auto k = program.kernel<const int*, int*, int*, int>("block_sums", device);
    auto warp_totals = poisoned<int>(warps.size());
    auto block_totals = poisoned<int>(blocks.size());
    k.launch(LaunchConfig{.grid = {kBlocks}, .block = {kThreads}}, input, warp_totals, block_totals,
             n);
    EXPECT_EQ(warp_totals.download(), warps);
    EXPECT_EQ(block_totals.download(), blocks);
  }
}

TEST_F(DebugBuild, ExampleKernelsMatchTheHost) {
  const Program reduction =
      Program::from_file(kernel_path("reduction.cu"), CompileOptions{.debug = true});
  auto sum = reduction.kernel<const float*, float*, int>("reduce_sum<float>", device);
  const std::vector<float> values = random_vector<float>(100000, -1.0F, 1.0F);
  const double expected = std::accumulate(values.begin(), values.end(), 0.0);
  auto total = device.upload(std::vector<float>{0.0F});
  sum.launch(LaunchConfig{.grid = {64}, .block = {256}}, device.upload(values), total,
             static_cast<int>(values.size()));
  EXPECT_NEAR(total.download()[0], expected, 1e-2);

  const Program saxpy = Program::from_file(kernel_path("saxpy.cu"), CompileOptions{.debug = true});
  auto k = saxpy.kernel<float, const float*, float*, int>("saxpy<float>", device);
  const std::vector<float> x = random_vector<float>(5000, -10.0F, 10.0F);
  std::vector<float> y = random_vector<float>(5000, -10.0F, 10.0F);
  auto dy = device.upload(y);
  k.launch(LaunchConfig::for_elements(x.size()), 1.5F, device.upload(x), dy,
           static_cast<int>(x.size()));
  for (std::size_t i = 0; i < y.size(); ++i) {
    y[i] = 1.5F * x[i] + y[i];
  }
  const std::vector<float> got = dy.download();
  for (std::size_t i = 0; i < y.size(); ++i) {
    ASSERT_NEAR(got[i], y[i], 1e-5F * (1.0F + std::abs(y[i]))) << i;
  }
}

}  // namespace
}  // namespace kjit::test
