// The race check of checked mode (KJIT_CHECK=race, which CTest sets for this program with
// 'memory'): races in shared memory between barriers, each reported as a LaunchError naming the
// kernel, the block, both threads and both lines; and kernels whose threads are ordered by
// barriers, warp meetings or atomic operations give no report and the right results.
#include "checked_test_support.hpp"

#include <string>

namespace kjit::test {
namespace {

constexpr const char* kSource = R"(
__global__ void missing_barrier(const float* in, float* out) {
  __shared__ float tile[64];
  const int t = threadIdx.x;
  tile[t] = in[t];  // AT:missing_barrier_write
  out[t] = tile[(t + 1) % 64];  // AT:missing_barrier_read
}

__global__ void second_barrier_missing(float* out) {
  __shared__ float tile[64];
  const int t = threadIdx.x;
  tile[t] = (float)t;
  __syncthreads();
  const float v = tile[(t + 1) % 64];  // AT:shift_read
  tile[t] = v;  // AT:shift_write
  __syncthreads();
  out[t] = tile[t];
}

__global__ void everyone_writes(int* out) {
  __shared__ int winner;
  if (blockIdx.x == 2) {
    winner = threadIdx.x;  // AT:everyone_writes
  } else if (threadIdx.x == 0) {
    winner = 0;
  }
  __syncthreads();
  if (threadIdx.x == 0) out[blockIdx.x] = winner;
}

__global__ void read_during_atomics(unsigned* out) {
  __shared__ unsigned count;
  if (threadIdx.x == 0) count = 0;
  __syncthreads();
  atomicAdd(&count, 1u);  // AT:atomics
  if (threadIdx.x == 40) out[0] = count;  // AT:read_during_atomics
}

__global__ void syncwarp_is_not_a_barrier(const float* in, float* out) {
  __shared__ float lanes[64];
  const int t = threadIdx.x;
  lanes[t] = in[t];  // AT:across_warps_write
  __syncwarp();
  out[t] = lanes[63 - t];  // AT:across_warps_read
}

__global__ void warp_exchange(const float* in, float* out) {
  __shared__ float lanes[64];
  const int t = threadIdx.x;
  lanes[t] = in[t];
  __syncwarp();
  out[t] = lanes[t ^ 1];
}

// A tree reduction with barriers, a warp-synchronous tail on volatile memory (as CUDA samples
// before Volta wrote it; kjit keeps a warp in step at volatile stores), and a count made with
// atomic operations that is read after a barrier.
__global__ void correct_reduce(const float* in, float* out) {
  __shared__ float s[128];
  __shared__ unsigned positive;
  const int t = threadIdx.x;
  const float x = in[blockIdx.x * 128 + t];
  if (t == 0) positive = 0;
  s[t] = x;
  __syncthreads();
  if (t < 64) s[t] += s[t + 64];
  __syncthreads();
  if (t < 32) {
    volatile float* v = s;
    v[t] += v[t + 32];
    v[t] += v[t + 16];
    v[t] += v[t + 8];
    v[t] += v[t + 4];
    v[t] += v[t + 2];
    v[t] += v[t + 1];
  }
  if (x > 0.0f) atomicAdd(&positive, 1u);
  __syncthreads();
  if (t == 0) {
    out[2 * blockIdx.x] = s[0];
    out[2 * blockIdx.x + 1] = (float)positive;
  }
}
)";

/// "races.cu:N:", N the line of kSource that carries `// AT:name`.
std::string place(const std::string& name) {
  return "races.cu:" + std::to_string(line_of_marker(kSource, "// AT:" + name)) + ":";
}

class RaceCheck : public CheckedTest {
 protected:
  void SetUp() override {
    CheckedTest::SetUp();
    if (!IsSkipped()) {
      require_check("race");
    }
  }

  Program program() { return Program::from_source("races.cu", kSource); }

