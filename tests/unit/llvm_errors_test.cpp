// LLVM's errors inside the process: a fatal error (report_fatal_error) abandons the compile it
// happened in instead of ending the program, and errors LLVM reports through its context (an
// inline assembly the host's assembler cannot read) become a CompileError.
#include "backends/cpu/compile/cpu_compiler.hpp"
#include "backends/llvm/llvm_setup.hpp"

#include <kjit/error.hpp>

#include <llvm/Support/ErrorHandling.h>

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <stdexcept>

namespace kjit {
namespace {

TEST(LlvmErrors, AFatalErrorAbandonsTheWorkAndTheProcessGoesOn) {
  int after = 0;
  const std::optional<std::string> reason = llvm_setup::run_recovering([&] {
    llvm::report_fatal_error("made up for the test", false);
    after = 1;  // never reached
  });
  ASSERT_TRUE(reason);
  EXPECT_EQ(*reason, "made up for the test");
  EXPECT_EQ(after, 0);
  // Nested and repeated: each returns to its own caller.
  for (int i = 0; i < 3; ++i) {
    const auto outer = llvm_setup::run_recovering([&] {
      const auto inner =
          llvm_setup::run_recovering([] { llvm::report_fatal_error("inner", false); });
      EXPECT_EQ(inner.value_or(""), "inner");
      after += 1;
    });
    EXPECT_FALSE(outer);
  }
  EXPECT_EQ(after, 3);
  EXPECT_THROW((void)llvm_setup::run_recovering([] { throw std::runtime_error("passes through"); }),
               std::runtime_error);
  EXPECT_FALSE(llvm_setup::run_recovering([] {}));
}

TEST(LlvmErrors, InlinePtxInHostBitcodeIsACompileErrorNotTheProcessEnd) {
  const auto path = std::filesystem::path(KJIT_SOURCE_DIR) / "tests/unit/data/inline_ptx.host.bc";
  std::ifstream in(path, std::ios::binary);
  ASSERT_TRUE(in) << path;
  backend::CompileRequest r;
  r.program_name = "inline_ptx.host.bc";
  r.input = backend::InputKind::bitcode;
  r.source.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  r.kernel_names = {"lane_ids"};
  r.kernel_signatures.resize(1);
  try {
    (void)cpu::CpuCompiler("cpu").compile(r);
    FAIL() << "PTX assembled for the host";
  } catch (const CompileError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("LLVM's code generator failed"), std::string::npos) << what;
    EXPECT_NE(what.find("%laneid"), std::string::npos) << what;
    EXPECT_NE(what.find("inline assembly (PTX) is not supported by kjit's CPU backend"),
              std::string::npos)
        << what;
  }
}

}  // namespace
}  // namespace kjit
