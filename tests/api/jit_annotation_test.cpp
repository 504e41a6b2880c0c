// Kernels annotated as Proteus annotates them (__attribute__((annotate("jit", 3, 4)))) are
// specialised at each launch without a change to the host code: the launch runs the variant for
// the annotated arguments' values (one per set of values, compiled once), which gives the plain
// kernel's results bit for bit; an annotation that cannot be honoured is a CompileError at its
// line.
#include "test_support.hpp"

#include <bit>
#include <cmath>

namespace kjit::test {
namespace {

using Window = Kernel<const float*, float*, int, float, int>;

/// Variants built (compiled, or loaded from a cache) so far in this process.
std::uint64_t builds() {
  const CacheStats s = cache_stats();
  return s.compiles + s.hits + s.remote_hits;
}

class JitAnnotation : public DeviceTest {
 public:
  /// The test kernels' program; the values alone pick a variant unless `fold_geometry`.
  static Program program(CompileOptions options = {}, bool fold_geometry = false) {
    // Both kernels in one build, so that the program has one copy of `launches`.
    options.kernels = {"window", "window_plain"};
    // These tests check the variants themselves: launches wait for them (jit_background_test.cpp
    // checks the default, where they compile in the background).
    options.launch_waits_for_variants = true;
    options.fold_launch_geometry = fold_geometry;
    return Program::from_file(test_kernel_path("jit_annotated.cu"), std::move(options));
  }

  /// Launches `annotated` and `plain` on the same random input and checks that both give the
  /// host's sums and the same bits.
  void expect_same_as_plain(const Window& annotated, const Window& plain, int steps, float scale) {
    const int n = 2000 + static_cast<int>(rng() % 2000);
    const std::vector<float> x = random_vector<float>(std::size_t(n), -2.0f, 2.0f);
    auto dx = device.upload(x);
    auto want = poisoned<float>(std::size_t(n));
    auto got = poisoned<float>(std::size_t(n));
    const LaunchConfig config = LaunchConfig::for_elements(std::size_t(n), 128);
    plain.launch(config, dx, want, steps, scale, n);
    annotated.launch(config, dx, got, steps, scale, n);
    const std::vector<float> w = want.download();
    const std::vector<float> g = got.download();
    for (int i = 0; i < n; ++i) {
      float host = 0.0f;
      for (int k = 0; k < steps; ++k) {
        host += x[std::size_t((i + k) % n)] * scale;
      }
      ASSERT_NEAR(w[i], host, 1e-4f * (1.0f + std::abs(host))) << "element " << i;
      ASSERT_EQ(std::bit_cast<std::uint32_t>(g[i]), std::bit_cast<std::uint32_t>(w[i]))
          << "element " << i << ": annotated " << g[i] << ", plain " << w[i];
    }
  }

