// Launches that cannot run as asked, and typed kernels that do not match the real parameters:
// each is a clear error, and nothing runs.
#include "test_support.hpp"

namespace kjit::test {
namespace {

class LaunchErrors : public DeviceTest {
 public:
  void SetUp() override {
    DeviceTest::SetUp();
    if (IsSkipped())
      return;
    program = Program::from_source("fill.cu", R"(
      struct Pair { int a; int b; };
      __global__ void fill(int* v, int value, int n) {
        const int i = blockIdx.x * blockDim.x + threadIdx.x;
        if (i < n) v[i] = value;
      }
      __global__ void pair(Pair p, int* v) { v[0] = p.a + p.b; }
      __global__ void uses_shared(int* v) {
        __shared__ int s[1024];
        s[threadIdx.x] = 1;
        __syncthreads();
        v[threadIdx.x] = s[0];
      })");
    fill = program.kernel<int*, int, int>("fill", device);
  }

  /// Launching `config` fails with LaunchError mentioning `part`, and the buffer is untouched.
  void expect_refused(const LaunchConfig& config, const std::string& part) {
    auto v = device.upload(std::vector<int>(4, 7));
    try {
      fill.launch(config, v, 1, 4);
      ADD_FAILURE() << "launch was accepted";
    } catch (const LaunchError& e) {
      EXPECT_TRUE(contains(e.what(), part)) << e.what();
      EXPECT_TRUE(contains(e.what(), "kernel 'fill'")) << e.what();
    }
    EXPECT_EQ(v.download(), std::vector<int>(4, 7));
  }

