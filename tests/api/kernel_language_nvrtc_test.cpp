// kernel_language_test.cpp's kernels compiled by NVRTC without a GPU: for sm_90 (H100, H200),
// and sm_100's float2 arithmetic for sm_100, each to a CUBIN with every kernel asked for and no
// warning. Runs wherever NVRTC is installed; says so when it is not.
#include "backends/cuda/nvrtc_api.hpp"
#include "backends/cuda/nvrtc_compiler.hpp"
#include "kernel_language_sources.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace kjit::cuda {
namespace {

namespace language = test::language;

class NvrtcKernelLanguage : public ::testing::Test {
 public:
  void SetUp() override {
    std::string why;
    api = nvrtc_api(why);
    if (api == nullptr) {
      GTEST_SKIP() << "NVRTC is not available: " << why;
    }
  }

  /// Compiles `kernels` of `source` for sm_`arch`: a CUBIN with a symbol for each, no warnings.
  void expect_compiles(const std::string& name, const std::string& source,
                       const std::vector<std::string>& kernels, int arch = 90) {
    SCOPED_TRACE(name);
    backend::CompileRequest r;
    r.program_name = name;
    r.source = source;
    r.kernel_names = kernels;
    r.kernel_signatures.resize(kernels.size());
    const backend::Binary b =
        compile_with_nvrtc(*api, r, {arch, true}, "sm_" + std::to_string(arch));
    EXPECT_EQ(b.format, "cubin");
    ASSERT_EQ(b.kernel_symbols.size(), kernels.size());
    for (const std::string& s : b.kernel_symbols) {
      EXPECT_FALSE(s.empty());
    }
    EXPECT_TRUE(b.log.empty()) << b.log;
  }

  const NvrtcApi* api = nullptr;
};

TEST_F(NvrtcKernelLanguage, NamesNvccMakesVisibleWithoutAnInclude) {
  expect_compiles("implicit_names.cu", language::kImplicitNames, {"implicit_names<5>"});
  for (const language::IncludedNames& c : language::included_names()) {
    expect_compiles(c.header + ".cu", c.source, {"included"});
  }
}

TEST_F(NvrtcKernelLanguage, LoadsAndStoresWithACacheHintOfEveryType) {
  std::vector<std::string> kernels;
  for (const language::CacheHintType& t : language::cache_hint_types()) {
    kernels.push_back("hints<" + t.name + ">");
  }
  expect_compiles("hints.cu", language::kCacheHints, kernels);
}

TEST_F(NvrtcKernelLanguage, IntrinsicsAndAtomics) {
  expect_compiles("integers.cu", language::kIntegerIntrinsics, {"integers"});
  expect_compiles("floats.cu", language::kFloatIntrinsics, {"floats"});
  expect_compiles("atomics.cu", language::kAtomics, {"atomics"});
  expect_compiles("pairs.cu", language::kFloat2Intrinsics, {"pairs"}, 100);
}

TEST_F(NvrtcKernelLanguage, CooperativeGroupsReduceAndShuffleStructs) {
  expect_compiles("structs.cu", language::kStructReduce, {"structs"});
}

}  // namespace
}  // namespace kjit::cuda