  /// Launches `strided` with `scale` on `grid` x `block` and checks each element against the host.
  void expect_strided(const Kernel<const float*, float*, float, int>& strided, Dim3 grid,
                      Dim3 block, float scale) {
    const int n = 3000 + static_cast<int>(rng() % 3000);  // more than some grids' threads
    const std::vector<float> x = random_vector<float>(std::size_t(n), -2.0f, 2.0f);
    auto dx = device.upload(x);
    auto dy = poisoned<float>(std::size_t(n));
    strided.launch(LaunchConfig{.grid = grid, .block = block}, dx, dy, scale, n);
    const std::vector<float> y = dy.download();
    const float shape = float(block.x) + float(grid.x) / 1024.0f;
    for (int i = 0; i < n; ++i) {  // near: the compilers may contract to a fused multiply-add
      const float want = x[std::size_t(i)] * scale + shape;
      ASSERT_NEAR(y[std::size_t(i)], want, 1e-5f * std::abs(want))
          << "element " << i << " of grid " << grid.x << " x block " << block.x;
    }
  }
};

TEST_F(JitAnnotation, ALaunchRunsTheVariantForItsValues) {
  const Program p = program();
  const auto annotated = p.kernel<const float*, float*, int, float, int>("window", device);
  const auto plain = p.kernel<const float*, float*, int, float, int>("window_plain", device);
  const auto launches = p.symbol<unsigned long long>("launches", device);
  launches.write(0ULL);
  const int steps = 3 + static_cast<int>(rng() % 13);
  const float scale = random_vector<float>(1, -3.0f, 3.0f)[0];

  const std::uint64_t before = builds();
  expect_same_as_plain(annotated, plain, steps, scale);
  EXPECT_EQ(builds() - before, 1U) << "the first launch with these values builds their variant";
  // Only the plain kernel counted in the program's copy: the annotated launch ran a variant.
  EXPECT_EQ(launches.read(), 1ULL);

  expect_same_as_plain(annotated, plain, steps, scale);
  EXPECT_EQ(builds() - before, 1U) << "the same values again: the same variant";
  EXPECT_EQ(launches.read(), 2ULL);
}

TEST_F(JitAnnotation, OtherValuesMakeAnotherVariant) {
  const Program p = program();
  const auto annotated = p.kernel<const float*, float*, int, float, int>("window", device);
  const auto plain = p.kernel<const float*, float*, int, float, int>("window_plain", device);
  const std::uint64_t before = builds();
  expect_same_as_plain(annotated, plain, 4, 0.5f);
  expect_same_as_plain(annotated, plain, 9, 0.5f);
  EXPECT_EQ(builds() - before, 2U);
  expect_same_as_plain(annotated, plain, 9, -1.25f);  // the scale is annotated too
  EXPECT_EQ(builds() - before, 3U);
  expect_same_as_plain(annotated, plain, 4, 0.5f);
  EXPECT_EQ(builds() - before, 3U) << "the first values' variant is still held";
  // A handle asked for again shares nothing but the program's table: no new build either.
  const auto again = p.kernel<const float*, float*, int, float, int>("window", device);
  expect_same_as_plain(again, plain, 9, 0.5f);
  EXPECT_EQ(builds() - before, 3U);
}

TEST_F(JitAnnotation, TheVariantCapHolds) {
  CompileOptions options;
  options.max_variants = 1;
  const Program p = program(options);
  const auto annotated = p.kernel<const float*, float*, int, float, int>("window", device);
  const auto plain = p.kernel<const float*, float*, int, float, int>("window_plain", device);
  testing::internal::CaptureStderr();
  for (const int steps : {2, 5, 2, 7}) {
    expect_same_as_plain(annotated, plain, steps, 1.5f);
  }
  const std::string log = testing::internal::GetCapturedStderr();
  EXPECT_TRUE(contains(log, "more than 1 specialised variants")) << log;
}

TEST_F(JitAnnotation, EachLaunchGeometryGetsItsOwnVariant) {
  const Program p = program({}, /*fold_geometry=*/true);
  const auto strided = p.kernel<const float*, float*, float, int>("strided", device);
  const std::uint64_t before = builds();
  expect_strided(strided, {7}, {64}, 1.5f);
  EXPECT_EQ(builds() - before, 1U);
  expect_strided(strided, {13}, {128}, 1.5f);
  EXPECT_EQ(builds() - before, 2U) << "another block and grid: another variant";
  expect_strided(strided, {13}, {64}, 1.5f);
  EXPECT_EQ(builds() - before, 3U) << "another grid: another variant";
  expect_strided(strided, {7}, {64}, 1.5f);
  EXPECT_EQ(builds() - before, 3U) << "the first geometry's variant is still held";
}

TEST_F(JitAnnotation, WithoutGeometryFoldingOneVariantServesEveryGeometry) {
  const Program p = program();
  const auto strided = p.kernel<const float*, float*, float, int>("strided", device);
  const std::uint64_t before = builds();
  expect_strided(strided, {7}, {64}, -0.75f);
  expect_strided(strided, {13}, {128}, -0.75f);
  expect_strided(strided, {2}, {32}, -0.75f);
  EXPECT_EQ(builds() - before, 1U);
}

TEST_F(JitAnnotation, OptionsSpecialiseAKernelWithoutTheAttribute) {
  CompileOptions options;
  options.specialize_arguments = {{"window_plain", {2, 3}}};
  const Program p = program(options);
  const Program reference = program();
  const auto chosen = p.kernel<const float*, float*, int, float, int>("window_plain", device);
  const auto plain =
      reference.kernel<const float*, float*, int, float, int>("window_plain", device);
  const auto launches = p.symbol<unsigned long long>("launches", device);
  launches.write(0ULL);
  const std::uint64_t before = builds();
  const int steps = 2 + static_cast<int>(rng() % 9);
  expect_same_as_plain(chosen, plain, steps, 0.625f);
  expect_same_as_plain(chosen, plain, steps, 0.625f);
  EXPECT_EQ(builds() - before, 1U) << "one variant for the values named by the options";
  EXPECT_EQ(launches.read(), 0ULL) << "the program's own kernel never ran: the variant did";
  expect_same_as_plain(chosen, plain, steps + 1, 0.625f);
  EXPECT_EQ(builds() - before, 2U);
  // Added to the kernel's own annotation: `window` folds (steps, scale) and now n as well.
  CompileOptions more;
  more.specialize_arguments = {{"window", {4}}};
  const auto both = program(more).kernel<const float*, float*, int, float, int>("window", device);
  const std::uint64_t then = builds();
  expect_same_as_plain(both, plain, steps, 0.625f);
  expect_same_as_plain(both, plain, steps, 0.625f);  // another random n: another variant
  EXPECT_EQ(builds() - then, 2U);
}

TEST_F(JitAnnotation, OptionsThatCannotBeHonouredAreUsageErrors) {
  const auto refused = [&](std::map<std::string, std::vector<std::size_t>, std::less<>> named)
      -> std::string {  // the message, not a pointer into the exception, which is gone
    CompileOptions options;
    options.specialize_arguments = std::move(named);
    return expect_throw<UsageError>([&] {
             (void)program(options).kernel<const float*, float*, int, float, int>("window_plain",
                                                                                  device);
           })
        .what();
  };
  EXPECT_TRUE(contains(refused({{"window_plain", {5}}}),
                       "CompileOptions::specialize_arguments of kernel 'window_plain': parameter "
                       "5 does not exist; the kernel takes 5"));
  EXPECT_TRUE(contains(refused({{"window_plain", {1}}}),
                       "kernel 'window_plain': parameter 1 is 'float*' on the host, which kjit "
                       "cannot fold"));
  EXPECT_TRUE(contains(refused({{"window_plain", {2, 2}}}), "must name each parameter once"));
  EXPECT_TRUE(contains(refused({{"window_plain", {}}}), "must name each parameter once"));
  EXPECT_TRUE(contains(refused({{"9window", {2}}}), "'9window' is not a kernel name"));
}

TEST_F(JitAnnotation, AKernelAnnotatedInAnIncludedHeaderIsSpecialised) {
  // As upstream's main.cu of wsm5 includes kernel.h, where the annotated kernel stands: the
  // program's own text has no annotation; the header is found in an include dir.
  CompileOptions options;
  options.include_dirs = {test_kernel_path("jit_annotated.cu").parent_path()};
  options.launch_waits_for_variants = true;
  const Program p = Program::from_source("main.cu", "#include \"jit_annotated.cu\"\n", options);
  const auto annotated = p.kernel<const float*, float*, int, float, int>("window", device);
  const auto plain =
      program().kernel<const float*, float*, int, float, int>("window_plain", device);
  const auto launches = p.symbol<unsigned long long>("launches", device);
  launches.write(0ULL);
  const std::uint64_t before = builds();
  const int steps = 2 + static_cast<int>(rng() % 9);
  expect_same_as_plain(annotated, plain, steps, 0.375f);
  EXPECT_EQ(builds() - before, 1U) << "the header's annotation made a variant";
  EXPECT_EQ(launches.read(), 0ULL) << "the program's own kernel never ran: the variant did";
  // A bad annotation in a header (here one given in memory) is an error at its line there.
  CompileOptions bad;
  bad.headers = {{"bad.h",
                  "\n__global__ __attribute__((annotate(\"jit\", 3))) void k(int n, "
                  "int* y) {}\n"}};
  const CompileError e = expect_throw<CompileError>([&] {
    (void)Program::from_source("uses_bad.cu", "#include \"bad.h\"\n", bad)
        .kernel<int, int*>("k", device);
  });
  EXPECT_EQ(e.file(), "bad.h");
  EXPECT_EQ(e.line(), 2U);
  EXPECT_TRUE(contains(e.what(), "argument position 3 is past the kernel's last parameter"))
      << e.what();
}

TEST_F(JitAnnotation, AnArgumentThatCannotBeFoldedIsACompileErrorAtItsLine) {
  const struct {
    const char* source;
    const char* message;
  } cases[] = {
      {"__global__ __attribute__((annotate(\"jit\", 0))) void k(int n, int* y) {}",
       "argument position 0 does not exist"},
      {"__global__ __attribute__((annotate(\"jit\", 3))) void k(int n, int* y) {}",
       "argument position 3 is past the kernel's last parameter (it takes 2)"},
      {"__global__ __attribute__((annotate(\"jit\", 2))) void k(int n, int* y) {}",
       "argument position 2 is 'int* y', a pointer, array or reference: only scalar arguments "
       "can be specialised"},
      {"__global__ __attribute__((annotate(\"jit\", x))) void k(int n, int* y) {}",
       "argument position 'x' is not an integer"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.source);
    const std::string source = std::string("// a kernel file\n\n") + c.source + "\n";
    const CompileError e = compile_error<int, int*>(device, "annotated.cu", source);
    EXPECT_EQ(e.file(), "annotated.cu");
    EXPECT_EQ(e.line(), 3U);
    EXPECT_TRUE(contains(
        e.what(),
        "annotated.cu:3:27: error: kernel 'k': annotate(\"jit\", ...): " + std::string(c.message)))
        << e.what();
  }
  // A parameter whose host type is a struct cannot be folded.
  const CompileError e = expect_throw<CompileError>([&] {
    struct Pair {
      int a, b;
    };
    (void)Program::from_source("pair.cu", R"(
struct Pair { int a, b; };
__global__ __attribute__((annotate("jit", 1))) void k(Pair p, int* y) { y[0] = p.a + p.b; }
)")
        .kernel<Pair, int*>("k", device);
  });
  EXPECT_TRUE(contains(e.what(),
                       "pair.cu:3:27: error: kernel 'k': annotate(\"jit\", ...): "
                       "argument position 1 is a class or enum on the host"))
      << e.what();
}

}  // namespace
}  // namespace kjit::test