  /// Checks the report of a race: `access` at `at` by `thread` of `block`, after `earlier` (the
  /// report's words on the other access), with `between` (what did not order them).
  static void expect_race(const std::string& what, const std::string& kernel,
                          const std::string& access, const std::string& at,
                          const std::string& block, const std::string& thread,
                          const std::string& earlier, const std::string& between) {
    EXPECT_NE(what.find("kernel '" + kernel + "' stopped: data race in shared memory: " + access),
              std::string::npos)
        << what;
    EXPECT_NE(what.find(" at " + place(at)), std::string::npos) << what;
    EXPECT_NE(what.find("block (" + block + "), thread (" + thread + ")"), std::string::npos)
        << what;
    EXPECT_NE(what.find(earlier), std::string::npos) << what;
    EXPECT_NE(what.find(" with " + between + " (KJIT_CHECK=race)"), std::string::npos) << what;
    EXPECT_NE(what.find("(KJIT_CHECK=race)"), std::string::npos) << what;
  }
};

TEST_F(RaceCheck, AReadOfANeighboursElementWithNoBarrier) {
  auto k = program().kernel<const float*, float*>("missing_barrier", device);
  auto in = device.upload(random_vector<float>(64, -1.0F, 1.0F));
  auto out = device.alloc<float>(64);
  const std::string what =
      launch_error_of([&] { k.launch(LaunchConfig{.grid = {1}, .block = {64}}, in, out); });
  // Thread 0 read element 1 before thread 1 wrote it: the write is where the race shows.
  expect_race(what, "missing_barrier", "write of 4 bytes at offset 4 of the block's 256 bytes",
              "missing_barrier_write", "0, 0, 0", "1, 0, 0",
              "; thread (0, 0, 0) read byte 4 at " + place("missing_barrier_read"),
              "no barrier or warp meeting between");
}

TEST_F(RaceCheck, AnInPlaceShiftWithoutItsSecondBarrier) {
  auto k = program().kernel<float*>("second_barrier_missing", device);
  auto out = device.alloc<float>(64);
  const std::string what =
      launch_error_of([&] { k.launch(LaunchConfig{.grid = {1}, .block = {64}}, out); });
  expect_race(what, "second_barrier_missing", "write of 4 bytes at offset 4", "shift_write",
              "0, 0, 0", "1, 0, 0", "; thread (0, 0, 0) read byte 4 at " + place("shift_read"),
              "no barrier or warp meeting between");
}

TEST_F(RaceCheck, EveryThreadWritingOneVariableInOneBlock) {
  auto k = program().kernel<int*>("everyone_writes", device);
  auto out = device.alloc<int>(4);
  const std::string what =
      launch_error_of([&] { k.launch(LaunchConfig{.grid = {4}, .block = {32}}, out); });
  expect_race(what, "everyone_writes", "write of 4 bytes at offset 0", "everyone_writes", "2, 0, 0",
              "1, 0, 0", "; thread (0, 0, 0) wrote byte 0 at " + place("everyone_writes"),
              "no barrier or warp meeting between");
}

TEST_F(RaceCheck, AReadWhileOtherThreadsStillAddAtomically) {
  auto k = program().kernel<unsigned*>("read_during_atomics", device);
  auto out = device.alloc<unsigned>(1);
  const std::string what =
      launch_error_of([&] { k.launch(LaunchConfig{.grid = {1}, .block = {64}}, out); });
  expect_race(what, "read_during_atomics", "read of 4 bytes at offset 0", "read_during_atomics",
              "0, 0, 0", "40, 0, 0",
              "; thread (39, 0, 0) updated atomically byte 0 at " + place("atomics"),
              "no barrier or warp meeting between");
}

TEST_F(RaceCheck, SyncwarpDoesNotOrderTwoWarps) {
  auto k = program().kernel<const float*, float*>("syncwarp_is_not_a_barrier", device);
  auto in = device.upload(random_vector<float>(64, -1.0F, 1.0F));
  auto out = device.alloc<float>(64);
  const std::string what =
      launch_error_of([&] { k.launch(LaunchConfig{.grid = {1}, .block = {64}}, in, out); });
  expect_race(what, "syncwarp_is_not_a_barrier", "read of 4 bytes at offset 252",
              "across_warps_read", "0, 0, 0", "0, 0, 0",
              "; thread (63, 0, 0) wrote byte 252 at " + place("across_warps_write"),
              "no barrier between");
}

TEST_F(RaceCheck, SyncwarpOrdersTheLanesOfAWarp) {
  auto k = program().kernel<const float*, float*>("warp_exchange", device);
  const std::vector<float> in = random_vector<float>(64, -1.0F, 1.0F);
  auto out = poisoned<float>(64);
  k.launch(LaunchConfig{.grid = {1}, .block = {64}}, device.upload(in), out);
  const std::vector<float> got = out.download();
  for (int t = 0; t < 64; ++t) {
    ASSERT_EQ(got[t], in[t ^ 1]) << t;
  }
}

TEST_F(RaceCheck, BarriersWarpStepsAndAtomicsGiveNoReport) {
  auto k = program().kernel<const float*, float*>("correct_reduce", device);
  constexpr int kBlocks = 6;
  const std::vector<float> in = random_vector<float>(kBlocks * 128, -1.0F, 1.0F);
  auto out = poisoned<float>(2 * kBlocks);
  k.launch(LaunchConfig{.grid = {kBlocks}, .block = {128}}, device.upload(in), out);
  const std::vector<float> got = out.download();
  for (int b = 0; b < kBlocks; ++b) {
    double sum = 0.0;
    int positive = 0;
    for (int t = 0; t < 128; ++t) {
      sum += in[b * 128 + t];
      positive += in[b * 128 + t] > 0.0F ? 1 : 0;
    }
    EXPECT_NEAR(got[2 * b], sum, 1e-4) << b;
    EXPECT_EQ(got[2 * b + 1], static_cast<float>(positive)) << b;
  }
}

TEST_F(RaceCheck, TheDeviceRunsKernelsAfterARace) {
  auto racy = program().kernel<int*>("everyone_writes", device);
  auto out = device.alloc<int>(4);
  (void)launch_error_of([&] { racy.launch(LaunchConfig{.grid = {4}, .block = {32}}, out); });
  auto k = program().kernel<const float*, float*>("warp_exchange", device);
  const std::vector<float> in = random_vector<float>(64, -1.0F, 1.0F);
  auto got = poisoned<float>(64);
  k.launch(LaunchConfig{.grid = {1}, .block = {64}}, device.upload(in), got);
  EXPECT_EQ(got.download()[5], in[4]);
}

}  // namespace
}  // namespace kjit::test
