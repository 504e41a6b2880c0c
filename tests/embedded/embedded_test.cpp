// Kernels that kjit_add_kernels() embedded into this test binary (tests/embedded/kernels/): they
// load by name with no file read, see the headers embedded with them, and bad names are refused.
#include "embedded_fixture.hpp"

#include <kjit/kjit.hpp>

#include <gtest/gtest.h>

#include <array>
#include <cstring>

namespace kjit::test {
namespace {

using Embedded = EmbeddedKernelTest;

TEST_F(Embedded, AProgramRunsFromItsEmbeddedTextWithItsEmbeddedHeader) {
  EXPECT_EQ(scaled_mismatches(Program::from_embedded("scaled.cu"), 3), 0);
}

TEST_F(Embedded, AHeaderTheCallerGivesWinsOverTheEmbeddedOne) {
  CompileOptions options;
  options.headers["include/scale.h"] = "#define SCALE 5\n";
  EXPECT_EQ(scaled_mismatches(Program::from_embedded("scaled.cu", options), 5), 0);
}

TEST_F(Embedded, EveryEmbeddedProgramIsListedAndRuns) {
  EXPECT_EQ(embedded_programs(), (std::vector<std::string>{"negate.cu", "scaled.cu"}));
  EXPECT_EQ(negate_mismatches(Program::from_embedded("negate.cu")), 0);
}

TEST_F(Embedded, AnUnknownNameIsAUsageErrorListingTheEmbeddedPrograms) {
  for (const char* name : {"missing.cu", "kernels/scaled.cu", "include/scale.h", ""}) {
    try {
      (void)Program::from_embedded(name);
      ADD_FAILURE() << "'" << name << "' was found";
    } catch (const UsageError& e) {
      const std::string text = e.what();
      EXPECT_NE(text.find(std::string("no embedded program '") + name + "'"), std::string::npos)
          << text;
      EXPECT_NE(text.find("negate.cu, scaled.cu"), std::string::npos) << text;
    }
  }
}

TEST_F(Embedded, TwoProgramsEmbeddedUnderOneNameLoadTheLastWithAWarning) {
  const auto file = [](const char* text) {
    return std::array<EmbeddedFile, 1>{{{"twice.cu", text, std::strlen(text)}}};
  };
  const auto one = file("__global__ void k(int* v) { v[0] = 1; }");
  const EmbeddedKernels first(one, {});
  const EmbeddedKernels same(one, {});  // the same text again: nothing to warn about
  testing::internal::CaptureStderr();
  (void)Program::from_embedded("twice.cu");
  EXPECT_EQ(testing::internal::GetCapturedStderr().find("twice.cu"), std::string::npos);

  const auto two = file("__global__ void k(int* v) { v[0] = 2; }");
  const EmbeddedKernels other(two, {});
  testing::internal::CaptureStderr();
  const Program program = Program::from_embedded("twice.cu");
  const std::string warning = testing::internal::GetCapturedStderr();
  EXPECT_NE(warning.find("two different programs are embedded as 'twice.cu'"), std::string::npos)
      << warning;
  DeviceBuffer<int> v = poisoned<int>(1);
  program.kernel<int*>("k", device).launch(LaunchConfig{{1, 1, 1}, {1, 1, 1}}, v);
  EXPECT_EQ(v.download()[0], 2) << "the program registered last";
}

}  // namespace
}  // namespace kjit::test
