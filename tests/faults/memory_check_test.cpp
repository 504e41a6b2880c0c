// Checked mode (KJIT_CHECK=memory, which CTest sets for this program with 'race'): a catalogue of
// memory bugs in CPU kernels, each reported as a LaunchError naming the kernel, the block and
// thread that made the bad access, what it was (out of bounds, after free, in shared memory), the
// buffer it was nearest to, and the line. Each bug is made by one thread alone, so the report is
// exact. That correct kernels give no report is checked by running the corpus and the kernel suites
// in checked mode (tests/CMakeLists.txt).
#include "checked_test_support.hpp"

#include <algorithm>
#include <string>
#include <vector>

namespace kjit::test {
namespace {

constexpr const char* kSource = R"(
__global__ void end_write(float* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i <= n) out[i] = 1.0f;  // BUG:end_write
}

__global__ void end_read(const float* in, float* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i <= n) {
    const float v = in[i];  // BUG:end_read
    if (i < n) out[i] = v;
  }
}

__global__ void before_start(float* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i - 1] = 2.0f;  // BUG:before_start
}

__global__ void negative_index(const float* in, float* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i - 3];  // BUG:negative_index
}

__global__ void stride(float* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i <= n / 2) out[2 * i] = 3.0f;  // BUG:stride
}

__global__ void far_past_end(const float* in, float* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i == 9) out[0] = in[n + 10];  // BUG:far_past_end
}

__global__ void bytes(const unsigned char* in, unsigned char* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i <= n) out[i % n] = in[i];  // BUG:bytes
}

__global__ void doubles(double* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i <= n) out[i] = 0.5;  // BUG:doubles
}

__device__ float fetch(const float* p, int at) {
  return p[at];  // BUG:fetch
}

__global__ void in_a_device_function(const float* in, float* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = fetch(in, i == 21 ? n : i);
}

__global__ void use_after_free(const float* in, float* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i == 5) out[0] = in[i];  // BUG:use_after_free
}

__global__ void write_after_free(float* stale, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i == 6) stale[i] = 1.0f;  // BUG:write_after_free
}

struct Span {
  float* data;
  int size;
};

__global__ void freed_in_a_struct(Span s, float* out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i == 7) out[0] = s.data[i];  // BUG:freed_in_a_struct
}

__global__ void shared_past_end(float* out) {
  __shared__ float tile[64];
  tile[threadIdx.x + 1] = 1.0f;  // BUG:shared_past_end
  __syncthreads();
  out[threadIdx.x] = tile[threadIdx.x];
}

__global__ void shared_before_start(float* out) {
  __shared__ float tile[64];
  tile[threadIdx.x] = 1.0f;
  __syncthreads();
  const int t = threadIdx.x;
  out[t] = tile[t - 1];  // BUG:shared_before_start
}

__global__ void shared_neighbour(float* out) {
  __shared__ float halo[32];
  __shared__ float tile[32];
  const int t = threadIdx.x;
  tile[t] = 1.0f;
  halo[t + 1] = 2.0f;  // BUG:shared_neighbour
  __syncthreads();
  out[t] = tile[t] + halo[t];
}

__global__ void dynamic_shared(float* out) {
  extern __shared__ float area[];
  area[threadIdx.x] = 1.0f;  // BUG:dynamic_shared
  __syncthreads();
  out[threadIdx.x] = 2.0f;
}

__global__ void atomic_past_end(unsigned* bins, int nbins, const int* keys, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(&bins[keys[i]], 1u);  // BUG:atomic_past_end
}

__global__ void ldg_past_end(const float* in, float* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = __ldg(&in[i + 1]);  // BUG:ldg_past_end
}

__global__ void memset_past_end(float* out, int n) {
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    memset(out, 0, (n + 1) * sizeof(float));  // BUG:memset_past_end
  }
}

__global__ void correct(const float* in, float* out, int n) {
  __shared__ float tile[64];
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  tile[threadIdx.x] = i < n ? in[i] : 0.0f;
  __syncthreads();
  if (i < n) out[i] = tile[threadIdx.x] + tile[63 - threadIdx.x];
}
)";

/// The line of kSource that carries `// BUG:name`.
int line_of(const std::string& name) {
  return line_of_marker(kSource, "// BUG:" + name);
}

class CheckedMode : public CheckedTest {
 protected:
  void SetUp() override {
    CheckedTest::SetUp();
    if (!IsSkipped()) {
      require_check("memory");
    }
  }

