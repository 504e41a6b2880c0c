// Bad programs: each gives the right exception, located in the user's own file and line, and
// leaves the library usable.
#include "test_support.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

namespace kjit::test {
namespace {

class CompileErrors : public DeviceTest {
 public:
  void TearDown() override {
    if (!device) {
      return;
    }
    // After any failure, a good program still compiles and runs.
    auto k = Program::from_source("after.cu", "__global__ void one(int* v) { *v = 1; }")
                 .kernel<int*>("one", device);
    auto v = poisoned<int>(1);
    k.launch(LaunchConfig{}, v);
    EXPECT_EQ(v.download()[0], 1);
  }
};

TEST_F(CompileErrors, SyntaxErrorPointsAtTheUsersLine) {
  const std::string source =
      "__global__ void k(int* v) {\n  v[0] = 1;\n  v[1] = undefined_name;\n}\n";
  auto e = expect_throw<CompileError>(
      [&] { (void)Program::from_source("mine.cu", source).kernel<int*>("k", device); });
  EXPECT_EQ(e.file(), "mine.cu");
  EXPECT_EQ(e.line(), 3U);
  EXPECT_TRUE(contains(e.what(), "mine.cu:3:10: error: ")) << e.what();
  EXPECT_TRUE(contains(e.what(), "undefined_name")) << e.what();
  EXPECT_EQ(e.program(), "mine.cu");
  EXPECT_FALSE(e.log().empty());
  for (const Diagnostic& d : e.diagnostics()) {
    EXPECT_FALSE(contains(d.file, "prelude")) << d.to_string();
    EXPECT_FALSE(contains(d.file, "__kjit__")) << d.to_string();
  }
}

TEST_F(CompileErrors, ErrorInAnIncludedHeaderNamesTheHeader) {
  const auto dir =
      std::filesystem::temp_directory_path() / ("kjit_errors_" + std::to_string(test_seed()));
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "helper.h")
      << "// helper\n\n__device__ int helper() { return missing_value; }\n";
  std::ofstream(dir / "main.cu")
      << "#include \"helper.h\"\n__global__ void k(int* v) { *v = helper(); }\n";
  auto e = expect_throw<CompileError>(
      [&] { (void)Program::from_file(dir / "main.cu").kernel<int*>("k", device); });
  EXPECT_TRUE(contains(e.file(), "helper.h")) << e.what();
  EXPECT_EQ(e.line(), 3U) << e.what();
  EXPECT_TRUE(contains(e.what(), "helper.h:3:")) << e.what();
  std::filesystem::remove_all(dir);
}

TEST_F(CompileErrors, WithKjitReproDirAFailedCompileLeavesABundle) {
  const auto root = std::filesystem::temp_directory_path() /
                    ("kjit_repro_" + std::to_string(test_seed()) + "_" + std::to_string(getpid()));
  std::filesystem::remove_all(root);
  ASSERT_EQ(setenv("KJIT_REPRO_DIR", root.c_str(), 1), 0);
  const std::string source = "#include \"weights.h\"\n__global__ void k(int* v) { *v = WEIGHT; }\n";
  auto e = expect_throw<CompileError>([&] {
    (void)Program::from_source("repro.cu", source,
                               CompileOptions{.headers = {{"weights.h", "#define WEIGHT nope\n"}}})
        .kernel<int*>("k", device);
  });
  unsetenv("KJIT_REPRO_DIR");
  std::vector<std::filesystem::path> bundles;
  if (std::filesystem::exists(root)) {
    for (const auto& entry : std::filesystem::directory_iterator(root)) {
      bundles.push_back(entry.path());
    }
  }
  ASSERT_EQ(bundles.size(), 1U) << "one failed compile, one bundle under " << root;
  const auto text = [](const std::filesystem::path& p) {
    std::ifstream in(p);
    return std::string(std::istreambuf_iterator<char>(in), {});
  };
  EXPECT_TRUE(contains(text(bundles[0] / "error.txt"), "nope")) << e.what();
  const std::string manifest = text(bundles[0] / "build.json");
  EXPECT_TRUE(contains(manifest, "\"kjit_manifest\": 1")) << manifest;
  EXPECT_TRUE(contains(manifest, "#define WEIGHT nope")) << manifest;
  EXPECT_TRUE(contains(manifest, "__global__ void k")) << manifest;
  EXPECT_TRUE(
      contains(text(bundles[0] / "versions.txt"),
               "target " + std::string(device.info().backend == BackendKind::cpu ? "cpu" : "")))
      << text(bundles[0] / "versions.txt");
  std::filesystem::remove_all(root);
}

TEST_F(CompileErrors, FromFileShowsThePathAsGiven) {
  const auto dir =
      std::filesystem::temp_directory_path() / ("kjit_errors_path_" + std::to_string(test_seed()));
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "bad.cu") << "__global__ void k() { int x = ; }\n";
  auto e = expect_throw<CompileError>(
      [&] { (void)Program::from_file(dir / "bad.cu").kernel<>("k", device); });
  EXPECT_EQ(e.file(), (dir / "bad.cu").string());
  EXPECT_EQ(e.line(), 1U);
  std::filesystem::remove_all(dir);
}

