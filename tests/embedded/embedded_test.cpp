// Kernels that kjit_add_kernels() embedded into this test binary (tests/embedded/kernels/): they
// load by name with no file read, see the headers embedded with them, and bad names are refused.
#include "embedded_fixture.hpp"

#include <kjit/kjit.hpp>

#include <gtest/gtest.h>

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

}  // namespace
}  // namespace kjit::test