  Program program() { return Program::from_source("bugs.cu", kSource); }

  /// Checks the report of a bug of kernel `name` (and `// BUG:name` line) by one thread.
  static void expect_report(const std::string& what, const std::string& kernel,
                            const std::string& bug, const std::string& kind,
                            const std::string& block, const std::string& thread) {
    EXPECT_NE(what.find("kernel '" + kernel + "' stopped"), std::string::npos) << what;
    EXPECT_NE(what.find(kind), std::string::npos) << what;
    EXPECT_NE(what.find("bugs.cu:" + std::to_string(line_of(bug)) + ":"), std::string::npos)
        << what;
    EXPECT_NE(what.find("block (" + block + ")"), std::string::npos) << what;
    EXPECT_NE(what.find("thread (" + thread + ")"), std::string::npos) << what;
    EXPECT_NE(what.find("KJIT_CHECK=memory"), std::string::npos) << what;
  }
};

TEST_F(CheckedMode, AWritePastTheEnd) {
  auto k = program().kernel<float*, int>("end_write", device);
  auto out = device.alloc<float>(100);
  const std::string what =
      launch_error_of([&] { k.launch(LaunchConfig{.grid = {2}, .block = {64}}, out, 100); });
  expect_report(what, "end_write", "end_write", "out-of-bounds write of 4 bytes", "1, 0, 0",
                "36, 0, 0");
  EXPECT_NE(what.find("0 bytes past the end of a 400-byte buffer"), std::string::npos) << what;
  EXPECT_NE(what.find("(offset 400)"), std::string::npos) << what;
  // Nothing was corrupted: the device goes on running kernels.
  auto fixed = program().kernel<float*, int>("end_write", device);
  fixed.launch(LaunchConfig{.grid = {1}, .block = {64}}, out, 60);
  device.synchronize();
  const std::vector<float> got = out.download();
  EXPECT_EQ(got[59], 1.0F);
}

TEST_F(CheckedMode, AReadPastTheEnd) {
  auto k = program().kernel<const float*, float*, int>("end_read", device);
  auto in = device.upload(random_vector<float>(64, -1.0F, 1.0F));
  auto out = device.alloc<float>(64);
  const std::string what =
      launch_error_of([&] { k.launch(LaunchConfig{.grid = {3}, .block = {32}}, in, out, 64); });
  expect_report(what, "end_read", "end_read", "out-of-bounds read of 4 bytes", "2, 0, 0",
                "0, 0, 0");
}

TEST_F(CheckedMode, AWriteBeforeTheStart) {
  auto k = program().kernel<float*, int>("before_start", device);
  auto out = device.alloc<float>(64);
  const std::string what =
      launch_error_of([&] { k.launch(LaunchConfig{.grid = {1}, .block = {64}}, out, 64); });
  expect_report(what, "before_start", "before_start", "out-of-bounds write", "0, 0, 0", "0, 0, 0");
  EXPECT_NE(what.find("4 bytes before a 256-byte buffer"), std::string::npos) << what;
}

TEST_F(CheckedMode, ANegativeIndexOfThreeReadsBeforeTheStart) {
  auto k = program().kernel<const float*, float*, int>("negative_index", device);
  auto in = device.alloc<float>(64);
  auto out = device.alloc<float>(64);
  // Threads 0 to 2 of the one block read before `in`: thread 0 is the first to run.
  const std::string what =
      launch_error_of([&] { k.launch(LaunchConfig{.grid = {1}, .block = {1}}, in, out, 1); });
  expect_report(what, "negative_index", "negative_index", "out-of-bounds read", "0, 0, 0",
                "0, 0, 0");
  EXPECT_NE(what.find("12 bytes before"), std::string::npos) << what;
}

TEST_F(CheckedMode, AStrideError) {
  auto k = program().kernel<float*, int>("stride", device);
  auto out = device.alloc<float>(64);
  const std::string what =
      launch_error_of([&] { k.launch(LaunchConfig{.grid = {1}, .block = {64}}, out, 64); });
  expect_report(what, "stride", "stride", "out-of-bounds write", "0, 0, 0", "32, 0, 0");
}