TEST_F(CompileErrors, MisuseOfABuiltinIsLocatedInTheUsersCode) {
  auto e = expect_throw<CompileError>([&] {
    (void)Program::from_source("builtin.cu", "__global__ void k() {\n  __syncthreads(1);\n}\n")
        .kernel<>("k", device);
  });
  EXPECT_EQ(e.file(), "builtin.cu");
  EXPECT_EQ(e.line(), 2U);
}

TEST_F(CompileErrors, UnclosedBraceIsReportedWhereItOpens) {
  auto e = expect_throw<CompileError>([&] {
    (void)Program::from_source("brace.cu", "__global__ void k(int* v) {\n  v[0] = 1;\n")
        .kernel<int*>("k", device);
  });
  EXPECT_EQ(e.file(), "brace.cu");
  EXPECT_EQ(e.line(), 1U);
  EXPECT_TRUE(contains(e.what(), "to match this")) << e.what();
  EXPECT_FALSE(contains(e.what(), "kjit kernel entries")) << e.what();
}

TEST_F(CompileErrors, KernelMustReturnVoid) {
  auto e = expect_throw<CompileError>([&] {
    (void)Program::from_source("ret.cu", "\n__global__ int k(int* v) { return 0; }\n")
        .kernel<int*>("k", device);
  });
  EXPECT_EQ(e.line(), 2U);
  EXPECT_TRUE(contains(e.what(), "void")) << e.what();
}

TEST_F(CompileErrors, UnknownKernelIsNamed) {
  auto e = expect_throw<KernelNotFoundError>(
      [&] { (void)Program::from_file(kernel_path("vadd.cu")).kernel<int>("vaddd", device); });
  EXPECT_TRUE(contains(e.what(), "'vaddd'")) << e.what();
  EXPECT_TRUE(contains(e.what(), "vadd.cu")) << e.what();
  if (device.info().backend == BackendKind::cpu) {  // Clang suggests the near miss
    EXPECT_TRUE(contains(e.what(), "did you mean 'vadd'")) << e.what();
  }
}

TEST_F(CompileErrors, UnknownTemplateInstantiationIsNamed) {
  auto e = expect_throw<KernelNotFoundError>([&] {
    (void)Program::from_file(kernel_path("saxpy.cu")).kernel<float>("saxpy<no_such_type>", device);
  });
  EXPECT_TRUE(contains(e.what(), "saxpy<no_such_type>")) << e.what();
}

TEST_F(CompileErrors, DeviceFunctionIsNotAKernel) {
  auto e = expect_throw<KernelNotFoundError>([&] {
    (void)Program::from_source("dev.cu",
                               "__device__ void helper(int* v) { *v = 0; }\n"
                               "__global__ void k(int* v) { helper(v); }\n")
        .kernel<int*>("helper", device);
  });
  EXPECT_TRUE(contains(e.what(), "'helper'")) << e.what();
  EXPECT_TRUE(contains(e.what(), "not a __global__ function")) << e.what();
}

