// Device memory: typed buffers, copies, borrowed pointers, and the errors of misuse.
#include "test_support.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <limits>

namespace kjit::test {
namespace {

class Memory : public DeviceTest {};

TEST_F(Memory, UploadDownloadRoundTrip) {
  KJIT_SEED_TRACE();
  const auto host = random_vector<std::int64_t>(100003, -(1LL << 50), 1LL << 50);
  auto buffer = device.upload(host);
  EXPECT_EQ(buffer.size(), host.size());
  EXPECT_EQ(buffer.bytes(), host.size() * sizeof(std::int64_t));
  EXPECT_EQ(buffer.device(), device);
  EXPECT_EQ(buffer.download(), host);
  std::vector<std::int64_t> out(host.size() + 5, -1);
  buffer.download(out);
  EXPECT_TRUE(std::equal(host.begin(), host.end(), out.begin()));
  EXPECT_EQ(out.back(), -1) << "download writes size() elements, no more";
}

TEST_F(Memory, BoolBuffersGoBothWaysAsKernelsSeeThem) {
  // Rodinia's bfs keeps its masks in bool* buffers; a vector<bool> packs bits, kernels read bytes.
  const std::vector<int> bits = random_vector<int>(1001, 0, 1);
  const std::vector<bool> in(bits.begin(), bits.end());
  auto d_in = device.upload(in);
  auto d_out = device.alloc<bool>(in.size());
  d_out.upload(std::vector<bool>(in.size(), false));
  Program::from_source("bools.cu",
                       "__global__ void negate(const bool* in, bool* out, int n) {\n"
                       "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                       "  if (i < n) out[i] = !in[i];\n}\n")
      .kernel<const bool*, bool*, int>("negate", device)
      .launch(LaunchConfig::for_elements(in.size()), d_in, d_out, static_cast<int>(in.size()));
  std::vector<bool> want(in.size());
  for (std::size_t i = 0; i < in.size(); ++i) {
    want[i] = !in[i];
  }
  EXPECT_EQ(d_out.download(), want);
  EXPECT_EQ(d_in.download(), in);
}

TEST_F(Memory, LargeTransfersRoundTrip) {
  // Large enough to be staged in several chunks on a GPU, with a remainder.
  KJIT_SEED_TRACE();
  const auto host =
      random_vector<float>((std::size_t{40} << 20) / sizeof(float) + 12345, -1.0f, 1.0f);
  auto buffer = device.alloc<float>(host.size());
  buffer.upload(host);
  std::vector<float> back(host.size(), 0.0f);
  buffer.download(back);
  EXPECT_TRUE(back == host);
  const auto again = device.upload(host).download();
  EXPECT_TRUE(again == host);
}

TEST_F(Memory, DeviceToDeviceCopies) {
  KJIT_SEED_TRACE();
  const auto host = random_vector<int>(1 << 20, -1000, 1000);
  auto a = device.upload(host);
  auto b = poisoned<int>(host.size());
  b.copy_from(a);
  EXPECT_TRUE(b.download() == host);
  auto c = poisoned<int>(host.size() + 10);
  Stream s = device.create_stream();
  c.copy_from(a, s);
  s.synchronize();
  const auto out = c.download();
  EXPECT_TRUE(std::equal(host.begin(), host.end(), out.begin()));
  auto small = device.alloc<int>(10);
  EXPECT_THROW(small.copy_from(a), UsageError);  // does not fit
  auto moved = std::move(a);
  EXPECT_THROW(b.copy_from(a), UsageError);  // NOLINT(bugprone-use-after-move)
}

TEST_F(Memory, HostBuffersCopyBothWays) {
  KJIT_SEED_TRACE();
  const std::size_t n = (std::size_t{24} << 20) / sizeof(int) + 77;  // beyond staging's minimum
  const auto values = random_vector<int>(n, -1000000, 1000000);
  HostBuffer<int> host = device.alloc_host<int>(n);
  ASSERT_EQ(host.size(), n);
  std::copy(values.begin(), values.end(), host.begin());
  auto d = device.upload(host);  // a contiguous range, like a vector
  HostBuffer<int> back = device.alloc_host<int>(n);
  std::fill(back.begin(), back.end(), 0);
  d.download(back);
  EXPECT_TRUE(std::equal(back.begin(), back.end(), values.begin()));
  // Ordered on a stream: the host buffer's memory may be read and written asynchronously.
  Stream s = device.create_stream();
  auto e = device.alloc<int>(n);
  e.upload(host, s);
  std::fill(back.begin(), back.end(), 0);
  e.download(back, s);
  s.synchronize();
  EXPECT_TRUE(std::equal(back.begin(), back.end(), values.begin()));
  HostBuffer<int> moved = std::move(host);
  EXPECT_TRUE(host.empty());  // NOLINT(bugprone-use-after-move)
  EXPECT_EQ(moved.size(), n);
  EXPECT_THROW((void)device.alloc_host<double>(std::numeric_limits<std::size_t>::max() / 4),
               UsageError);
}

TEST_F(Memory, PartialUploadAndUploadFromAnyContiguousRange) {
  auto buffer = device.upload(std::array<int, 6>{1, 2, 3, 4, 5, 6});
  const std::vector<int> head{10, 20};
  buffer.upload(head);
  EXPECT_EQ(buffer.download(), (std::vector<int>{10, 20, 3, 4, 5, 6}));
  auto empty = device.alloc<int>(0);
  EXPECT_TRUE(empty.empty());
  EXPECT_TRUE(empty.download().empty());
}

TEST_F(Memory, MisuseIsAUsageError) {
  auto buffer = device.alloc<float>(10);
  std::vector<float> small(9);
  EXPECT_THROW(buffer.download(small), UsageError);
  std::vector<float> big(11);
  EXPECT_THROW(buffer.upload(big), UsageError);
  EXPECT_THROW((void)device.alloc<double>(std::numeric_limits<std::size_t>::max() / 4), UsageError);
  auto moved = std::move(buffer);
  EXPECT_THROW((void)buffer.download(), UsageError);  // NOLINT(bugprone-use-after-move)
  EXPECT_THROW((void)buffer.ptr(), UsageError);       // NOLINT(bugprone-use-after-move)
  EXPECT_EQ(moved.size(), 10U);
  EXPECT_THROW((void)(moved.ptr() + 11), UsageError);
}

TEST_F(Memory, HugeAllocationFailsCleanly) {
  // More than any machine has: a BackendError, not a crash, and the device still works.
  EXPECT_THROW((void)device.alloc<char>(std::size_t{1} << 62), BackendError);
  EXPECT_EQ(device.upload(std::vector<int>{5}).download()[0], 5);
}

TEST_F(Memory, BorrowedPointersAdoptForeignAddresses) {
  auto buffer = device.upload(std::vector<int>{1, 2, 3, 4});
  const DevicePtr<int> p = DevicePtr<int>::from_address(device, buffer.ptr().address(), 4);
  auto k =
      Program::from_source("twice.cu", "__global__ void twice(int* v) { v[threadIdx.x] *= 2; }")
          .kernel<int*>("twice", device);
  k.launch(LaunchConfig{.grid = {1}, .block = {2}}, p + 2);
  EXPECT_EQ(buffer.download(), (std::vector<int>{1, 2, 6, 8}));
  const DevicePtr<const int> read_only = p;
  EXPECT_EQ(read_only.address(), p.address());
  EXPECT_EQ(read_only.size(), 4U);
}

TEST_F(Memory, HostSpansAreCopiedInAndOut) {
  auto k = Program::from_source("spans.cu", R"(
    __global__ void axpy(const float* x, float* y, float a, int n) {
      const int i = blockIdx.x * blockDim.x + threadIdx.x;
      if (i < n) y[i] += a * x[i];
    })")
               .kernel<const float*, float*, float, int>("axpy", device);
  const std::vector<float> x{1, 2, 3, 4, 5};
  std::vector<float> y{10, 10, 10, 10, 10};
  k.launch(LaunchConfig::for_elements(5), std::span<const float>(x), std::span<float>(y), 2.0f, 5);
  EXPECT_EQ(y, (std::vector<float>{12, 14, 16, 18, 20}));
}

}  // namespace
}  // namespace kjit::test