TEST_F(CheckedMode, AReadFarPastTheEndInTheRedZone) {
  auto k = program().kernel<const float*, float*, int>("far_past_end", device);
  auto in = device.alloc<float>(16);
  auto out = device.alloc<float>(1);
  const std::string what =
      launch_error_of([&] { k.launch(LaunchConfig{.grid = {1}, .block = {32}}, in, out, 16); });
  expect_report(what, "far_past_end", "far_past_end", "out-of-bounds read", "0, 0, 0", "9, 0, 0");
  EXPECT_NE(what.find("40 bytes past the end of a 64-byte buffer"), std::string::npos) << what;
}

TEST_F(CheckedMode, AByteReadPastTheEnd) {
  auto k = program().kernel<const unsigned char*, unsigned char*, int>("bytes", device);
  auto in = device.alloc<unsigned char>(40);
  auto out = device.alloc<unsigned char>(40);
  const std::string what =
      launch_error_of([&] { k.launch(LaunchConfig{.grid = {1}, .block = {41}}, in, out, 40); });
  expect_report(what, "bytes", "bytes", "out-of-bounds read of 1 bytes", "0, 0, 0", "40, 0, 0");
}

TEST_F(CheckedMode, ADoubleWrittenPastTheEnd) {
  auto k = program().kernel<double*, int>("doubles", device);
  auto out = device.alloc<double>(10);
  const std::string what =
      launch_error_of([&] { k.launch(LaunchConfig{.grid = {1}, .block = {16}}, out, 10); });
  expect_report(what, "doubles", "doubles", "out-of-bounds write of 8 bytes", "0, 0, 0",
                "10, 0, 0");
}

TEST_F(CheckedMode, AnAccessInADeviceFunctionNamesItsLineAndTheCallingThread) {
  auto k = program().kernel<const float*, float*, int>("in_a_device_function", device);
  auto in = device.alloc<float>(64);
  auto out = device.alloc<float>(64);
  const std::string what =
      launch_error_of([&] { k.launch(LaunchConfig{.grid = {2}, .block = {32}}, in, out, 64); });
  expect_report(what, "in_a_device_function", "fetch", "out-of-bounds read", "0, 0, 0", "21, 0, 0");
}

TEST_F(CheckedMode, AReadOfAFreedBuffer) {
  auto k = program().kernel<const float*, float*, int>("use_after_free", device);
  auto out = device.alloc<float>(1);
  DevicePtr<const float> stale;
  {
    const auto in = device.alloc<float>(32);
    stale = in.ptr();
  }
  const std::string what =
      launch_error_of([&] { k.launch(LaunchConfig{.grid = {1}, .block = {32}}, stale, out, 32); });
  expect_report(what, "use_after_free", "use_after_free", "read of 4 bytes", "0, 0, 0", "5, 0, 0");
  EXPECT_NE(what.find("after free: inside a 128-byte buffer"), std::string::npos) << what;
  EXPECT_NE(what.find("(offset 20)"), std::string::npos) << what;
}

TEST_F(CheckedMode, AWriteToAFreedBuffer) {
  auto k = program().kernel<float*, int>("write_after_free", device);
  DevicePtr<float> stale;
  {
    auto buffer = device.alloc<float>(32);
    stale = buffer.ptr();
  }
  const std::string what =
      launch_error_of([&] { k.launch(LaunchConfig{.grid = {1}, .block = {32}}, stale, 32); });
  expect_report(what, "write_after_free", "write_after_free", "write of 4 bytes", "0, 0, 0",
                "6, 0, 0");
  EXPECT_NE(what.find("after free"), std::string::npos) << what;
}

struct Span {
  float* data;
  int size;
};

TEST_F(CheckedMode, AFreedBuffersPointerPassedInAStruct) {
  auto k = program().kernel<Span, float*>("freed_in_a_struct", device);
  auto out = device.alloc<float>(1);
  Span span{nullptr, 16};
  {
    auto data = device.alloc<float>(16);
    span.data = static_cast<float*>(data.native_handle());
  }
  const std::string what =
      launch_error_of([&] { k.launch(LaunchConfig{.grid = {1}, .block = {16}}, span, out); });
  expect_report(what, "freed_in_a_struct", "freed_in_a_struct", "after free", "0, 0, 0", "7, 0, 0");
}

TEST_F(CheckedMode, SharedMemoryWrittenPastItsEnd) {
  auto k = program().kernel<float*>("shared_past_end", device);
  auto out = device.alloc<float>(64);
  const std::string what =
      launch_error_of([&] { k.launch(LaunchConfig{.grid = {1}, .block = {64}}, out); });
  expect_report(what, "shared_past_end", "shared_past_end",
                "out-of-bounds write of 4 bytes in shared memory at offset 256 of the block's 256",
                "0, 0, 0", "63, 0, 0");
  EXPECT_NE(what.find("0 bytes past the end of __shared__ 'tile' (256 bytes at offset 0)"),
            std::string::npos)
      << what;
}

