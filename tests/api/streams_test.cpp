// Streams and events: ordering, waiting across streams, timing, and errors of asynchronous work.
#include "test_support.hpp"

namespace kjit::test {
namespace {

class Streams : public DeviceTest {
 public:
  void SetUp() override {
    DeviceTest::SetUp();
    if (IsSkipped())
      return;
    const Program p = Program::from_source("stream_ops.cu", R"(
      __global__ void add(int* v, int x, int n) {
        const int i = blockIdx.x * blockDim.x + threadIdx.x;
        if (i < n) v[i] += x;
      }
      __global__ void scale(int* v, int x, int n) {
        const int i = blockIdx.x * blockDim.x + threadIdx.x;
        if (i < n) v[i] *= x;
      })",
                                           {.kernels = {"add", "scale"}});
    add = p.kernel<int*, int, int>("add", device);
    scale = p.kernel<int*, int, int>("scale", device);
  }
  Kernel<int*, int, int> add;
  Kernel<int*, int, int> scale;
};

TEST_F(Streams, WorkOnOneStreamRunsInOrder) {
  const int n = 1 << 16;
  auto v = device.upload(std::vector<int>(n, 1));
  Stream s = device.create_stream();
  EXPECT_EQ(s.device(), device);
  const auto config = LaunchConfig::for_elements(n);
  for (int i = 0; i < 20; ++i) {
    add.launch(s, config, v, 1, n);  // ((1 + 1) * 2 + 1) * 2 ... order matters
    scale.launch(s, config, v, 2, n);
  }
  std::vector<int> out(n);
  v.download(out, s);
  s.synchronize();
  int expected = 1;
  for (int i = 0; i < 20; ++i)
    expected = (expected + 1) * 2;
  EXPECT_EQ(out, std::vector<int>(n, expected));
}

TEST_F(Streams, EventsOrderWorkAcrossStreams) {
  const int n = 1 << 18;
  auto v = device.upload(std::vector<int>(n, 0));
  Stream producer = device.create_stream();
  Stream consumer = device.create_stream();
  const auto config = LaunchConfig::for_elements(n);
  for (int i = 0; i < 10; ++i)
    add.launch(producer, config, v, 1, n);
  const Event done = producer.record();
  consumer.wait(done);
  scale.launch(consumer, config, v, 3, n);
  const Event end = consumer.record();
  end.synchronize();
  EXPECT_TRUE(end.ready());
  EXPECT_TRUE(done.ready());
  EXPECT_EQ(v.download(), std::vector<int>(n, 30));
  EXPECT_GE(Event::elapsed_ms(done, end), 0.0);
}

TEST_F(Streams, DefaultStreamAndDeviceSynchronize) {
  const int n = 1000;
  auto v = device.upload(std::vector<int>(n, 5));
  add.launch(LaunchConfig::for_elements(n), v, 2, n);
  device.default_stream().synchronize();
  Stream s = device.create_stream();
  scale.launch(s, LaunchConfig::for_elements(n), v, 10, n);
  device.synchronize();  // waits for every stream
  std::vector<int> out(n);
  v.download(out, device.default_stream());
  device.default_stream().synchronize();
  EXPECT_EQ(out, std::vector<int>(n, 70));
}

TEST_F(Streams, StreamsOfOneDeviceOnlyWaitForItsEvents) {
  Stream a = device.create_stream();
  Stream b = a;  // copies name the same stream
  EXPECT_EQ(a, b);
  EXPECT_NE(a, device.create_stream());
  EXPECT_THROW((void)Event::elapsed_ms(Event(), a.record()), UsageError);
}

}  // namespace
}  // namespace kjit::test