  Program program;
  Kernel<int*, int, int> fill;
};

TEST_F(LaunchErrors, ZeroGridOrBlock) {
  expect_refused(LaunchConfig{.grid = {0, 1, 1}, .block = {32}}, "zero dimension");
  expect_refused(LaunchConfig{.grid = {1, 1, 0}, .block = {32}}, "zero dimension");
  expect_refused(LaunchConfig{.grid = {1}, .block = {0, 1, 1}}, "zero dimension");
}

TEST_F(LaunchErrors, BlockOverTheDeviceLimit) {
  const DeviceInfo& info = device.info();
  expect_refused(LaunchConfig{.grid = {1}, .block = {info.max_block.x + 1}},
                 "exceeds the device's limit");
  expect_refused(LaunchConfig{.grid = {1}, .block = {info.max_threads_per_block, 2, 1}},
                 "exceeds the device's limit");
  expect_refused(LaunchConfig{.grid = {1}, .block = {1, 1, info.max_block.z + 1}},
                 "exceeds the device's limit");
}

TEST_F(LaunchErrors, GridOverTheDeviceLimit) {
  expect_refused(LaunchConfig{.grid = {1, device.info().max_grid.y + 1, 1}, .block = {1}}, "grid");
}

TEST_F(LaunchErrors, SharedMemoryOverTheLimit) {
  expect_refused(
      LaunchConfig{.grid = {1}, .block = {1}, .shared_bytes = device.info().max_shared_bytes + 1},
      "shared memory");
  // Static and dynamic together: 4 KiB static + the rest of the limit is one byte too many.
  auto k = program.kernel<int*>("uses_shared", device);
  auto v = device.alloc<int>(1024);
  EXPECT_THROW(k.launch(LaunchConfig{.grid = {1},
                                     .block = {32},
                                     .shared_bytes = device.info().max_shared_bytes - 4096 + 1},
                        v),
               LaunchError);
  k.launch(
      LaunchConfig{
          .grid = {1}, .block = {32}, .shared_bytes = device.info().max_shared_bytes - 4096},
      v);
  EXPECT_EQ(v.download()[0], 1);
}

TEST_F(LaunchErrors, BlocksPastAKernelsLaunchBoundsAreRefusedOnEveryBackend) {
  // The CPU keeps __launch_bounds__ as a GPU does: a kernel tested there fails there as it would
  // on a GPU.
  const Program bounded = Program::from_source("bounded.cu", R"(
    __global__ void __launch_bounds__(128) capped(int* v) {
      v[blockIdx.x * blockDim.x + threadIdx.x] = threadIdx.x;
    }
    __global__ void __launch_bounds__(256, 2) capped_twice(int* v) {
      v[blockIdx.x * blockDim.x + threadIdx.x] = 2 * threadIdx.x;
    }
    template <int B> __global__ void __launch_bounds__(B) capped_by(int* v) {
      v[blockIdx.x * blockDim.x + threadIdx.x] = B + threadIdx.x;
    })");
  const struct {
    const char* name;
    unsigned bound;
    int factor;
    int offset;
  } cases[] = {{"capped", 128, 1, 0}, {"capped_twice", 256, 2, 0}, {"capped_by<64>", 64, 1, 64}};
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    const auto k = bounded.kernel<int*>(c.name, device);
    auto v = poisoned<int>(2 * c.bound);
    const std::vector<int> before = v.download();
    const std::string error = launch_error_of([&] {
      k.launch(LaunchConfig{.grid = {1}, .block = {2 * c.bound}}, v);
      device.synchronize();
    });
    EXPECT_TRUE(contains(error, "blocks of " + std::to_string(2 * c.bound) +
                                    " threads exceed the " + std::to_string(c.bound) +
                                    " this kernel was compiled for"))
        << error;
    EXPECT_EQ(v.download(), before) << "the refused launch ran";
    k.launch(LaunchConfig{.grid = {2}, .block = {c.bound}}, v);  // within its bounds: runs
    const std::vector<int> got = v.download();
    for (unsigned i = 0; i < 2 * c.bound; ++i) {
      ASSERT_EQ(got[i], c.offset + c.factor * static_cast<int>(i % c.bound)) << "element " << i;
    }
  }
}

TEST_F(LaunchErrors, ParameterCountMismatchIsRefusedWhenTheKernelIsTyped) {
  try {
    (void)program.kernel<int*, int>("fill", device);
    ADD_FAILURE() << "accepted two parameters for three";
  } catch (const LaunchError& e) {
    EXPECT_TRUE(contains(e.what(), "takes 3 parameters")) << e.what();
    EXPECT_TRUE(contains(e.what(), "declares 2")) << e.what();
  }
}

TEST_F(LaunchErrors, ParameterSizeMismatchIsRefused) {
  EXPECT_THROW((void)(program.kernel<int*, double, int>("fill", device)), LaunchError);
  EXPECT_THROW((void)(program.kernel<int*, int, char>("fill", device)), LaunchError);
  struct Wrong {
    int a;
    int b;
    int c;
  };
  struct Right {
    int a;
    int b;
  };
  EXPECT_THROW((void)(program.kernel<Wrong, int*>("pair", device)), LaunchError);
  auto pair = program.kernel<Right, int*>("pair", device);
  auto v = poisoned<int>(1);
  pair.launch(LaunchConfig{}, Right{20, 22}, v);
  EXPECT_EQ(v.download()[0], 42);
}

TEST_F(LaunchErrors, MovedFromBufferIsRefused) {
  auto v = device.alloc<int>(4);
  auto w = std::move(v);
  try {
    fill.launch(LaunchConfig{}, v, 1, 4);  // NOLINT(bugprone-use-after-move): the point of the test
    ADD_FAILURE() << "launch with a moved-from buffer was accepted";
  } catch (const LaunchError& e) {
    EXPECT_TRUE(contains(e.what(), "argument 0")) << e.what();
    EXPECT_TRUE(contains(e.what(), "moved-from")) << e.what();
  }
}

TEST_F(LaunchErrors, EmptyHandlesAreUsageErrors) {
  Kernel<int*, int, int> empty;
  auto v = device.alloc<int>(1);
  EXPECT_THROW(empty.launch(LaunchConfig{}, v, 1, 1), UsageError);
  EXPECT_THROW((void)Device().info(), UsageError);
  EXPECT_THROW((void)Program().name(), UsageError);
  EXPECT_THROW(Stream().synchronize(), UsageError);
  EXPECT_THROW(Event().synchronize(), UsageError);
}

TEST_F(LaunchErrors, NullPointersAndSubRangesArePassed) {
  auto k = Program::from_source("null.cu", R"(
    __global__ void k(const int* maybe, int* out) { out[threadIdx.x] = maybe == nullptr ? -1 : maybe[threadIdx.x]; })")
               .kernel<const int*, int*>("k", device);
  auto out = poisoned<int>(8);
  k.launch(LaunchConfig{.grid = {1}, .block = {4}}, nullptr, out);
  auto src = device.upload(std::vector<int>{1, 2, 3, 4, 5, 6, 7, 8});
  k.launch(LaunchConfig{.grid = {1}, .block = {4}}, src.ptr() + 4, out.ptr() + 4);
  EXPECT_EQ(out.download(), (std::vector<int>{-1, -1, -1, -1, 5, 6, 7, 8}));
}

}  // namespace
}  // namespace kjit::test