TEST_F(CheckedMode, SharedMemoryReadBeforeItsStart) {
  auto k = program().kernel<float*>("shared_before_start", device);
  auto out = device.alloc<float>(64);
  const std::string what =
      launch_error_of([&] { k.launch(LaunchConfig{.grid = {1}, .block = {64}}, out); });
  expect_report(what, "shared_before_start", "shared_before_start",
                "out-of-bounds read of 4 bytes in shared memory at offset -4", "0, 0, 0",
                "0, 0, 0");
  EXPECT_NE(what.find("4 bytes before __shared__ 'tile'"), std::string::npos) << what;
}

TEST_F(CheckedMode, SharedMemoryWrittenPastOneVariableIntoAnother) {
  auto k = program().kernel<float*>("shared_neighbour", device);
  auto out = device.alloc<float>(32);
  const std::string what =
      launch_error_of([&] { k.launch(LaunchConfig{.grid = {1}, .block = {32}}, out); });
  // Whichever of the two the layout put first, the write past 'halo' is named as such.
  expect_report(what, "shared_neighbour", "shared_neighbour",
                "out-of-bounds write of 4 bytes in shared memory at offset", "0, 0, 0", "31, 0, 0");
  EXPECT_NE(what.find("of the block's 256 bytes: 0 bytes past the end of __shared__ 'halo' (128 "
                      "bytes at offset"),
            std::string::npos)
      << what;
}

TEST_F(CheckedMode, DynamicSharedMemoryPastTheSizeTheLaunchGave) {
  auto k = program().kernel<float*>("dynamic_shared", device);
  auto out = device.alloc<float>(64);
  const std::string what = launch_error_of([&] {
    k.launch(LaunchConfig{.grid = {1}, .block = {64}, .shared_bytes = 32 * sizeof(float)}, out);
  });
  expect_report(what, "dynamic_shared", "dynamic_shared",
                "in shared memory at offset 128 of the block's 128 bytes", "0, 0, 0", "32, 0, 0");
}

TEST_F(CheckedMode, AnAtomicPastTheEnd) {
  auto k = program().kernel<unsigned*, int, const int*, int>("atomic_past_end", device);
  auto bins = device.alloc<unsigned>(8);
  std::vector<int> keys(32, 3);
  keys[17] = 8;  // one past the last bin
  auto dkeys = device.upload(keys);
  const std::string what = launch_error_of(
      [&] { k.launch(LaunchConfig{.grid = {1}, .block = {32}}, bins, 8, dkeys, 32); });
  expect_report(what, "atomic_past_end", "atomic_past_end", "out-of-bounds atomic access of 4",
                "0, 0, 0", "17, 0, 0");
}

TEST_F(CheckedMode, ALoadThroughTheReadOnlyCachePastTheEnd) {
  auto k = program().kernel<const float*, float*, int>("ldg_past_end", device);
  auto in = device.alloc<float>(32);
  auto out = device.alloc<float>(32);
  const std::string what =
      launch_error_of([&] { k.launch(LaunchConfig{.grid = {1}, .block = {32}}, in, out, 32); });
  expect_report(what, "ldg_past_end", "ldg_past_end", "out-of-bounds read of 4 bytes", "0, 0, 0",
                "31, 0, 0");
  EXPECT_NE(what.find("0 bytes past the end of a 128-byte buffer"), std::string::npos) << what;
}

TEST_F(CheckedMode, AMemsetPastTheEnd) {
  auto k = program().kernel<float*, int>("memset_past_end", device);
  auto out = device.alloc<float>(16);
  const std::string what =
      launch_error_of([&] { k.launch(LaunchConfig{.grid = {1}, .block = {4}}, out, 16); });
  expect_report(what, "memset_past_end", "memset_past_end", "out-of-bounds write of 68 bytes",
                "0, 0, 0", "0, 0, 0");
  EXPECT_NE(what.find("runs 4 bytes past the end of a 64-byte buffer"), std::string::npos) << what;
}

