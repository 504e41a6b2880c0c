// Device::alloc_managed: one buffer that the host reads and writes in place and kernels use as
// device memory, with prefetches and advice on streams, giving the results that device buffers
// give on random inputs.
#include "test_support.hpp"

namespace kjit::test {
namespace {

const char* const kSource = R"(
__global__ void affine(int* x, int n, int a) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = x[i] * a + i;
}
__global__ void gather(const int* x, const int* index, int* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = x[index[i]];
}
)";

class Managed : public DeviceTest {
 public:
  void SetUp() override {
    DeviceTest::SetUp();
    if (IsSkipped()) {
      return;
    }
    program = Program::from_source("managed.cu", kSource);
  }
  Program program;
};

TEST_F(Managed, TheHostAndAKernelShareOneBuffer) {
  const int n = 5000 + static_cast<int>(rng() % 5000);
  const int a = random_vector<int>(1, -9, 9)[0];
  const std::vector<int> start = random_vector<int>(n, -1000, 1000);
  ManagedBuffer<int> x = device.alloc_managed<int>(n);
  ASSERT_EQ(x.host().size(), std::size_t(n));
  std::copy(start.begin(), start.end(), x.host().begin());  // written in place by the host
  program.kernel<int*, int, int>("affine", device).launch(LaunchConfig::for_elements(n), x, n, a);
  device.synchronize();
  for (int i = 0; i < n; ++i) {
    ASSERT_EQ(x.host()[i], start[i] * a + i) << "element " << i;  // read in place
  }
  // And it is a DeviceBuffer: downloads and copies see the same elements.
  EXPECT_EQ(x.download(), std::vector<int>(x.host().begin(), x.host().end()));
  auto copy = device.alloc<int>(n);
  copy.copy_from(x);
  EXPECT_EQ(copy.download(), x.download());
}

TEST_F(Managed, PrefetchesAndAdviceOnAStreamKeepTheResults) {
  const int n = 4096;
  const std::vector<int> values = random_vector<int>(n, -100000, 100000);
  std::vector<int> index(n);
  for (int& i : index) {
    i = static_cast<int>(rng() % n);
  }
  ManagedBuffer<int> x = device.alloc_managed<int>(n);
  ManagedBuffer<int> where = device.alloc_managed<int>(n);
  ManagedBuffer<int> out = device.alloc_managed<int>(n);
  std::copy(values.begin(), values.end(), x.host().begin());
  std::copy(index.begin(), index.end(), where.host().begin());
  std::fill(out.host().begin(), out.host().end(), -1);
  x.advise(ManagedAdvice::read_mostly);
  where.advise(ManagedAdvice::accessed_by_device);
  out.advise(ManagedAdvice::prefer_device);
  const Stream stream = device.create_stream();
  x.prefetch(ManagedPlace::device, stream);
  where.prefetch(ManagedPlace::device, stream);
  out.prefetch(ManagedPlace::device, stream);
  program.kernel<const int*, const int*, int*, int>("gather", device)
      .launch(stream, LaunchConfig::for_elements(n, 128), x, where, out, n);
  out.prefetch(ManagedPlace::host, stream);
  stream.synchronize();
  for (int i = 0; i < n; ++i) {
    ASSERT_EQ(out.host()[i], values[index[i]]) << "element " << i;
  }
  out.advise(ManagedAdvice::no_preference);
  x.advise(ManagedAdvice::not_read_mostly);
  out.advise(ManagedAdvice::prefer_host);
  x.prefetch(ManagedPlace::host);
  device.synchronize();
  EXPECT_EQ(std::vector<int>(x.host().begin(), x.host().end()), values);
}

TEST_F(Managed, ManagedVariablesWhereTheBackendHasThem) {
  CompileOptions options;
  options.kernels = {"add"};
  const Program p = Program::from_source(
      "managed_variable.cu",
      "__managed__ int counter;\n__global__ void add(int v) {\n  atomicAdd(&counter, v);\n}\n",
      options);
  if (device.info().backend != BackendKind::cuda) {
    // The CPU and HIP backends have no __managed__ variables: an error that names them.
    const CompileError e = expect_throw<CompileError>([&] { (void)p.kernel<int>("add", device); });
    EXPECT_EQ(e.line(), 3U) << e.what();
    EXPECT_TRUE(contains(e.what(), "__managed__ memory is not supported by kjit's")) << e.what();
    return;
  }
  const int start = random_vector<int>(1, -1000, 1000)[0];
  const int v = random_vector<int>(1, 1, 9)[0];
  const auto add = p.kernel<int>("add", device);
  const auto counter = p.symbol<int>("counter", device);
  counter.write(start);
  add.launch(LaunchConfig{.grid = {4}, .block = {64}}, v);
  EXPECT_EQ(counter.read(), start + 4 * 64 * v);
}

TEST_F(Managed, EmptyAndMovedFromBuffers) {
  ManagedBuffer<int> none = device.alloc_managed<int>(0);
  EXPECT_TRUE(none.host().empty());
  none.prefetch(ManagedPlace::device);  // nothing to move
  none.advise(ManagedAdvice::read_mostly);
  ManagedBuffer<int> some = device.alloc_managed<int>(16);
  ManagedBuffer<int> taken = std::move(some);
  EXPECT_EQ(taken.size(), 16U);
  EXPECT_TRUE(contains(
      expect_throw<UsageError>([&] { some.prefetch(ManagedPlace::device); }).what(),  // NOLINT
      "prefetch() on an empty DeviceBuffer"));
  EXPECT_TRUE(contains(
      expect_throw<UsageError>([&] { some.advise(ManagedAdvice::read_mostly); }).what(),  // NOLINT
      "advise() on an empty DeviceBuffer"));
}

}  // namespace
}  // namespace kjit::test
