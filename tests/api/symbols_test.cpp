// Program::symbol: a program's __constant__ and __device__ variables read and written from the
// host by name, synchronously and on a stream, in every build of the program, with clear errors
// for unknown names, wrong sizes and ambiguous reads.
#include "test_support.hpp"

#include <numeric>

namespace kjit::test {
namespace {

constexpr int kTaps = 17;

struct Scale {
  float mul;
  int add;
};

class Symbols : public DeviceTest {
 public:
  static Program program(std::vector<std::string> kernels = {"convolve", "read_count", "store"}) {
    CompileOptions options;
    options.kernels = std::move(kernels);
    return Program::from_file(test_kernel_path("symbols.cu"), std::move(options));
  }

  /// What convolve computes, on the host.
  static std::vector<float> convolved(const std::vector<float>& in, const std::vector<float>& taps,
                                      float bias, Scale scale, int offset) {
    const int n = static_cast<int>(in.size());
    std::vector<float> out(in.size());
    for (int i = 0; i < n; ++i) {
      float sum = 0.0f;
      for (int t = 0; t < kTaps; ++t) {
        const int j = i + t - kTaps / 2;
        if (j >= 0 && j < n) {
          sum += taps[t] * in[j];
        }
      }
      out[i] = (sum + bias) * scale.mul + static_cast<float>(scale.add + offset);
    }
    return out;
  }
};

TEST_F(Symbols, ConstantsWrittenByNameReachTheKernel) {
  const Program p = program();
  const std::vector<float> taps = random_vector<float>(kTaps, -1.0f, 1.0f);
  const std::vector<float> in = random_vector<float>(1000, -10.0f, 10.0f);
  const Scale scale{random_vector<float>(1, 0.5f, 2.0f)[0], random_vector<int>(1, -50, 50)[0]};
  const float bias = random_vector<float>(1, -3.0f, 3.0f)[0];
  const int offset = random_vector<int>(1, -9, 9)[0];

  p.symbol<float[kTaps]>("c_taps", device).write(taps);
  p.symbol<Scale>("c_scale", device).write(scale);
  p.symbol<int>("s_offset", device).write(offset);
  p.symbol<float>("filters::bias", device).write(bias);
  const auto count = p.symbol<unsigned>("d_count", device);
  count.write(0u);

  auto d_in = device.upload(in);
  auto d_out = poisoned<float>(in.size());
  p.kernel<const float*, float*, int>("convolve", device)
      .launch(LaunchConfig{.grid = {8}, .block = {128}}, d_in, d_out, static_cast<int>(in.size()));
  const std::vector<float> out = d_out.download();
  const std::vector<float> want = convolved(in, taps, bias, scale, offset);
  for (std::size_t i = 0; i < in.size(); ++i) {
    ASSERT_NEAR(out[i], want[i], 1e-3f * (1.0f + std::abs(want[i]))) << "element " << i;
  }
  EXPECT_EQ(count.read(), 1000u);  // the kernel's atomics, read back by name
  float read_taps[kTaps] = {};
  p.symbol<float[kTaps]>("c_taps", device).read(read_taps);
  EXPECT_EQ(std::vector<float>(read_taps, read_taps + kTaps), taps);
  EXPECT_EQ(p.symbol<Scale>("c_scale", device).read().add, scale.add);
}

TEST_F(Symbols, PartialArrayWritesAndStreamOrder) {
  const Program p = program();
  const auto taps = p.symbol<float[kTaps]>("c_taps", device);
  std::vector<float> all = random_vector<float>(kTaps, -1.0f, 1.0f);
  taps.write(all);
  const std::vector<float> middle = random_vector<float>(5, 2.0f, 3.0f);
  Stream stream = device.create_stream();
  taps.write(middle, 6, stream);
  float seen[kTaps] = {};
  taps.read(seen, stream);
  stream.synchronize();
  std::copy(middle.begin(), middle.end(), all.begin() + 6);
  EXPECT_EQ(std::vector<float>(seen, seen + kTaps), all);

  // A kernel and a variable write ordered on one stream: the kernel sees the value.
  const auto count = p.symbol<unsigned>("d_count", device);
  auto out = poisoned<unsigned>(1);
  const unsigned value = 1234567u;
  count.write(value, stream);
  p.kernel<unsigned*>("read_count", device)
      .launch(stream, LaunchConfig{.grid = {1}, .block = {1}}, out);
  stream.synchronize();
  EXPECT_EQ(out.download()[0], value);

  EXPECT_THROW(taps.write(random_vector<float>(3, 0.0f, 1.0f), kTaps - 2), UsageError);
}

TEST_F(Symbols, AddressGoesToAKernelAsAPointer) {
  const Program p = program();
  const auto count = p.symbol<unsigned>("d_count", device);
  count.write(1u);
  p.kernel<unsigned*, unsigned>("store", device)
      .launch(LaunchConfig{.grid = {1}, .block = {1}}, count.ptr(), 777u);
  EXPECT_EQ(count.read(), 777u);
}

TEST_F(Symbols, WritesReachBuildsMadeLater) {
  const Program p = program({});  // each kernel compiled on its own: two builds
  auto in = device.upload(std::vector<float>(4, 1.0f));
  auto out = poisoned<float>(4);
  p.kernel<const float*, float*, int>("convolve", device)
      .launch(LaunchConfig{.grid = {1}, .block = {4}}, in, out, 4);
  const unsigned value = random_vector<unsigned>(1, 10, 1000000)[0];
  p.symbol<unsigned>("d_count", device).write(value);
  auto seen = poisoned<unsigned>(1);
  p.kernel<unsigned*>("read_count", device).launch(LaunchConfig{.grid = {1}, .block = {1}}, seen);
  EXPECT_EQ(seen.download()[0], value);  // the second build got the write made before it
  // Two builds, two copies: a read cannot pick one.
  auto e = expect_throw<UsageError>([&] { (void)p.symbol<unsigned>("d_count", device).read(); });
  EXPECT_TRUE(contains(e.what(), "CompileOptions::kernels")) << e.what();
}

TEST_F(Symbols, UnknownNamesWrongSizesAndNoBuildAreClearErrors) {
  const Program p = program();
  auto unknown = expect_throw<UsageError>([&] { (void)p.symbol<float>("c_tap", device); });
  EXPECT_TRUE(contains(unknown.what(), "'c_tap'")) << unknown.what();
  EXPECT_TRUE(contains(unknown.what(), "c_taps (68 bytes)")) << unknown.what();
  EXPECT_TRUE(contains(unknown.what(), "filters::bias (4 bytes)")) << unknown.what();
  auto size = expect_throw<UsageError>([&] { (void)p.symbol<float[16]>("c_taps", device); });
  EXPECT_TRUE(contains(size.what(), "68 bytes")) << size.what();
  EXPECT_TRUE(contains(size.what(), "64 bytes")) << size.what();

  const Program undeclared = program({});
  auto none =
      expect_throw<UsageError>([&] { (void)undeclared.symbol<unsigned>("d_count", device); });
  EXPECT_TRUE(contains(none.what(), "no build")) << none.what();
  EXPECT_THROW((void)Program().symbol<int>("x", device), UsageError);
}

}  // namespace
}  // namespace kjit::test
