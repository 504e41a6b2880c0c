// assert() in kernels: a failed one stops the launch and surfaces at the next synchronize as a
// LaunchError naming the kernel, the block and thread, the file and line, and the expression; one
// that holds, or NDEBUG, changes nothing. Its own test program: on CUDA a failed device assert
// leaves the context unusable, so each test runs in a process of its own (CTest runs them so).
#include "test_support.hpp"

namespace kjit::test {
namespace {

class Assert : public DeviceTest {};

constexpr const char* kSource = R"(#include <assert.h>
__global__ void check_positive(const int* v, int* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    assert(v[i] > 0);
    out[i] = 2 * v[i];
  }
}
)";

TEST_F(Assert, AnAssertThatHoldsChangesNothing) {
  auto k = Program::from_source("assert.cu", kSource)
               .kernel<const int*, int*, int>("check_positive", device);
  const std::vector<int> v = random_vector<int>(1000, 1, 100);
  auto in = device.upload(v);
  auto out = poisoned<int>(v.size());
  k.launch(LaunchConfig::for_elements(v.size(), 128), in, out, static_cast<int>(v.size()));
  const std::vector<int> got = out.download();
  for (std::size_t i = 0; i < v.size(); ++i) {
    ASSERT_EQ(got[i], 2 * v[i]) << i;
  }
}

TEST_F(Assert, AFailedAssertStopsTheLaunchAndSaysWhereAndWhy) {
  auto k = Program::from_source("assert.cu", kSource)
               .kernel<const int*, int*, int>("check_positive", device);
  std::vector<int> v = random_vector<int>(1000, 1, 100);
  v[777] = -5;  // block 6, thread 9 of 128
  auto in = device.upload(v);
  auto out = poisoned<int>(v.size());
  k.launch(LaunchConfig::for_elements(v.size(), 128), in, out, static_cast<int>(v.size()));
  if (device.info().backend == BackendKind::cuda) {  // as CUDA reports it
    const std::string what = expect_throw<Error>([&] { device.synchronize(); }).what();
    EXPECT_TRUE(contains(what, "check_positive")) << what;
    EXPECT_TRUE(contains(what, "CUDA_ERROR_ASSERT")) << what;
    EXPECT_TRUE(contains(what, "unusable")) << what;
    return;
  }
  const std::string what = expect_throw<LaunchError>([&] { device.synchronize(); }).what();
  EXPECT_TRUE(contains(what, "check_positive")) << what;
  EXPECT_TRUE(contains(what, "v[i] > 0")) << what;
  EXPECT_TRUE(contains(what, "assert.cu:5")) << what;
  EXPECT_TRUE(contains(what, "block (6, 0, 0)")) << what;
  EXPECT_TRUE(contains(what, "thread (9, 0, 0)")) << what;
  // The device goes on working.
  auto ok = Program::from_source("ok.cu", "__global__ void one(int* p) { *p = 1; }")
                .kernel<int*>("one", device);
  auto p = poisoned<int>(1);
  ok.launch(LaunchConfig{}, p);
  EXPECT_EQ(p.download()[0], 1);
}

TEST_F(Assert, AFailedAssertBetweenBarriersStopsTheBlock) {
  auto k = Program::from_source("assert_barrier.cu", R"(#include <cassert>
__global__ void rotate(const int* v, int* out) {
  __shared__ int s[64];
  s[threadIdx.x] = v[blockIdx.x * 64 + threadIdx.x];
  __syncthreads();
  assert(s[threadIdx.x] != 13);
  __syncthreads();
  out[blockIdx.x * 64 + threadIdx.x] = s[(threadIdx.x + 1) % 64];
}
)")
               .kernel<const int*, int*>("rotate", device);
  std::vector<int> v = random_vector<int>(64 * 16, 20, 40);
  v[64 * 3 + 5] = 13;
  auto in = device.upload(v);
  auto out = poisoned<int>(v.size());
  k.launch(LaunchConfig{.grid = {16}, .block = {64}}, in, out);
  const auto e = expect_throw<Error>([&] { device.synchronize(); });
  const std::string what = e.what();
  if (device.info().backend != BackendKind::cuda) {
    EXPECT_TRUE(contains(what, "assert_barrier.cu:6")) << what;
    EXPECT_TRUE(contains(what, "block (3, 0, 0)")) << what;
    EXPECT_TRUE(contains(what, "thread (5, 0, 0)")) << what;
  }
}

TEST_F(Assert, NdebugTurnsAssertOff) {
  CompileOptions options;
  options.defines["NDEBUG"] = "";
  auto k = Program::from_source("assert.cu", kSource, options)
               .kernel<const int*, int*, int>("check_positive", device);
  const std::vector<int> v{3, -4, 5};
  auto in = device.upload(v);
  auto out = poisoned<int>(v.size());
  k.launch(LaunchConfig{.grid = {1}, .block = {3}}, in, out, 3);
  EXPECT_EQ(out.download(), (std::vector<int>{6, -8, 10}));
}

}  // namespace
}  // namespace kjit::test
