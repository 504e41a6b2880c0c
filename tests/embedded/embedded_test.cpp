// Kernels that kjit_add_kernels() embedded into this test binary (tests/embedded/kernels/): they
// load by name with no file read, see the headers embedded with them, and bad names are refused.
#include "test_support.hpp"

#include <kjit/kjit.hpp>

#include <gtest/gtest.h>

namespace kjit::test {
namespace {

class Embedded : public DeviceTest {
 protected:
  /// Runs scaled.cu's kernel on random input; the number of wrong values for `scale`.
  int scaled_mismatches(const Program& program, int scale) {
    const int n = 5000;
    const int salt = 11;
    const std::vector<int> in = random_vector<int>(n, -1000, 1000);
    auto kernel = program.kernel<const int*, int*, int, int>("scaled", device);
    DeviceBuffer<int> din = device.upload(in);
    DeviceBuffer<int> dout = poisoned<int>(n);
    kernel.launch(LaunchConfig::for_elements(n), din, dout, salt, n);
    const std::vector<int> out = dout.download();
    int wrong = 0;
    for (int i = 0; i < n; ++i) {
      wrong += out[i] != in[i] * scale + salt ? 1 : 0;
    }
    return wrong;
  }
};

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
  const std::vector<int> in = random_vector<int>(777, -50, 50);
  DeviceBuffer<int> v = device.upload(in);
  Program::from_embedded("negate.cu")
      .kernel<int*, int>("negate", device)
      .launch(LaunchConfig::for_elements(777), v, 777);
  const std::vector<int> out = v.download();
  for (std::size_t i = 0; i < in.size(); ++i) {
    ASSERT_EQ(out[i], -in[i]) << i;
  }
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