TEST_F(CheckedMode, ACorrectKernelRunsAndMatchesTheHost) {
  auto k = program().kernel<const float*, float*, int>("correct", device);
  const std::vector<float> in = random_vector<float>(1000, -1.0F, 1.0F);
  auto out = poisoned<float>(1000);
  k.launch(LaunchConfig{.grid = {16}, .block = {64}}, device.upload(in), out, 1000);
  const std::vector<float> got = out.download();
  for (int i = 0; i < 1000; ++i) {
    const int block = i / 64;
    const int mirror = block * 64 + 63 - i % 64;
    const float expected = in[i] + (mirror < 1000 ? in[mirror] : 0.0F);
    ASSERT_EQ(got[i], expected) << i;
  }
}

// Functions used through a pointer cannot be given the thread's context: checked mode still
// checks their accesses (naming no thread), and refuses only those that read threadIdx & co.
constexpr const char* kThroughPointers = R"(
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;
struct S { float x, y; };
__device__ S pick(S a, S b) { S r = a.x > b.x ? a : b; return r; }
__global__ void k(float* out) {
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(cg::this_thread_block());
  S s = cg::reduce(warp, S{out[threadIdx.x], 1.0f}, pick);
  out[threadIdx.x] = s.x;
}

__device__ float twice(const float* p, int i) {
  return 2.0f * p[i];  // BUG:twice
}
__device__ float apply(float (*f)(const float*, int), const float* p, int i) { return f(p, i); }
__global__ void scale(const float* in, float* out, int n, int shift) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = apply(twice, in, i + shift);
}
)";

TEST_F(CheckedMode, FunctionsUsedThroughAPointerAreCheckedNotRefused) {
  // llm.c's softmax_forward_online_kernel2: a reducing function that copies a struct through ?:
  // was refused as reading the thread's context, which only its checks asked for.
  const Program p = Program::from_source("pointers.cu", kThroughPointers);
  auto k = p.kernel<float*>("k", device);
  constexpr unsigned kThreads = 96;
  const std::vector<float> in = random_vector<float>(kThreads, -100.0F, 100.0F);
  auto out = device.upload(in);
  k.launch(LaunchConfig{.grid = {1}, .block = {kThreads}}, out);
  std::vector<float> want(kThreads);
  for (unsigned t = 0; t < kThreads; ++t) {
    want[t] = *std::max_element(in.begin() + t / 32 * 32, in.begin() + t / 32 * 32 + 32);
  }
  EXPECT_EQ(out.download(), want);

  // An access through a pointer in such a function is still checked, and named by its line.
  auto scale = p.kernel<const float*, float*, int, int>("scale", device);
  const std::vector<float> x = random_vector<float>(100, -1.0F, 1.0F);
  auto dx = device.upload(x);
  auto y = poisoned<float>(100);
  scale.launch(LaunchConfig{.grid = {2}, .block = {64}}, dx, y, 100, 0);
  std::vector<float> twice(100);
  std::transform(x.begin(), x.end(), twice.begin(), [](float v) { return 2.0F * v; });
  EXPECT_EQ(y.download(), twice);
  const std::string what = launch_error_of(
      [&] { scale.launch(LaunchConfig{.grid = {2}, .block = {64}}, dx, y, 100, 1); });
  EXPECT_NE(what.find("kernel 'scale' stopped: out-of-bounds read of 4 bytes"), std::string::npos)
      << what;
  EXPECT_NE(what.find("0 bytes past the end of a 400-byte buffer"), std::string::npos) << what;
  EXPECT_NE(what.find("pointers.cu:" +
                      std::to_string(line_of_marker(kThroughPointers, "// BUG:twice")) + ":"),
            std::string::npos)
      << what;
}

TEST_F(CheckedMode, AFunctionThatReadsThreadIdxUsedThroughAPointerIsRefusedAtItsUse) {
  const std::string source =
      "__device__ float lane(float v) { return v + threadIdx.x; }\n"
      "__device__ float apply(float (*f)(float), float v) { return f(v); }\n"
      "__global__ void k(float* out) {\n"
      "  out[threadIdx.x] = apply(lane, out[threadIdx.x]);\n"
      "}\n";
  const CompileError e = compile_error<float*>(device, "lane.cu", source);
  EXPECT_EQ(e.file(), "lane.cu") << e.what();
  EXPECT_EQ(e.line(), 4U) << e.what();
  EXPECT_TRUE(contains(e.what(),
                       "'lane(float)' reads threadIdx, blockIdx, blockDim, gridDim or "
                       "__shared__ memory and is used through a pointer"))
      << e.what();
}

}  // namespace
}  // namespace kjit::test