TEST_F(CompileErrors, WarpIntrinsicsWithoutAMaskAreACompileErrorNamingThem) {
  // Gone since CUDA 9 for sm_70 and later: CUDA and the CPU refuse them at the call.
  if (device.info().backend == BackendKind::hip) {
    GTEST_SKIP() << "HIP's shuffles without a mask are its own (ROCm 5 has no _sync forms)";
  }
  auto e = compile_error<float*>(device, "warp.cu",
                                 "__global__ void k(float* v) {\n"
                                 "  float x = v[threadIdx.x];\n"
                                 "  x += __shfl_down(x, 1);\n"
                                 "  v[threadIdx.x] = x;\n}\n");
  EXPECT_EQ(e.file(), "warp.cu");
  EXPECT_EQ(e.line(), 3U) << e.what();
  EXPECT_TRUE(contains(e.what(), "__shfl_down")) << e.what();
  if (device.info().backend == BackendKind::cpu) {
    EXPECT_TRUE(contains(e.what(), "use the _sync form")) << e.what();
  }
}

TEST_F(CompileErrors, DynamicParallelismIsAnErrorAtTheLaunchNamingIt) {
  auto e = compile_error<int*>(device, "dynamic.cu",
                               "__global__ void child(int* p, int v) { p[threadIdx.x] = v; }\n"
                               "__global__ void k(int* p) {\n"
                               "  if (threadIdx.x == 0)\n"
                               "    child<<<1, 32>>>(p, 7);\n"
                               "}\n");
  EXPECT_EQ(e.file(), "dynamic.cu") << e.what();
  EXPECT_EQ(e.line(), 4U) << e.what();
  EXPECT_TRUE(contains(e.what(),
                       "dynamic parallelism (a kernel launch in device code) is not "
                       "supported by kjit's"))
      << e.what();
}

TEST_F(CompileErrors, FeaturesTheCpuLacksAreErrorsAtTheUsersLineNamingThem) {
  if (device.info().backend != BackendKind::cpu) {
    GTEST_SKIP() << "inline PTX, textures and surfaces exist on NVIDIA GPUs";
  }
  struct Case {
    const char* source;
    unsigned line;
    const char* says;
  };
  const Case cases[] = {
      {"__device__ unsigned lane() {\n  unsigned r;\n  asm(\"mov.u32 %0, %%laneid;\" : "
       "\"=r\"(r));\n  return r;\n}\n__global__ void k(unsigned* p) { *p = lane(); }\n",
       3, "inline assembly (PTX) is not supported by kjit's CPU backend"},
      {"texture<float, 1, cudaReadModeElementType> t;\n"
       "__global__ void k(float* p) { *p = tex1Dfetch(t, 0); }\n",
       1, "a texture reference is not supported by kjit's CPU backend"},
      {"__global__ void k(float* p,\n  cudaTextureObject_t t) { *p = tex2D<float>(t, 0, 0); }\n", 2,
       "a texture object is not supported by kjit's CPU backend"},
      {"__global__ void k(float* p,\n  cudaSurfaceObject_t s) { surf2Dread(p, s, 0, 0); }\n", 2,
       "a surface object is not supported by kjit's CPU backend"},
      {"__managed__ int counter;\n__global__ void k(int* p) {\n  *p = counter;\n}\n", 3,
       "__managed__ memory is not supported by kjit's CPU backend"},
  };
  for (const Case& c : cases) {
    auto e = expect_throw<CompileError>(
        [&] { (void)Program::from_source("feature.cu", c.source).kernel<void*>("k", device); });
    EXPECT_EQ(e.file(), "feature.cu") << e.what();
    EXPECT_EQ(e.line(), c.line) << e.what();
    EXPECT_TRUE(contains(e.what(), c.says)) << e.what();
  }
}

