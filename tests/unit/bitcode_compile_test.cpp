// Bitcode compiled for GPUs without one: LLVM's NVPTX code generator makes PTX that ptxas
// accepts, LLVM's AMDGPU code generator and the linked-in lld make code objects (for gfx942 too,
// which ROCm 5.2's hipRTC cannot target), and bitcode for another target, a processor the bitcode
// was not made for, bytes that are not bitcode and names that are no kernel are clear errors.
// Host bitcode runs in the API suites (bitcode_test.cpp) on the CPU backend.
#include "backends/hip/code_object.hpp"
#include "backends/llvm/bitcode_compilers.hpp"

#include <kjit/error.hpp>

#include <gtest/gtest.h>

#include <unistd.h>
#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace kjit::bitcode {
namespace {

const std::vector<std::string>& example_kernels() {
  static const std::vector<std::string> names{
      "vadd",         "saxpy<float>",    "saxpy<double>",
      "histogram256", "reduce_sum<int>", "reduce_sum<float>",
  };
  return names;
}

std::string read(const std::string& name) {
  const std::filesystem::path path =
      std::filesystem::path(KJIT_SOURCE_DIR) / "kernels" / "bitcode" / name;
  std::ifstream in(path, std::ios::binary);
  std::ostringstream bytes;
  bytes << in.rdbuf();
  if (bytes.str().empty()) {
    ADD_FAILURE() << "cannot read " << path;
  }
  return bytes.str();
}

backend::CompileRequest request(const std::string& file,
                                std::vector<std::string> names = example_kernels()) {
  backend::CompileRequest r;
  r.program_name = file;
  r.input = backend::InputKind::bitcode;
  r.source = read(file);
  r.kernel_names = std::move(names);
  r.kernel_signatures.resize(r.kernel_names.size());
  return r;
}

std::string ptx_text(const backend::Binary& b) {
  return {b.bytes.begin(), std::find(b.bytes.begin(), b.bytes.end(), 0)};
}

/// ptxas from CUDA_HOME, /usr/local/cuda or PATH; "" when none.
std::string find_ptxas() {
  std::vector<std::filesystem::path> places;
  if (const char* home = std::getenv("CUDA_HOME")) {
    places.emplace_back(std::filesystem::path(home) / "bin" / "ptxas");
  }
  places.emplace_back("/usr/local/cuda/bin/ptxas");
  for (const auto& p : places) {
    if (std::filesystem::exists(p)) {
      return p.string();
    }
  }
  return std::system("command -v ptxas >/dev/null 2>&1") == 0 ? "ptxas" : "";
}

TEST(BitcodeNvptx, ExampleKernelsBecomePtxForTheDevicesArchitecture) {
  const backend::Binary b =
      nvptx_compiler(90, "cuda:sm_90", "cuda:sm_90")->compile(request("examples.sm_75.bc"));
  EXPECT_EQ(b.format, "ptx");
  ASSERT_FALSE(b.bytes.empty());
  EXPECT_EQ(b.bytes.back(), 0) << "the driver reads PTX as a C string";
  const std::string ptx = ptx_text(b);
  EXPECT_NE(ptx.find(".target sm_90"), std::string::npos) << ptx.substr(0, 400);
  ASSERT_EQ(b.kernel_symbols.size(), example_kernels().size());
  EXPECT_EQ(b.kernel_symbols[0], "_Z4vaddPKfS0_Pfi");
  EXPECT_EQ(b.kernel_symbols[1], "_Z5saxpyIfEvT_PKS0_PS0_i");
  EXPECT_EQ(b.kernel_symbols[2], "_Z5saxpyIdEvT_PKS0_PS0_i");
  for (const std::string& symbol : b.kernel_symbols) {
    EXPECT_NE(ptx.find(".entry " + symbol), std::string::npos) << symbol;
  }
}

TEST(BitcodeNvptx, PtxasAcceptsThePtx) {
  const std::string ptxas = find_ptxas();
  if (ptxas.empty()) {
    GTEST_SKIP() << "ptxas is not installed (CUDA_HOME, /usr/local/cuda, PATH): the PTX is not "
                    "assembled";
  }
  for (const int arch : {75, 80, 90}) {
    const backend::Binary b =
        nvptx_compiler(arch, "cuda", "cuda")->compile(request("examples.sm_75.bc"));
    const std::filesystem::path dir =
        std::filesystem::temp_directory_path() / ("kjit-ptxas-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    { std::ofstream(dir / "k.ptx") << ptx_text(b); }
    const std::string command = ptxas + " -arch=sm_" + std::to_string(arch) + " " +
                                (dir / "k.ptx").string() + " -o " + (dir / "k.cubin").string() +
                                " 2>" + (dir / "log").string();
    const int rc = std::system(command.c_str());
    std::ifstream log(dir / "log");
    std::ostringstream text;
    text << log.rdbuf();
    EXPECT_EQ(rc, 0) << "sm_" << arch << ": " << text.str();
    EXPECT_GT(std::filesystem::file_size(dir / "k.cubin"), 0U);
    std::filesystem::remove_all(dir);
  }
}

TEST(BitcodeNvptx, BitcodeForANewerGpuIsRefused) {
  try {
    (void)nvptx_compiler(60, "cuda:sm_60", "cuda:0")->compile(request("examples.sm_75.bc"));
    FAIL() << "sm_75 bitcode compiled for sm_60";
  } catch (const CompileError& e) {
    EXPECT_NE(std::string(e.what()).find("compiled for sm_75"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("cuda:0"), std::string::npos) << e.what();
  }
}

void expect_code_object(const backend::Binary& b, const std::string& target) {
  ASSERT_EQ(b.format, "hsaco");
  const hip::CodeObject code = hip::read_code_object(b.bytes, target);
  EXPECT_EQ(code.target, "amdgcn-amd-amdhsa--" + target);
  EXPECT_EQ(code.code_object_version(), 4);
  ASSERT_EQ(b.kernel_symbols.size(), example_kernels().size());
  for (const std::string& symbol : b.kernel_symbols) {
    const hip::CodeObjectKernel* k = code.kernel(symbol);
    ASSERT_NE(k, nullptr) << symbol << " in " << target;
    EXPECT_NE(std::find(code.symbols.begin(), code.symbols.end(), symbol + ".kd"),
              code.symbols.end())
        << symbol;
  }
  const hip::CodeObjectKernel* vadd = code.kernel("_Z4vaddPKfS0_Pfi");
  ASSERT_NE(vadd, nullptr);
  ASSERT_EQ(vadd->params.size(), 4U);
  EXPECT_EQ(vadd->params[3].offset, 24U);
  EXPECT_EQ(vadd->params[3].size, 4U);
  const hip::CodeObjectKernel* reduce = code.kernel("_Z10reduce_sumIiEvPKT_PS0_i");
  ASSERT_NE(reduce, nullptr);
  EXPECT_EQ(reduce->static_shared_bytes, 1024U * 4U) << "__shared__ int partial[1024]";
}

TEST(BitcodeAmdgpu, Gfx90aAndGfx942BitcodeBecomeCodeObjects) {
  expect_code_object(amdgpu_compiler({"gfx90a", {}, {}}, "hip:gfx90a", "hip:gfx90a")
                         ->compile(request("examples.gfx90a.bc")),
                     "gfx90a");
  // ROCm 5.2's hipRTC aborts on gfx942; LLVM's code generator knows it.
  expect_code_object(amdgpu_compiler({"gfx942", {}, {}}, "hip:gfx942", "hip:gfx942")
                         ->compile(request("examples.gfx942.bc")),
                     "gfx942");
}

TEST(BitcodeAmdgpu, TheDevicesSettingsGoIntoTheCodeObject) {
  expect_code_object(amdgpu_compiler({"gfx90a", true, false}, "hip:gfx90a:sramecc+:xnack-", "hip:0")
                         ->compile(request("examples.gfx90a.bc")),
                     "gfx90a:sramecc+:xnack-");
}

TEST(BitcodeAmdgpu, BitcodeForAnotherProcessorIsRefused) {
  try {
    (void)amdgpu_compiler({"gfx942", {}, {}}, "hip:gfx942", "hip:0")
        ->compile(request("examples.gfx90a.bc"));
    FAIL() << "gfx90a bitcode compiled for gfx942";
  } catch (const CompileError& e) {
    EXPECT_NE(std::string(e.what()).find("compiled for gfx90a"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("--offload-arch=gfx942"), std::string::npos) << e.what();
  }
}

TEST(BitcodeAmdgpu, AProcessorLlvmDoesNotKnowIsAConfigError) {
  EXPECT_THROW((void)amdgpu_compiler({"gfx9999", {}, {}}, "hip:gfx9999", "hip:gfx9999"),
               ConfigError);
}

TEST(Bitcode, BitcodeForAnotherTargetNamesBothTargets) {
  struct Case {
    std::unique_ptr<backend::Compiler> compiler;
    const char* file;
    const char* says;
  };
  std::vector<Case> cases;
  cases.push_back(
      {nvptx_compiler(90, "cuda:sm_90", "cuda:0"), "examples.gfx90a.bc", "amdgcn-amd-amdhsa"});
  cases.push_back({nvptx_compiler(90, "cuda:sm_90", "cuda:0"), "examples.host.bc", "x86_64"});
  cases.push_back({amdgpu_compiler({"gfx90a", {}, {}}, "hip:gfx90a", "hip:0"), "examples.sm_75.bc",
                   "nvptx64-nvidia-cuda"});
  for (Case& c : cases) {
    try {
      (void)c.compiler->compile(request(c.file));
      ADD_FAILURE() << c.file << " compiled for the wrong target";
    } catch (const CompileError& e) {
      const std::string what = e.what();
      EXPECT_NE(what.find(c.says), std::string::npos) << what;
      EXPECT_NE(what.find("cannot run"), std::string::npos) << what;
      EXPECT_NE(what.find("clang-19"), std::string::npos)
          << "says how to make the right one: " << what;
    }
  }
}

TEST(Bitcode, TruncatedOrCorruptBitcodeIsACompileError) {
  backend::CompileRequest r = request("examples.sm_75.bc");
  const std::string whole = r.source;
  for (const std::size_t keep :
       {std::size_t{4}, std::size_t{40}, whole.size() / 2, whole.size() - 1}) {
    r.source = whole.substr(0, keep);
    try {
      (void)nvptx_compiler(90, "cuda:sm_90", "cuda:0")->compile(r);
      ADD_FAILURE() << "bitcode cut to " << keep << " bytes compiled";
    } catch (const CompileError& e) {
      EXPECT_NE(std::string(e.what()).find("cannot read the bitcode"), std::string::npos)
          << e.what();
    }
  }
}

TEST(Bitcode, KernelsAreFoundBySymbolNameOrParameterTypes) {
  auto compiler = nvptx_compiler(90, "cuda:sm_90", "cuda:0");
  backend::CompileRequest r =
      request("examples.sm_75.bc", {"_Z4vaddPKfS0_Pfi", "saxpy", "saxpy", "reduce_sum<float>"});
  r.kernel_signatures = {std::nullopt, "double, const double*, double*, int",
                         "float, const float*, float*, int", std::nullopt};
  const backend::Binary b = compiler->compile(r);
  EXPECT_EQ(b.kernel_symbols,
            (std::vector<std::string>{"_Z4vaddPKfS0_Pfi", "_Z5saxpyIdEvT_PKS0_PS0_i",
                                      "_Z5saxpyIfEvT_PKS0_PS0_i", "_Z10reduce_sumIfEvPKT_PS0_i"}));
}

TEST(Bitcode, NamesThatAreNoKernelSayWhatThereIs) {
  auto compiler = nvptx_compiler(90, "cuda:sm_90", "cuda:0");
  const auto message = [&](const std::string& name) {
    try {
      (void)compiler->compile(request("examples.sm_75.bc", {name}));
    } catch (const KernelNotFoundError& e) {
      return std::string(e.what());
    }
    ADD_FAILURE() << name << " was found";
    return std::string();
  };
  const std::string ambiguous = message("saxpy");
  EXPECT_NE(ambiguous.find("names 2 kernels"), std::string::npos) << ambiguous;
  EXPECT_NE(ambiguous.find("_Z5saxpyIdEvT_PKS0_PS0_i"), std::string::npos) << ambiguous;
  const std::string unknown = message("vsub");
  EXPECT_NE(unknown.find("has no kernel 'vsub'"), std::string::npos) << unknown;
  EXPECT_NE(unknown.find("vadd(float const*, float const*, float*, int)"), std::string::npos)
      << "lists the kernels there are: " << unknown;
}

}  // namespace
}  // namespace kjit::bitcode
