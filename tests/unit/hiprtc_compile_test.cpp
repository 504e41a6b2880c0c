// The HIP backend's compiler without an AMD GPU: every kernel of kernels/ compiled by hipRTC for
// gfx90a and gfx908 into code objects (ELF64, EM_AMDGPU, a .kd descriptor per kernel, parameter
// layouts in the metadata), compile errors located in the user's file, and archs hipRTC does not
// know refused before they reach it (they abort the process inside ROCm 5.2's hipRTC). Runs
// wherever hipRTC is installed; says so when it is not.
#include "backends/hip/amdgpu_target.hpp"
#include "backends/hip/code_object.hpp"
#include "backends/hip/hip_backend.hpp"
#include "backends/hip/hiprtc_api.hpp"
#include "backends/hip/hiprtc_compiler.hpp"
#include "compile_failures.hpp"
#include "kernel_files.hpp"
#include "kernel_header_cases.hpp"
#include "variant_request.hpp"

#include <kjit/error.hpp>

#include <gtest/gtest.h>

#include <unistd.h>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>

#include <algorithm>

namespace kjit::hip {
namespace {

using test::kernel_files;
using test::KernelFile;
using test::request_for;

class Hiprtc : public ::testing::Test {
 public:
  void SetUp() override {
    std::string why;
    api = hiprtc_api(why);
    if (api == nullptr) {
      GTEST_SKIP() << "hipRTC is not available: " << why;
    }
  }
  backend::Binary compile(const backend::CompileRequest& r, const std::string& target = "gfx90a") {
    HiprtcCompiler compiler(*api, parse_amdgpu_target(target), "hip:" + target);
    return compiler.compile(r);
  }
  const HiprtcApi* api = nullptr;
};

bool has_symbol(const CodeObject& code, const std::string& name) {
  return std::find(code.symbols.begin(), code.symbols.end(), name) != code.symbols.end();
}

bool uses_cooperative_groups(const KernelFile& k) {
  return std::string(k.file).find("/cg_") != std::string::npos;
}

TEST_F(Hiprtc, EveryKernelCompilesToACodeObjectForGfx90aAndGfx908) {
  const bool builtin_groups = has_builtin_cooperative_groups(*api, parse_amdgpu_target("gfx90a"));
  for (const std::string target : {"gfx90a", "gfx908"}) {
    for (const KernelFile& k : kernel_files()) {
      if (builtin_groups && uses_cooperative_groups(k)) {
        continue;  // CooperativeGroupsAreHipRtcsOwnWhereItHasThem says why
      }
      const backend::Binary b = compile(request_for(k), target);
      ASSERT_EQ(b.format, "hsaco") << k.file;
      ASSERT_GT(b.bytes.size(), 64U);
      EXPECT_TRUE(std::equal(b.bytes.begin(), b.bytes.begin() + 4,
                             "\x7f"
                             "ELF"))
          << k.file;
      EXPECT_EQ(b.bytes[4], 2) << k.file << ": not ELF64";
      EXPECT_EQ(b.bytes[18] | (b.bytes[19] << 8), kEmAmdgpu) << k.file;
      const CodeObject code = read_code_object(b.bytes, k.file);
      EXPECT_EQ(code.target, "amdgcn-amd-amdhsa--" + target) << k.file;
      EXPECT_EQ(code.code_object_version(), 4) << k.file << ": ROCm 5 loaders take v4";
      ASSERT_EQ(b.kernel_symbols.size(), k.names.size()) << k.file;
      for (const std::string& s : b.kernel_symbols) {
        const CodeObjectKernel* kernel = code.kernel(s);
        ASSERT_NE(kernel, nullptr) << k.file << ": " << s;
        EXPECT_TRUE(has_symbol(code, s)) << s;
        EXPECT_TRUE(has_symbol(code, s + ".kd")) << s << ": no kernel descriptor";
        EXPECT_EQ(kernel->symbol, s + ".kd");
        EXPECT_FALSE(kernel->params.empty()) << s;
      }
    }
  }
}

TEST_F(Hiprtc, AVariantWithGeometryAnArrayAndRestrictCompiles) {
  // What a launch's variant may hold besides values: a constant gridDim and blockDim, a
  // constant array in place of a pointer, and the __restrict__ its kernel declares
  // (tests/kernels/restricted.cu: x, w, y restricted; w becomes an array, scale a value).
  detail::Specialization spec;
  spec.constants = {detail::make_constant<float>(3, 2.0f)};
  spec.block = Dim3{64};
  spec.grid = Dim3{16};
  std::string weights(16 * sizeof(float), '\0');
  for (std::size_t i = 0; i < 16; ++i) {
    const float w = 0.25f * static_cast<float>(i);
    std::memcpy(weights.data() + i * sizeof(float), &w, sizeof w);
  }
  spec.arrays = {{1, sizeof(float), std::make_shared<const std::string>(weights), 1}};
  const backend::Binary b = compile(test::variant_request("restricted.cu", "scaled_sum", 5, spec));
  ASSERT_EQ(b.kernel_symbols, std::vector<std::string>{"__kjit_variant"});
  const CodeObject code = read_code_object(b.bytes, "variant");
  ASSERT_EQ(code.kernels.size(), 1U);
  EXPECT_EQ(code.kernels[0].params.size(), 3U);  // x, y, n
  EXPECT_EQ(code.kernels[0].max_threads_per_block, 64U);
}

TEST_F(Hiprtc, AVariantKeepsTheThreadsOfTheLaunchBoundsItsKernelDeclares) {
  detail::Specialization spec;
  spec.constants = {detail::make_constant<float>(2, 2.5f)};
  const backend::Binary b =
      compile(test::variant_request("bounded.cu", "scale_bounded", 4, spec, 1024));
  const CodeObject code = read_code_object(b.bytes, "variant");
  ASSERT_EQ(code.kernels.size(), 1U);
  EXPECT_EQ(code.kernels[0].max_threads_per_block, 64U);
}

/// Real kernel files as their projects build them (tests/corpus): the headers they include from
/// disk (helper_cuda.h, helper_string.h) lose their host code as on the other backends, and what
/// device code uses without an include (clock_t, umin, assert) is there.
TEST_F(Hiprtc, ASpecialisedVariantHasOneKernelWithItsLaunchBounds) {
  const backend::Binary b = compile(test::saxpy_variant_request());
  ASSERT_EQ(b.kernel_symbols, std::vector<std::string>{"__kjit_variant"});
  const CodeObject code = read_code_object(b.bytes, "variant");
  ASSERT_EQ(code.kernels.size(), 1U);
  EXPECT_EQ(code.kernels[0].name, "__kjit_variant");
  EXPECT_EQ(code.kernels[0].params.size(), 3U);  // stride, x, y
  EXPECT_EQ(code.kernels[0].max_threads_per_block, 128U);
}

TEST_F(Hiprtc, CorpusFilesWithHostHeadersFromDiskCompile) {
  const std::filesystem::path samples =
      std::filesystem::path(KJIT_SOURCE_DIR) / "tests/corpus/cuda-samples";
  const std::vector<std::pair<std::string, std::vector<std::string>>> files = {
      {"0_Introduction/vectorAdd/vectorAdd.cu", {"vectorAdd"}},
      {"0_Introduction/matrixMul/matrixMul.cu", {"MatrixMulCUDA<16>"}},
      {"0_Introduction/clock_nvrtc/clock_kernel.cu", {"timedReduction"}},
      {"0_Introduction/simpleAssert_nvrtc/simpleAssert_kernel.cu", {"testKernel"}},
      {"0_Introduction/mergeSort/mergeSort.cu",
       {"mergeSortSharedKernel<1U>", "generateSampleRanksKernel<1U>", "mergeRanksAndIndicesKernel",
        "mergeElementaryIntervalsKernel<1U>"}},
      {"2_Concepts_and_Techniques/convolutionSeparable/convolutionSeparable.cu",
       {"convolutionRowsKernel", "convolutionColumnsKernel"}},
      {"2_Concepts_and_Techniques/scan/scan.cu",
       {"scanExclusiveShared", "scanExclusiveShared2", "uniformUpdate"}},
      {"5_Domain_Specific/binomialOptions/binomialOptions_kernel.cu", {"binomialOptionsKernel"}},
      {"5_Domain_Specific/quasirandomGenerator/quasirandomGenerator_kernel.cu",
       {"quasirandomGeneratorKernel", "inverseCNDKernel"}},
  };
  for (const auto& [file, kernels] : files) {
    SCOPED_TRACE(file);
    const std::filesystem::path path = samples / "Samples" / file;
    std::ifstream in(path);
    std::ostringstream text;
    text << in.rdbuf();
    backend::CompileRequest r;
    r.program_name = file;
    r.source = text.str();
    r.source_path = path;
    r.include_dirs = {samples / "Common"};
    r.kernel_names = kernels;
    r.kernel_signatures.resize(kernels.size());
    const backend::Binary b = compile(r);
    EXPECT_EQ(b.format, "hsaco");
    EXPECT_EQ(b.kernel_symbols.size(), kernels.size());
  }
}

TEST_F(Hiprtc, EveryKernelHeaderCaseCompiles) {
  for (const test::HeaderCase& c : test::header_cases()) {
    SCOPED_TRACE(c.header);
    const backend::Binary b = compile(test::request_for_text(c.header + ".cu", c.source, "check"));
    EXPECT_EQ(b.format, "hsaco");
    EXPECT_TRUE(has_symbol(read_code_object(b.bytes, c.header), b.kernel_symbols.at(0)));
  }
}

TEST_F(Hiprtc, CooperativeGroupsAreHipRtcsOwnWhereItHasThem) {
  if (!has_builtin_cooperative_groups(*api, parse_amdgpu_target("gfx90a"))) {
    for (const KernelFile& k : kernel_files()) {
      if (uses_cooperative_groups(k)) {
        EXPECT_EQ(compile(request_for(k)).format, "hsaco") << k.file;
      }
    }
    return;
  }
  // HIP's own (an older API than CUDA 12's, which kjit's test kernels use): what both have.
  const backend::Binary b =
      compile(test::request_for_text("hip_groups.cu",
                                     "#include <cooperative_groups.h>\n"
                                     "namespace cg = cooperative_groups;\n"
                                     "__global__ void check(int* p) {\n"
                                     "  cg::thread_block b = cg::this_thread_block();\n"
                                     "  p[b.thread_rank()] = b.size();\n"
                                     "  b.sync();\n"
                                     "}\n",
                                     "check"));
  EXPECT_EQ(b.format, "hsaco");
}

TEST_F(Hiprtc, AnErrorInKjitsHeaderStandsAtTheUsersLineThatCausedIt) {
  if (has_builtin_cooperative_groups(*api, parse_amdgpu_target("gfx90a"))) {
    GTEST_SKIP() << hiprtc_identity(*api)
                 << " has cooperative groups of its own, where a grid-wide sync compiles";
  }
  try {
    compile(test::request_for_text("grid.cu",
                                   "#include <cooperative_groups.h>\n"
                                   "__global__ void check(int* p) {\n"
                                   "  cooperative_groups::this_grid().sync();\n"
                                   "}\n",
                                   "check"));
    FAIL() << "compiled";
  } catch (const CompileError& e) {
    EXPECT_EQ(e.file(), "grid.cu") << e.what();
    EXPECT_EQ(e.line(), 3U) << e.what();
    EXPECT_NE(std::string(e.what()).find("(at <kjit>/cooperative_groups.h:"), std::string::npos)
        << e.what();
  }
}

TEST_F(Hiprtc, ParameterLayoutsComeFromTheMetadata) {
  backend::CompileRequest r;
  r.program_name = "layout.cu";
  r.source =
      "struct Pair { double a; int b; };\n"
      "__global__ void k(const float* x, Pair p, char c, float* y, int n) {\n"
      "  __shared__ float tile[64];\n"
      "  tile[threadIdx.x] = x[threadIdx.x] + p.a + c;\n"
      "  __syncthreads();\n"
      "  if (threadIdx.x < n) y[threadIdx.x] = tile[63 - threadIdx.x] + p.b;\n"
      "}\n";
  r.kernel_names = {"k"};
  const backend::Binary b = compile(r);
  const CodeObject code = read_code_object(b.bytes, "layout.cu");
  const CodeObjectKernel* k = code.kernel(b.kernel_symbols.at(0));
  ASSERT_NE(k, nullptr);
  ASSERT_EQ(k->params.size(), 5U);
  const std::vector<std::pair<std::size_t, std::size_t>> want = {
      {0, 8}, {8, 16}, {24, 1}, {32, 8}, {40, 4}};
  for (std::size_t i = 0; i < want.size(); ++i) {
    EXPECT_EQ(k->params[i].offset, want[i].first) << "parameter " << i;
    EXPECT_EQ(k->params[i].size, want[i].second) << "parameter " << i;
  }
  EXPECT_EQ(k->static_shared_bytes, 64 * sizeof(float));
  EXPECT_GE(k->max_threads_per_block, 256U);
}

TEST_F(Hiprtc, AThousandFailingCompilesLeaveItWorking) {
  test::compile_failures_leave_the_compiler_working(
      [&](const backend::CompileRequest& r) { return compile(r); });
}

TEST_F(Hiprtc, CompileErrorsAreLocatedInTheUsersFile) {
  backend::CompileRequest r;
  r.program_name = "mine.cu";
  r.source = "__global__ void k(int* v) {\n  v[0] = 1;\n  v[1] = undefined_name;\n}\n";
  r.kernel_names = {"k"};
  try {
    (void)compile(r);
    ADD_FAILURE() << "compiled";
  } catch (const CompileError& e) {
    EXPECT_EQ(e.file(), "mine.cu");
    EXPECT_EQ(e.line(), 3U);
    EXPECT_NE(std::string(e.what()).find("mine.cu:3:10: error:"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("undefined_name"), std::string::npos) << e.what();
  }
}

TEST_F(Hiprtc, ManagedVariablesAreAnErrorThatNamesThem) {
  const backend::CompileRequest r = test::request_for_text(
      "managed.cu", "__managed__ int counter;\n__global__ void k(int* o) {\n  o[0] = counter;\n}\n",
      "k");
  try {
    (void)compile(r);
    ADD_FAILURE() << "compiled";
  } catch (const CompileError& e) {
    EXPECT_EQ(e.line(), 3U) << e.what();
    EXPECT_NE(
        std::string(e.what()).find("__managed__ memory is not supported by kjit's HIP backend"),
        std::string::npos)
        << e.what();
  }
}

TEST_F(Hiprtc, ErrorsInHeadersNameTheHeader) {
  backend::CompileRequest r;
  r.program_name = "main.cu";
  r.source = "#include \"helper.h\"\n__global__ void k(int* v) { v[0] = helper(); }\n";
  r.headers = {{"helper.h", "__device__ int helper() {\n  return missing_thing;\n}\n"}};
  r.kernel_names = {"k"};
  try {
    (void)compile(r);
    ADD_FAILURE() << "compiled";
  } catch (const CompileError& e) {
    EXPECT_NE(std::string(e.what()).find("helper.h:2:"), std::string::npos) << e.what();
  }
  r.headers = {{"helper.h", "__device__ int helper() { return 7; }\n"}};
  EXPECT_EQ(compile(r).kernel_symbols.size(), 1U);

  // A header from disk: named by its path, not by hipRTC's temporary copy of it.
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("kjit-hiprtc-disk-" + std::to_string(getpid()));
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "helper.h") << "__device__ int helper() {\n  return missing_thing;\n}\n";
  r.headers.clear();
  r.include_dirs = {dir};
  try {
    (void)compile(r);
    ADD_FAILURE() << "compiled";
  } catch (const CompileError& e) {
    EXPECT_EQ(e.file(), (dir / "helper.h").string()) << e.what();
    EXPECT_EQ(e.line(), 2U) << e.what();
  }
  std::filesystem::remove_all(dir);
}

TEST_F(Hiprtc, UnknownNamesDeviceFunctionsAndTemplatesNeedingTypes) {
  backend::CompileRequest r;
  r.program_name = "names.cu";
  r.source =
      "template <class T> __global__ void scale(T* v, T f) { v[threadIdx.x] *= f; }\n"
      "__global__ void good(int* v) {}\n"
      "__device__ int helper(int x) { return x + 1; }\n";
  r.kernel_names = {"good", "missing"};
  try {
    (void)compile(r);
    ADD_FAILURE() << "compiled";
  } catch (const KernelNotFoundError& e) {
    EXPECT_NE(std::string(e.what()).find("'missing'"), std::string::npos) << e.what();
    EXPECT_EQ(std::string(e.what()).find("'good'"), std::string::npos) << e.what();
  }
  r.kernel_names = {"helper"};
  try {
    (void)compile(r);
    ADD_FAILURE() << "a __device__ function compiled as a kernel";
  } catch (const KernelNotFoundError& e) {
    EXPECT_NE(std::string(e.what()).find("not a __global__ function"), std::string::npos)
        << e.what();
  }
  r.kernel_names = {"scale"};  // a template: the name alone does not say which
  EXPECT_THROW((void)compile(r), KernelNotFoundError);
  r.kernel_signatures = {std::string("float*, float")};  // the types do
  EXPECT_EQ(compile(r).kernel_symbols.at(0), "_Z5scaleIfEvPT_S0_");
}

TEST_F(Hiprtc, FixedWidthTypesDefinesAndThePreludeAsOnTheOtherBackends) {
  backend::CompileRequest r;
  r.program_name = "types.cu";
  r.source =
      "#if !defined(__KJIT__) || !defined(__KJIT_HIP__)\n#error no prelude\n#endif\n"
      "__global__ void k(int32_t* a, uint64_t* b, int8_t c, size_t n) { a[0] = VALUE; }\n";
  r.kernel_names = {"k"};
  r.defines = {{"VALUE", "42"}};
  // hipRTC's own uint64_t is unsigned long long ('y'); NVRTC's and the CPU's are unsigned long.
  EXPECT_EQ(compile(r).kernel_symbols.at(0), "_Z1kPiPyam");
  r.defines.clear();
  EXPECT_THROW((void)compile(r), CompileError);
}

TEST_F(Hiprtc, ArchsHipRtcDoesNotKnowAreRefusedBeforeReachingIt) {
  // gfx942 postdates ROCm 5.2: passing it to hipRTC would abort this process.
  if (is_known(api->isas, "gfx942")) {
    GTEST_SKIP() << "this hipRTC (" << hiprtc_identity(*api) << ") knows gfx942";
  }
  try {
    HiprtcCompiler compiler(*api, parse_amdgpu_target("gfx942"), "hip:gfx942");
    ADD_FAILURE() << "a compiler was made for gfx942";
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("gfx942"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("gfx90a"), std::string::npos) << e.what();
  }
  // Features a processor lacks also abort hipRTC: they never parse.
  EXPECT_THROW((void)parse_amdgpu_target("gfx1030:xnack+"), ConfigError);
  EXPECT_THROW((void)create_backend()->offline_compiler("gfx942"), ConfigError);
  EXPECT_THROW((void)create_backend()->offline_compiler("sm_90"), ConfigError);
  // The process and hipRTC are still fine.
  backend::CompileRequest r = request_for(kernel_files().front());
  EXPECT_EQ(compile(r, "gfx90a:sramecc+:xnack-").kernel_symbols.size(), 1U);
}

TEST_F(Hiprtc, IdentityNamesTheTargetAndTheCompiler) {
  HiprtcCompiler a(*api, parse_amdgpu_target("gfx90a"), "a");
  HiprtcCompiler b(*api, parse_amdgpu_target("gfx90a:xnack-"), "b");
  const backend::TargetIdentity ia = a.identity();
  const backend::TargetIdentity ib = b.identity();
  EXPECT_EQ(ia.target, "hip:gfx90a");
  EXPECT_EQ(ib.target, "hip:gfx90a:xnack-");
  EXPECT_NE(ia.facts, ib.facts);
  EXPECT_EQ(ia.facts.at(0).first, "hiprtc");
  EXPECT_NE(ia.facts.at(0).second.find(std::to_string(api->major)), std::string::npos);
  // The files a remembered identity is checked against: hipRTC's library and comgr's.
  ASSERT_EQ(ia.files.size(), 2U);
  for (const std::filesystem::path& file : ia.files) {
    EXPECT_TRUE(std::filesystem::is_regular_file(file)) << file;
    EXPECT_EQ(file, std::filesystem::canonical(file));
  }
  EXPECT_NE(ia.files[1].filename().string().find("comgr"), std::string::npos) << ia.files[1];
}

}  // namespace
}  // namespace kjit::hip
