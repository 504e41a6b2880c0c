// Programs from LLVM bitcode (kernels/bitcode/, made by make-bitcode.sh from examples.cu) on the
// device under test: the kernels match host references and the same kernels compiled from
// source, bitcode for another target and bytes that are not bitcode are clear errors that leave
// the library usable, and a second program from the same bitcode loads from the disk cache.
#include "test_support.hpp"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace kjit::test {
namespace {

std::filesystem::path bitcode_path(const std::string& file) {
  return kernel_path("bitcode/" + file);
}

std::vector<std::uint8_t> read_bytes(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

class Bitcode : public DeviceTest {
 public:
  void SetUp() override {
    DeviceTest::SetUp();
    if (IsSkipped()) {
      return;
    }
    switch (device.info().backend) {
      case BackendKind::cpu:
        file = "examples.host.bc";
        other = "examples.sm_75.bc";
        break;
      case BackendKind::cuda:
        file = "examples.sm_75.bc";
        other = "examples.gfx90a.bc";
        break;
      case BackendKind::hip:
        file = "examples." + device.info().arch.substr(0, device.info().arch.find(':')) + ".bc";
        other = "examples.sm_75.bc";
        break;
    }
    if (!std::filesystem::exists(bitcode_path(file))) {
      GTEST_SKIP() << "kernels/bitcode/ has no " << file << " for " << device.info().id()
                   << " (add the processor to make-bitcode.sh)";
    }
    try {
      (void)program().kernel<const float*, const float*, float*, int>("vadd", device);
    } catch (const BackendError& e) {
      if (std::string(e.what()).find("built without LLVM") == std::string::npos) {
        throw;
      }
      GTEST_SKIP() << e.what();  // a kjit built with KJIT_WITH_CPU=OFF compiles no bitcode
    }
  }

  [[nodiscard]] Program program(const CompileOptions& options = {}) const {
    return Program::from_bitcode_file(bitcode_path(file), options);
  }

  std::string file;   // bitcode for this device
  std::string other;  // bitcode for another kind of device
};

TEST_F(Bitcode, ExampleKernelsMatchTheHost) {
  KJIT_SEED_TRACE();
  const Program p = program({.kernels = {"vadd", "saxpy<float>", "histogram256"}});
  auto vadd = p.kernel<const float*, const float*, float*, int>("vadd", device);
  const int n = 100003;
  const auto a = random_vector<float>(n, -100.0f, 100.0f);
  const auto b = random_vector<float>(n, -100.0f, 100.0f);
  auto c = poisoned<float>(n);
  vadd.launch(LaunchConfig::for_elements(n, 256), device.upload(a), device.upload(b), c, n);
  const auto sum = c.download();
  for (int i = 0; i < n; ++i) {
    ASSERT_EQ(sum[i], a[i] + b[i]) << "i=" << i;
  }

  // A plain template name resolved by the parameter types, as from source.
  auto saxpy = p.kernel<double, const double*, double*, int>("saxpy", device);
  const double alpha = random_vector<double>(1, -4, 4)[0];
  const auto x = random_vector<double>(n, -1000, 1000);
  const auto y = random_vector<double>(n, -1000, 1000);
  auto dy = device.upload(y);
  saxpy.launch(LaunchConfig::for_elements(n, 128), alpha, device.upload(x), dy, n);
  const auto out = dy.download();
  for (int i = 0; i < n; ++i) {
    const double fused = std::fma(alpha, x[i], y[i]);
    ASSERT_TRUE(out[i] == fused || out[i] == alpha * x[i] + y[i]) << "i=" << i;
  }

  auto reduce = p.kernel<const int*, int*, int>("reduce_sum<int>", device);
  const auto in = random_vector<int>(n, -1000, 1000);
  auto total = device.upload(std::vector<int>{0});
  reduce.launch(LaunchConfig{.grid = {16}, .block = {256}}, device.upload(in), total, n);
  long long expected = 0;
  for (const int v : in) {
    expected += v;
  }
  EXPECT_EQ(total.download()[0], expected) << "shared memory, barriers and atomics";
}

TEST_F(Bitcode, TheSameKernelsFromSourceAndFromBitcodeAgree) {
  KJIT_SEED_TRACE();
  auto from_bitcode =
      program().kernel<const unsigned char*, int, unsigned*>("histogram256", device);
  auto from_source = Program::from_file(kernel_path("reduction.cu"))
                         .kernel<const unsigned char*, int, unsigned*>("histogram256", device);
  const int n = 1 << 18;
  const auto data = device.upload(random_vector<unsigned char>(n, 0, 255));
  auto bins_bitcode = device.upload(std::vector<unsigned>(256, 0));
  auto bins_source = device.upload(std::vector<unsigned>(256, 0));
  from_bitcode.launch(LaunchConfig{.grid = {24}, .block = {256}}, data, n, bins_bitcode);
  from_source.launch(LaunchConfig{.grid = {24}, .block = {256}}, data, n, bins_source);
  const auto counts = bins_bitcode.download();
  EXPECT_EQ(counts, bins_source.download());
  unsigned long long seen = 0;
  for (const unsigned c : counts) {
    seen += c;
  }
  EXPECT_EQ(seen, static_cast<unsigned long long>(n));
}

TEST_F(Bitcode, BitcodeForAnotherTargetIsACompileErrorNamingTheTriple) {
  const Program wrong = Program::from_bitcode_file(bitcode_path(other));
  try {
    (void)wrong.kernel<const float*, const float*, float*, int>("vadd", device);
    FAIL() << other << " ran on " << device.info().id();
  } catch (const CompileError& e) {
    EXPECT_NE(std::string(e.what()).find("cannot run"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find(device.info().id()), std::string::npos) << e.what();
  }
  // Nothing is left broken: the right bitcode still compiles and runs.
  auto vadd = program().kernel<const float*, const float*, float*, int>("vadd", device);
  auto c = poisoned<float>(3);
  vadd.launch(LaunchConfig::for_elements(3, 32), device.upload(std::vector<float>{1, 2, 3}),
              device.upload(std::vector<float>{10, 20, 30}), c, 3);
  EXPECT_EQ(c.download(), (std::vector<float>{11, 22, 33}));
}

TEST_F(Bitcode, BytesThatAreNotBitcodeAndSourceOptionsAreRefused) {
  const std::string text = "__global__ void k(float* x) { x[0] = 1; }";
  const std::vector<std::uint8_t> source(text.begin(), text.end());
  try {
    (void)Program::from_bitcode("k.cu", source);
    FAIL() << "source text taken as bitcode";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("is not LLVM bitcode"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("__global__ void"), std::string::npos)
        << "shows what it got: " << e.what();
  }
  EXPECT_THROW((void)Program::from_bitcode("empty.bc", std::vector<std::uint8_t>{}), UsageError);
  EXPECT_THROW((void)Program::from_bitcode("", read_bytes(bitcode_path(file))), UsageError);
  EXPECT_THROW((void)Program::from_bitcode_file(bitcode_path("no-such.bc")), Error);
  for (const CompileOptions& options :
       {CompileOptions{.defines = {{"N", "4"}}}, CompileOptions{.headers = {{"a.h", ""}}},
        CompileOptions{.include_dirs = {"/tmp"}}}) {
    try {
      (void)program(options);
      FAIL() << "a source option was taken with bitcode";
    } catch (const UsageError& e) {
      EXPECT_NE(std::string(e.what()).find("preprocessed"), std::string::npos) << e.what();
    }
  }
  try {
    (void)program(CompileOptions{.debug = true});
    FAIL() << "CompileOptions::debug was taken with bitcode";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("CompileOptions::debug"), std::string::npos) << e.what();
  }

  std::vector<std::uint8_t> truncated = read_bytes(bitcode_path(file));
  truncated.resize(truncated.size() / 3);
  const Program cut = Program::from_bitcode("cut.bc", truncated);
  try {
    (void)cut.kernel<const float*, const float*, float*, int>("vadd", device);
    FAIL() << "truncated bitcode compiled";
  } catch (const CompileError& e) {
    EXPECT_NE(std::string(e.what()).find("cannot read the bitcode"), std::string::npos) << e.what();
    EXPECT_EQ(e.program(), "cut.bc");
  }
}

TEST_F(Bitcode, NamesThatAreNoKernelListTheKernels) {
  try {
    (void)program().kernel<const float*, float*, int>("vsub", device);
    FAIL() << "found vsub";
  } catch (const KernelNotFoundError& e) {
    EXPECT_NE(std::string(e.what()).find("has no kernel 'vsub'"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("histogram256"), std::string::npos) << e.what();
  }
  // The symbol itself names a kernel too.
  auto by_symbol =
      program().kernel<const float*, const float*, float*, int>("_Z4vaddPKfS0_Pfi", device);
  auto c = poisoned<float>(2);
  by_symbol.launch(LaunchConfig::for_elements(2, 32), device.upload(std::vector<float>{1, 2}),
                   device.upload(std::vector<float>{3, 4}), c, 2);
  EXPECT_EQ(c.download(), (std::vector<float>{4, 6}));
  // Wrong parameter types for a real kernel: the usual launch check.
  const auto wrong_types = [&] { (void)program().kernel<const float*, int>("vadd", device); };
  EXPECT_THROW(wrong_types(), LaunchError);
}

TEST_F(Bitcode, ASecondProgramFromTheSameBitcodeLoadsFromTheCache) {
  if (!cache_config().enabled) {
    GTEST_SKIP() << "the disk cache is off (KJIT_CACHE=off)";
  }
  const std::vector<std::uint8_t> bytes = read_bytes(bitcode_path(file));
  (void)Program::from_bitcode("first.bc", bytes)
      .kernel<const float*, const float*, float*, int>("vadd", device);
  const CacheStats before = cache_stats();
  (void)Program::from_bitcode("second.bc", bytes)
      .kernel<const float*, const float*, float*, int>("vadd", device);
  const CacheStats after = cache_stats();
  EXPECT_EQ(after.compiles, before.compiles) << "compiled again";
  EXPECT_EQ(after.hits, before.hits + 1);
}

}  // namespace
}  // namespace kjit::test