TEST_F(CompileErrors, AFunctionThatReadsThreadIdxUsedThroughAPointerIsAnErrorAtItsUse) {
  if (device.info().backend != BackendKind::cpu) {
    GTEST_SKIP() << "GPUs call device functions through pointers";
  }
  // The CPU backend gives such a function the thread's context as a parameter, which a call
  // through a pointer cannot pass. The lowering that finds it has no lines unless the compile
  // kept them, so the error is placed by a second compile that does.
  const std::string source =
      "__device__ float lane(float v) { return v + threadIdx.x; }\n"
      "__device__ float apply(float (*f)(float), float v) { return f(v); }\n"
      "__global__ void k(float* out) {\n"
      "  out[threadIdx.x] = apply(lane, out[threadIdx.x]);\n"
      "}\n";
  const CompileError e = compile_error<float*>(device, "lane.cu", source);
  EXPECT_EQ(e.file(), "lane.cu") << e.what();
  EXPECT_EQ(e.line(), 4U) << e.what();
  EXPECT_TRUE(contains(e.what(), "'lane(float)' reads threadIdx")) << e.what();
  EXPECT_TRUE(contains(e.what(), "the CPU backend can only call such functions directly"))
      << e.what();
  // A virtual call has no use with a line: the function's own line.
  const std::string virtual_call =
      "struct Base { __device__ virtual float f(float v) const { return v; } };\n"
      "struct Lane : Base {\n"
      "  __device__ float f(float v) const override { return v + threadIdx.x; }\n"
      "};\n"
      "__device__ float call(const Base& b, float v) { return b.f(v); }\n"
      "__global__ void k(float* out) {\n"
      "  Lane lane;\n"
      "  out[threadIdx.x] = call(lane, out[threadIdx.x]);\n"
      "}\n";
  const CompileError v = compile_error<float*>(device, "virtual.cu", virtual_call);
  EXPECT_EQ(v.file(), "virtual.cu") << v.what();
  EXPECT_EQ(v.line(), 3U) << v.what();
  EXPECT_TRUE(contains(v.what(), "'Lane::f(float) const' reads threadIdx")) << v.what();
}

TEST_F(CompileErrors, CallingAnUndefinedFunctionIsNamed) {
  auto e = expect_throw<CompileError>([&] {
    (void)Program::from_source("undefined.cu",
                               "__device__ int elsewhere(int);\n"
                               "__global__ void k(int* v) { *v = elsewhere(*v); }\n")
        .kernel<int*>("k", device);
  });
  EXPECT_TRUE(contains(e.what(), "elsewhere")) << e.what();
}

TEST_F(CompileErrors, MissingIncludeAndMissingFile) {
  // An include that nothing answers is compiled as empty (host code includes the host's
  // headers); it is named when the program then fails (host_code_test.cpp).
  auto e = expect_throw<CompileError>([&] {
    (void)Program::from_source("inc.cu",
                               "#include \"not_there.h\"\n__global__ void k() { there(); }\n")
        .kernel<>("k", device);
  });
  EXPECT_EQ(e.line(), 2U);
  EXPECT_TRUE(contains(e.what(), "inc.cu:1:1: note: kjit found no 'not_there.h'")) << e.what();
  EXPECT_NO_THROW(
      (void)Program::from_source("inc.cu", "#include \"not_there.h\"\n__global__ void k() {}\n")
          .kernel<>("k", device));
  auto missing = expect_throw<Error>([&] { (void)Program::from_file("/no/such/kernel.cu"); });
  EXPECT_TRUE(contains(missing.what(), "/no/such/kernel.cu")) << missing.what();
}

TEST_F(CompileErrors, AKernelFileThatIsNoRegularFileIsRefusedNotRead) {
  // /dev/zero would be read forever, a FIFO would block until someone writes to it.
  const std::filesystem::path fifo =
      std::filesystem::temp_directory_path() / ("kjit-fifo-" + std::to_string(::getpid()) + ".cu");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  for (const std::filesystem::path& path :
       {std::filesystem::path("/dev/zero"), fifo, std::filesystem::temp_directory_path()}) {
    auto e = expect_throw<Error>([&] { (void)Program::from_file(path); });
    EXPECT_TRUE(contains(e.what(), path.string())) << e.what();
    EXPECT_TRUE(contains(e.what(), "not a regular file") || contains(e.what(), "a directory"))
        << e.what();
  }
  std::filesystem::remove(fifo);
}

