// The CUDA backend's compiler without a GPU: every kernel of kernels/ compiled by NVRTC for
// sm_90 to a CUBIN (an NVIDIA ELF object) and to PTX (accepted by ptxas), and compile errors
// located in the user's file. Runs wherever NVRTC is installed; says so when it is not.
#include "backends/cuda/nvrtc_api.hpp"
#include "backends/cuda/nvrtc_compiler.hpp"
#include "backends/kit/device_variables.hpp"
#include "compile_failures.hpp"
#include "kernel_files.hpp"
#include "kernel_header_cases.hpp"
#include "variant_request.hpp"

#include <kjit/error.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

namespace kjit::cuda {
namespace {

using test::kernel_files;
using test::KernelFile;
using test::request_for;

class Nvrtc : public ::testing::Test {
 public:
  void SetUp() override {
    std::string why;
    api = nvrtc_api(why);
    if (api == nullptr) {
      GTEST_SKIP() << "NVRTC is not available: " << why;
    }
  }
  const NvrtcApi* api = nullptr;
};

TEST_F(Nvrtc, AThousandFailingCompilesLeaveItWorking) {
  test::compile_failures_leave_the_compiler_working([&](const backend::CompileRequest& r) {
    return compile_with_nvrtc(*api, r, {90, true}, "sm_90");
  });
}

TEST_F(Nvrtc, EveryKernelCompilesToAnSm90Cubin) {
  for (const KernelFile& k : kernel_files()) {
    const backend::Binary b = compile_with_nvrtc(*api, request_for(k), {90, true}, "sm_90");
    ASSERT_EQ(b.format, "cubin") << k.file;
    ASSERT_GT(b.bytes.size(), 64U) << k.file;
    EXPECT_EQ(b.bytes[0], 0x7f);
    EXPECT_EQ(b.bytes[1], 'E');
    EXPECT_EQ(b.bytes[2], 'L');
    EXPECT_EQ(b.bytes[3], 'F');
    const unsigned machine = b.bytes[18] | (b.bytes[19] << 8);
    EXPECT_EQ(machine, 190U) << k.file << ": e_machine must be EM_CUDA";
    ASSERT_EQ(b.kernel_symbols.size(), k.names.size());
    for (const std::string& s : b.kernel_symbols) {
      EXPECT_FALSE(s.empty());
    }
  }
}

TEST_F(Nvrtc, DeviceVariablesAreFoundInTheCubinAndThePtx) {
  const auto symbols_cu =
      std::find_if(kernel_files().begin(), kernel_files().end(),
                   [](const KernelFile& k) { return std::string(k.file).ends_with("symbols.cu"); });
  ASSERT_NE(symbols_cu, kernel_files().end());
  const auto names = [](const std::vector<backend::DeviceVariable>& found) {
    std::map<std::string, std::size_t> sized;
    for (const backend::DeviceVariable& v : found) {
      sized[v.name] = v.size;
    }
    return sized;
  };
  const std::map<std::string, std::size_t> want{
      {"c_taps", 68}, {"c_scale", 8}, {"s_offset", 4}, {"d_count", 4}, {"filters::bias", 4}};
  const backend::Binary cubin =
      compile_with_nvrtc(*api, request_for(*symbols_cu), {90, true}, "sm_90");
  EXPECT_EQ(names(backend::elf_device_variables(cubin.bytes)), want);
  const backend::Binary ptx =
      compile_with_nvrtc(*api, request_for(*symbols_cu), {90, false}, "sm_90");
  EXPECT_EQ(names(backend::ptx_device_variables(
                std::string(reinterpret_cast<const char*>(ptx.bytes.data()), ptx.bytes.size()))),
            want);
}

TEST_F(Nvrtc, EveryKernelHeaderCaseCompiles) {
  for (const test::HeaderCase& c : test::header_cases()) {
    SCOPED_TRACE(c.header);
    const backend::Binary b = compile_with_nvrtc(
        *api, test::request_for_text(c.header + ".cu", c.source, "check"), {90, true}, "sm_90");
    EXPECT_EQ(b.format, "cubin");
    EXPECT_TRUE(b.log.empty()) << b.log;  // no warnings, about host functions or else
  }
}

/// Compiling `r` must fail at `line` of its own file, saying `says`.
void expect_error_at(const NvrtcApi& api, const backend::CompileRequest& r, unsigned line,
                     const std::string& says) {
  try {
    compile_with_nvrtc(api, r, {90, true}, "sm_90");
    FAIL() << "compiled";
  } catch (const CompileError& e) {
    EXPECT_EQ(e.file(), r.program_name) << e.what();
    EXPECT_EQ(e.line(), line) << e.what();
    EXPECT_NE(std::string(e.what()).find(says), std::string::npos) << e.what();
  }
}

TEST_F(Nvrtc, AKernelCallingAHostFunctionIsAnErrorAtTheCall) {
  const auto r = test::request_for_text("host_call.cu",
                                        "#include <cuda_runtime.h>\n"
                                        "void launch(float* p) { cudaMemset(p, 0, 4); }\n"
                                        "__global__ void check(float* p) {\n"
                                        "  launch(p);\n"
                                        "}\n",
                                        "check");
  expect_error_at(*api, r, 4, "'launch' is a host function");
}

TEST_F(Nvrtc, ReadingATextureReferenceIsAnErrorAtTheReadNamingIt) {
  const auto r = test::request_for_text("texref.cu",
                                        "#include <cuda_runtime.h>\n"
                                        "texture<float, 2, cudaReadModeElementType> tex;\n"
                                        "__global__ void check(float* p) {\n"
                                        "  p[0] = tex2D(tex, 0.5f, 0.5f);\n"
                                        "}\n",
                                        "check");
  expect_error_at(*api, r, 4, "texture references");
  // Texture objects, which replaced them, still compile.
  const auto objects =
      test::request_for_text("texobj.cu",
                             "__global__ void check(float* p, cudaTextureObject_t t) {\n"
                             "  p[0] = tex2D<float>(t, 0.5f, 0.5f) + tex1Dfetch<float>(t, 3);\n"
                             "}\n",
                             "check");
  EXPECT_EQ(compile_with_nvrtc(*api, objects, {90, true}, "sm_90").format, "cubin");
}

TEST_F(Nvrtc, AnErrorInKjitsHeaderStandsAtTheUsersLineThatCausedIt) {
  try {
    compile_with_nvrtc(*api,
                       test::request_for_text("grid.cu",
                                              "#include <cooperative_groups.h>\n"
                                              "__global__ void check(int* p) {\n"
                                              "  cooperative_groups::this_grid().sync();\n"
                                              "}\n",
                                              "check"),
                       {90, true}, "sm_90");
    FAIL() << "compiled";
  } catch (const CompileError& e) {
    EXPECT_EQ(e.file(), "grid.cu") << e.what();
    EXPECT_EQ(e.line(), 3U) << e.what();
    EXPECT_NE(std::string(e.what()).find("(at <kjit>/cooperative_groups.h:"), std::string::npos)
        << e.what();
    EXPECT_NE(std::string(e.what()).find("note: in instantiation of"), std::string::npos)
        << e.what();
  }
}

TEST_F(Nvrtc, EveryKernelCompilesToPtxThatPtxasAccepts) {
  const std::filesystem::path ptxas = "/usr/local/cuda/bin/ptxas";
  if (!std::filesystem::exists(ptxas)) {
    GTEST_SKIP() << "ptxas is not installed at " << ptxas << ", so PTX cannot be checked";
  }
  const auto dir = std::filesystem::temp_directory_path() / "kjit_ptx_check";
  std::filesystem::create_directories(dir);
  for (const KernelFile& k : kernel_files()) {
    const backend::Binary b = compile_with_nvrtc(*api, request_for(k), {90, false}, "compute_90");
    ASSERT_EQ(b.format, "ptx");
    ASSERT_EQ(b.bytes.back(), 0) << "PTX must stay NUL-terminated for the driver";
    const std::string text(b.bytes.begin(), b.bytes.end() - 1);
    EXPECT_NE(text.find(".target sm_90"), std::string::npos) << k.file;
    const auto file = dir / (std::filesystem::path(k.file).stem().string() + ".ptx");
    std::ofstream(file) << text;
    const std::string command = ptxas.string() + " -arch=sm_90 " + file.string() + " -o " +
                                (dir / "out.cubin").string() + " 2>&1";
    EXPECT_EQ(std::system(command.c_str()), 0) << k.file << ": ptxas rejected the PTX";
  }
  std::filesystem::remove_all(dir);
}

TEST_F(Nvrtc, AnAnnotatedKernelsVariantCompilesAndFoldsItsValues) {
  // Without a warning: NVRTC would warn of annotate("jit", ...), an attribute it does not know.
  const backend::Binary b =
      compile_with_nvrtc(*api, test::annotated_variant_request(), {90, false}, "sm_90");
  const std::string ptx(b.bytes.begin(), b.bytes.end() - 1);
  ASSERT_EQ(b.kernel_symbols, std::vector<std::string>{"__kjit_variant"});
  EXPECT_TRUE(b.log.empty()) << b.log;
  // x, y and n stay parameters; steps and scale are gone.
  EXPECT_NE(ptx.find("__kjit_variant_param_2"), std::string::npos) << ptx;
  EXPECT_EQ(ptx.find("__kjit_variant_param_3"), std::string::npos) << ptx;
  EXPECT_NE(ptx.find("0f3F000000"), std::string::npos) << "scale = 0.5 as an immediate\n" << ptx;
}

TEST_F(Nvrtc, AnAnnotationInAnIncludedHeaderIsBlankedAsInTheMainFile) {
  // The core reads annotations in headers too; NVRTC would warn of the attribute (#1097).
  backend::CompileRequest r;
  r.program_name = "main.cu";
  r.source = "#include \"step.h\"\n";
  r.headers = {{"step.h",
                "__global__ __attribute__((annotate(\"jit\", 2))) void step(float* y, int n) "
                "{ y[0] = n; }\n"}};
  r.kernel_names = {"step"};
  r.kernel_signatures.resize(1);
  const backend::Binary b = compile_with_nvrtc(*api, r, {90, false}, "sm_90");
  EXPECT_EQ(b.kernel_symbols.size(), 1U);
  EXPECT_TRUE(b.log.empty()) << b.log;
}

TEST_F(Nvrtc, ASpecialisedVariantFoldsItsValues) {
  const backend::Binary b =
      compile_with_nvrtc(*api, test::saxpy_variant_request(), {90, false}, "sm_90");
  const std::string ptx(b.bytes.begin(), b.bytes.end() - 1);
  ASSERT_EQ(b.kernel_symbols, std::vector<std::string>{"__kjit_variant"});
  // One entry, of the three parameters left (stride, x, y), the others demoted and gone.
  EXPECT_NE(ptx.find(".entry __kjit_variant("), std::string::npos) << ptx;
  EXPECT_NE(ptx.find("__kjit_variant_param_2"), std::string::npos) << ptx;
  EXPECT_EQ(ptx.find("__kjit_variant_param_3"), std::string::npos) << ptx;
  EXPECT_EQ(ptx.find(".entry _Z"), std::string::npos) << ptx;
  // Blocks of 128: bounds would cap no registers, so they are not written (cuda_prelude.h).
  EXPECT_EQ(ptx.find(".maxntid"), std::string::npos) << ptx;
  EXPECT_NE(ptx.find("0f40200000"), std::string::npos) << "a = 2.5 as an immediate\n" << ptx;
  EXPECT_NE(ptx.find("1000"), std::string::npos) << "n = 1000 as an immediate\n" << ptx;
}

TEST_F(Nvrtc, AVariantKeepsTheRestrictItsKernelDeclares) {
  // A function's type forgets __restrict__: spelled again on the variant's parameters, the
  // read-only arrays are read through the read-only path (ld.global.nc), as in the kernel itself.
  // wsm5's kernel (benchmarks/programs/wsm5/upstream/kernel.h), as its annotation folds it: NVVM
  // read none of them so without the promise, and the variant took 149 ms instead of 101.
  const std::filesystem::path file = std::filesystem::path(KJIT_SOURCE_DIR) / "benchmarks" /
                                     "programs" / "wsm5" / "upstream" / "kernel.h";
  std::ifstream in(file);
  std::ostringstream text;
  text << in.rdbuf();
  detail::Specialization spec;
  spec.constants.push_back(detail::make_constant<float>(15, 10.0f));
  const int bounds[18] = {1, 60, 1, 46, 1, 3, 1, 60, 1, 46, 1, 3, 1, 60, 1, 46, 1, 3};
  for (std::size_t b = 0; b < 18; ++b) {
    spec.constants.push_back(detail::make_constant<int>(16 + b, bounds[b]));
  }
  backend::CompileRequest r;
  r.program_name = file.string();
  r.source_path = file;
  r.include_dirs = {file.parent_path()};
  r.defines = {{"MKX", "4"}};
  r.source = detail::variant_source(text.str(), "wsm", "&wsm", 34, spec, std::nullopt);
  r.kernel_names = {std::string(detail::kVariantKernel)};
  r.kernel_signatures.resize(1);
  const backend::Binary b = compile_with_nvrtc(*api, r, {90, false}, "sm_90");
  const std::string ptx(b.bytes.begin(), b.bytes.end() - 1);
  EXPECT_NE(ptx.find("ld.global.nc"), std::string::npos) << ptx;
  // Where a kernel promises nothing, neither does its variant.
  spec.constants = {detail::make_constant<float>(3, 2.0f)};
  const backend::Binary aliased = compile_with_nvrtc(
      *api, test::variant_request("restricted.cu", "scaled_sum_aliased", 5, spec), {90, false},
      "sm_90");
  const std::string aliased_ptx(aliased.bytes.begin(), aliased.bytes.end() - 1);
  EXPECT_EQ(aliased_ptx.find("ld.global.nc"), std::string::npos) << aliased_ptx;
}

TEST_F(Nvrtc, AVariantHasLaunchBoundsWhereTheyCapRegisters) {
  // Of a fixed block, else of the kernel's own limit; written above 256 threads only.
  struct Case {
    std::optional<Dim3> block;
    std::optional<std::size_t> limit;
    const char* maxntid;  // nullptr: none
  };
  const Case cases[] = {{std::nullopt, std::nullopt, nullptr},
                        {std::nullopt, 192, nullptr},
                        {std::nullopt, 512, ".maxntid 512, 1, 1"},
                        {Dim3{16, 16}, std::nullopt, nullptr},
                        {Dim3{32, 24}, std::nullopt, ".maxntid 768, 1, 1"},
                        {Dim3{32, 24}, 1000, ".maxntid 768, 1, 1"}};
  for (const Case& c : cases) {
    detail::Specialization spec;
    spec.constants = {detail::make_constant<int>(0, 1000)};
    spec.block = c.block;
    const backend::Binary b =
        compile_with_nvrtc(*api, test::saxpy_variant_request(spec, c.limit), {90, false}, "sm_90");
    const std::string ptx(b.bytes.begin(), b.bytes.end() - 1);
    if (c.maxntid != nullptr) {
      EXPECT_NE(ptx.find(c.maxntid), std::string::npos) << c.maxntid << "\n" << ptx;
    } else {
      EXPECT_EQ(ptx.find(".maxntid"), std::string::npos) << ptx;
    }
  }
}

TEST_F(Nvrtc, AVariantKeepsTheLaunchBoundsItsKernelDeclares) {
  // Bounds of (64, 8) cap a thread of LULESH's kinematics kernel at 128 registers; its variant
  // without them took 204, and half the warps. Declared bounds win over a fixed block's.
  for (const std::optional<Dim3> block : {std::optional<Dim3>{}, std::optional<Dim3>{Dim3{32}}}) {
    detail::Specialization spec;
    spec.constants = {detail::make_constant<float>(2, 2.5f)};
    spec.block = block;
    const backend::Binary b = compile_with_nvrtc(
        *api, test::variant_request("bounded.cu", "scale_bounded", 4, spec, 1024), {90, false},
        "sm_90");
    const std::string ptx(b.bytes.begin(), b.bytes.end() - 1);
    EXPECT_NE(ptx.find(".maxntid 64, 1, 1"), std::string::npos) << ptx;
    EXPECT_NE(ptx.find(".minnctapersm 8"), std::string::npos) << ptx;
  }
}

TEST_F(Nvrtc, CompileErrorsAreLocatedInTheUsersFile) {
  backend::CompileRequest r;
  r.program_name = "mine.cu";
  r.source = "__global__ void k(int* v) {\n  v[0] = 1;\n  v[1] = undefined_name;\n}\n";
  r.kernel_names = {"k"};
  try {
    (void)compile_with_nvrtc(*api, r, {90, true}, "sm_90");
    ADD_FAILURE() << "compiled";
  } catch (const CompileError& e) {
    EXPECT_EQ(e.file(), "mine.cu");
    EXPECT_EQ(e.line(), 3U);
    EXPECT_NE(std::string(e.what()).find("mine.cu:3:10: error:"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("undefined_name"), std::string::npos) << e.what();
    EXPECT_EQ(std::string(e.what()).find("kjit_cuda_prelude"), std::string::npos) << e.what();
  }
}

TEST_F(Nvrtc, UnclosedBraceIsReportedWhereItOpens) {
  backend::CompileRequest r;
  r.program_name = "brace.cu";
  r.source = "__global__ void k(int* v) {\n  v[0] = 1;\n";
  r.kernel_names = {"k"};
  try {
    (void)compile_with_nvrtc(*api, r, {90, true}, "sm_90");
    ADD_FAILURE() << "compiled";
  } catch (const CompileError& e) {
    EXPECT_EQ(e.file(), "brace.cu");
    EXPECT_EQ(e.line(), 1U);
    EXPECT_NE(std::string(e.what()).find("to match this"), std::string::npos) << e.what();
  }
}

TEST_F(Nvrtc, UnknownNamesAndTemplatesNeedingTypes) {
  backend::CompileRequest r;
  r.program_name = "names.cu";
  r.source =
      "template <class T> __global__ void scale(T* v, T f) { v[threadIdx.x] *= f; }\n"
      "__global__ void good(int* v) {}\n";
  r.kernel_names = {"good", "missing"};
  try {
    (void)compile_with_nvrtc(*api, r, {90, true}, "sm_90");
    ADD_FAILURE() << "compiled";
  } catch (const KernelNotFoundError& e) {
    EXPECT_NE(std::string(e.what()).find("'missing'"), std::string::npos) << e.what();
    EXPECT_EQ(std::string(e.what()).find("'good'"), std::string::npos) << e.what();
  }
  r.kernel_names = {"scale"};  // a template: the name alone does not say which
  EXPECT_THROW((void)compile_with_nvrtc(*api, r, {90, true}, "sm_90"), KernelNotFoundError);
  r.kernel_signatures = {std::string("float*, float")};  // the types do
  const backend::Binary b = compile_with_nvrtc(*api, r, {90, true}, "sm_90");
  EXPECT_EQ(b.kernel_symbols.at(0), "_Z5scaleIfEvPT_S0_");
}

TEST_F(Nvrtc, FixedWidthTypesAndDefinesAsOnTheCpu) {
  backend::CompileRequest r;
  r.program_name = "types.cu";
  r.source = "__global__ void k(int32_t* a, uint64_t* b, int8_t c, size_t n) { a[0] = VALUE; }\n";
  r.kernel_names = {"k"};
  r.defines = {{"VALUE", "42"}};
  EXPECT_EQ(compile_with_nvrtc(*api, r, {90, true}, "sm_90").kernel_symbols.at(0), "_Z1kPiPmam");
}

TEST_F(Nvrtc, TargetsFollowWhatNvrtcSupports) {
  EXPECT_EQ(target_for_device(*api, 90).name(), "sm_90");
  const NvrtcTarget future = target_for_device(*api, 990);  // newer than any NVRTC knows
  EXPECT_FALSE(future.cubin);
  EXPECT_LT(future.arch, 990);
  EXPECT_THROW((void)target_for_device(*api, 10), BackendError);
}

// What the disk cache remembers NVRTC's identity by (identity_memo_test.cpp tests the memo).
TEST_F(Nvrtc, ADeviceCompilerNamesItsLibraryAndProbesWithoutLoading) {
  NvrtcCompiler device_compiler([this]() -> const NvrtcApi& { return *api; },
                                [](const NvrtcApi& nvrtc) { return target_for_device(nvrtc, 90); },
                                "cuda:0", "a device of sm_90");
  const backend::TargetIdentity identity = device_compiler.identity();
  EXPECT_EQ(identity.target, "cuda:sm_90");
  ASSERT_EQ(identity.files.size(), 1U);
  const std::filesystem::path& file = identity.files[0];
  EXPECT_TRUE(std::filesystem::is_regular_file(file)) << file;
  EXPECT_EQ(file, std::filesystem::canonical(file));
  EXPECT_EQ(file.filename().string().rfind("libnvrtc.so", 0), 0U) << file;

  const std::optional<std::string> probe = device_compiler.identity_probe();
  ASSERT_TRUE(probe);
  EXPECT_EQ(probe->rfind("NVRTC for a device of sm_90\n", 0), 0U) << *probe;
  EXPECT_NE(probe->find("loaded " + api->library + " from "), std::string::npos) << *probe;

  // An offline compiler (kjit-warm) has NVRTC loaded already: it has no probe.
  NvrtcCompiler offline([this]() -> const NvrtcApi& { return *api; },
                        [](const NvrtcApi&) {
                          return NvrtcTarget{90, true};
                        },
                        "cuda:sm_90");
  EXPECT_FALSE(offline.identity_probe());
}

}  // namespace
}  // namespace kjit::cuda
