// kernel_language_test.cpp's kernels that ROCm 5's HIP can compile, compiled by hipRTC for gfx90a
// without a GPU: names nvcc's host environment makes visible without an include, loads and stores
// with a cache hint of every type, and cooperative groups' reduce and shuffles of structs. Runs
// wherever hipRTC is installed; says so when it is not.
#include "backends/hip/amdgpu_target.hpp"
#include "backends/hip/hiprtc_api.hpp"
#include "backends/hip/hiprtc_compiler.hpp"
#include "kernel_language_sources.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace kjit::hip {
namespace {

namespace language = test::language;

class HiprtcKernelLanguage : public ::testing::Test {
 public:
  void SetUp() override {
    std::string why;
    api = hiprtc_api(why);
    if (api == nullptr) {
      GTEST_SKIP() << "hipRTC is not available: " << why;
    }
  }

  /// Compiles `kernels` of `source` for gfx90a: a code object with a symbol for each.
  void expect_compiles(const std::string& name, const std::string& source,
                       const std::vector<std::string>& kernels) {
    SCOPED_TRACE(name);
    backend::CompileRequest r;
    r.program_name = name;
    r.source = source;
    r.kernel_names = kernels;
    r.kernel_signatures.resize(kernels.size());
    HiprtcCompiler compiler(*api, parse_amdgpu_target("gfx90a"), "hip:gfx90a");
    const backend::Binary b = compiler.compile(r);
    EXPECT_EQ(b.format, "hsaco");
    EXPECT_EQ(b.kernel_symbols.size(), kernels.size());
  }

  const HiprtcApi* api = nullptr;
};

TEST_F(HiprtcKernelLanguage, NamesNvccMakesVisibleWithoutAnInclude) {
  expect_compiles("implicit_names.cu", language::kImplicitNames, {"implicit_names<5>"});
  for (const language::IncludedNames& c : language::included_names()) {
    expect_compiles(c.header + ".cu", c.source, {"included"});
  }
}

TEST_F(HiprtcKernelLanguage, LoadsAndStoresWithACacheHintOfEveryType) {
  std::vector<std::string> kernels;
  for (const language::CacheHintType& t : language::cache_hint_types()) {
    kernels.push_back("hints<" + t.name + ">");
  }
  expect_compiles("hints.cu", language::kCacheHints, kernels);
}

TEST_F(HiprtcKernelLanguage, CooperativeGroupsReduceAndShuffleStructs) {
  if (has_builtin_cooperative_groups(*api, parse_amdgpu_target("gfx90a"))) {
    // Kernels then get HIP's own cooperative groups (Hiprtc.CooperativeGroupsAreHipRtcsOwn...),
    // an older API than CUDA 12's: no reduce, and shuffles of arithmetic types only.
    GTEST_SKIP() << "this hipRTC has cooperative groups of its own, without reduce or shuffles "
                    "of structs";
  }
  expect_compiles("structs.cu", language::kStructReduce, {"structs"});
}

}  // namespace
}  // namespace kjit::hip