TEST_F(CompileErrors, EmptyAndGarbageSources) {
  expect_throw<KernelNotFoundError>(
      [&] { (void)Program::from_source("empty.cu", "").kernel<>("k", device); });
  expect_throw<CompileError>([&] {
    (void)Program::from_source("garbage.cu", std::string("\x01\x02\xff\xfe garbage {{{", 16))
        .kernel<>("k", device);
  });
  auto e = expect_throw<CompileError>([&] {
    (void)Program::from_source("comment.cu", "__global__ void k() {}\n/* never closed\n")
        .kernel<>("k", device);
  });
  EXPECT_EQ(e.file(), "comment.cu");
}

TEST_F(CompileErrors, TypeErrorPointsAtTheUsersLine) {
  auto e = compile_error<int*>(device, "types.cu",
                               "struct P { int x; };\n"
                               "__global__ void k(int* v) {\n"
                               "  P p = v;\n"
                               "  v[0] = p.x;\n"
                               "}\n");
  EXPECT_EQ(e.file(), "types.cu");
  EXPECT_EQ(e.line(), 3U) << e.what();
}

TEST_F(CompileErrors, AnIncludeCycleIsACompileErrorNotAHang) {
  // Two headers that include each other without guards: the compiler stops at its nesting
  // limit and says so, in one of the headers.
  auto e = expect_throw<CompileError>([&] {
    (void)Program::from_source(
        "cycle.cu", "#include \"a.h\"\n__global__ void k(int* v) { v[0] = 1; }\n",
        {.headers = {{"a.h", "#include \"b.h\"\n"}, {"b.h", "#include \"a.h\"\n"}}})
        .kernel<int*>("k", device);
  });
  EXPECT_TRUE(contains(e.what(), "a.h") || contains(e.what(), "b.h")) << e.what();
}

TEST_F(CompileErrors, AFiftyMegabyteSourceCompilesAndFiftyMegabytesOfGarbageGiveAShortError) {
  // No size limit: a valid program of 50 MB (a kernel after a long comment) builds and runs.
  // 50 MB of garbage is a compile error whose message stays readable.
  const std::size_t size = std::size_t{50} << 20;
  std::string big = "/*";
  big.append(size, 'x');
  big += "*/\n__global__ void k(int* v) { v[0] = 7; }\n";
  auto k = Program::from_source("big.cu", big).kernel<int*>("k", device);
  auto v = poisoned<int>(1);
  k.launch(LaunchConfig{}, v);
  EXPECT_EQ(v.download()[0], 7);

  std::string garbage(size, '@');
  for (std::size_t i = 64; i < garbage.size(); i += 64) {
    garbage[i] = '\n';
  }
  auto e = expect_throw<CompileError>(
      [&] { (void)Program::from_source("garbage.cu", garbage).kernel<int*>("k", device); });
  EXPECT_EQ(e.file(), "garbage.cu");
  EXPECT_LT(std::string(e.what()).size(), std::size_t{64} << 10)
      << "the message repeats the source: " << std::string(e.what()).substr(0, 400);
}

TEST_F(CompileErrors, BadKernelNamesAndHeaderNames) {
  const Program p = Program::from_file(kernel_path("vadd.cu"));
  expect_throw<UsageError>([&] { (void)p.kernel<>("vadd; int x", device); });
  expect_throw<UsageError>([&] { (void)p.kernel<>("", device); });
  expect_throw<UsageError>([&] {
    (void)Program::from_source("h.cu", "__global__ void k() {}", {.headers = {{"../escape.h", ""}}})
        .kernel<>("k", device);
  });
  expect_throw<UsageError>([&] { (void)Program::from_source("", "__global__ void k() {}"); });
}

}  // namespace
}  // namespace kjit::test
