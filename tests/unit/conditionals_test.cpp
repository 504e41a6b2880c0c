// The lines a kernel file's #if, #ifdef, #ifndef, #elif, #else and #endif keep
// (source/conditionals.hpp), and Proteus's annotations behind them: a kernel annotated only
// under `#ifdef ENABLE_JIT` is specialised only when the program defines ENABLE_JIT.
#include "source/conditionals.hpp"
#include "source/jit_annotations.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <string>
#include <vector>

namespace kjit::source {
namespace {

using Defines = std::map<std::string, std::string, std::less<>>;

/// The 1-based numbers of the lines `text` keeps.
std::vector<unsigned> kept(const std::string& text, const Defines& defines) {
  const LiveLines live = live_lines(text, defines);
  std::vector<unsigned> lines;
  for (unsigned i = 1; i <= live.live.size(); ++i) {
    if (live(i)) {
      lines.push_back(i);
    }
  }
  return lines;
}

const char* const kBranches =
    "a\n"                     // 1
    "#ifdef ON\n"             // 2
    "b\n"                     // 3
    "#elif defined(OTHER)\n"  // 4
    "c\n"                     // 5
    "#else\n"                 // 6
    "d\n"                     // 7
    "#endif\n"                // 8
    "#ifndef ON\n"            // 9
    "e\n"                     // 10
    "#if 0\n"                 // 11
    "f\n"                     // 12
    "#endif\n"                // 13
    "#endif\n"                // 14
    "g";                      // 15

TEST(Conditionals, BranchesFollowTheProgramsDefinitions) {
  EXPECT_EQ(kept(kBranches, {}), (std::vector<unsigned>{1, 2, 4, 6, 7, 8, 9, 10, 11, 13, 14, 15}));
  EXPECT_EQ(kept(kBranches, {{"ON", ""}}), (std::vector<unsigned>{1, 2, 3, 4, 6, 8, 9, 14, 15}));
  EXPECT_EQ(kept(kBranches, {{"OTHER", "1"}}),
            (std::vector<unsigned>{1, 2, 4, 5, 6, 8, 9, 10, 11, 13, 14, 15}));
}

TEST(Conditionals, TheFilesOwnDefinitionsCountFromWhereTheyStand) {
  const std::string text =
      "#if X\n"           // 1: X undefined is 0
      "a\n"               // 2
      "#endif\n"          // 3
      "#define X 2\n"     // 4
      "#if X\n"           // 5
      "b\n"               // 6
      "#endif\n"          // 7
      "#undef X\n"        // 8
      "#if !defined X\n"  // 9
      "c\n"               // 10
      "#endif\n"          // 11
      "#if 0\n"           // 12
      "#define Y\n"       // 13: in a branch that is off, defines nothing
      "#endif\n"          // 14
      "#ifdef Y\n"        // 15
      "d\n"               // 16
      "#endif";           // 17
  const std::vector<unsigned> lines = kept(text, {});
  EXPECT_EQ(std::count(lines.begin(), lines.end(), 2U), 0);
  EXPECT_EQ(std::count(lines.begin(), lines.end(), 6U), 1);
  EXPECT_EQ(std::count(lines.begin(), lines.end(), 10U), 1);
  EXPECT_EQ(std::count(lines.begin(), lines.end(), 16U), 0);
  // A program's value decides `#if NAME` too.
  EXPECT_EQ(kept("#if LEVEL\na\n#endif", {{"LEVEL", "0"}}), (std::vector<unsigned>{1, 3}));
}

TEST(Conditionals, AConditionKjitDoesNotEvaluateKeepsItsBranchAndIsListed) {
  const LiveLines live = live_lines("#if __CUDA_ARCH__ >= 700\na\n#else\nb\n#endif\n", {});
  EXPECT_TRUE(live(2));
  EXPECT_FALSE(live(4));
  EXPECT_EQ(live.undecided, (std::vector<unsigned>{1}));
}

TEST(Conditionals, AnAnnotationBehindAnIfdefCountsOnlyWhenItsMacroIsDefined) {
  const std::string text =
      "template <typename T>\n"
      "__global__\n"
      "#ifdef ENABLE_JIT\n"
      "__attribute__((annotate(\"jit\", 2)))\n"
      "#endif\n"
      "void step(T* x, int n) {}\n";
  EXPECT_TRUE(read_jit_annotations(text, {}).kernels.empty());
  const JitAnnotations on = read_jit_annotations(text, {{"ENABLE_JIT", ""}});
  ASSERT_EQ(on.kernels.size(), 1U);
  EXPECT_EQ(on.kernels[0].kernel, "step");
  EXPECT_EQ(on.kernels[0].positions, (std::vector<std::size_t>{1}));
  // A bad annotation that is off is no problem either.
  EXPECT_TRUE(read_jit_annotations("#if 0\n__global__ __attribute__((annotate(\"jit\", 9))) "
                                   "void k(int n) {}\n#endif\n",
                                   {})
                  .problems.empty());
}

TEST(Conditionals, AHeadersMacrosAreThoseLeftAtItsEnd) {
  const std::string header =
      "#ifndef CONFIG_H\n#define CONFIG_H\n#define DOUBLE_PRECISION\n#define WIDTH 64\n"
      "#undef OLD\n#ifdef SINGLE\n#define NARROW 1\n#endif\n#endif\n";
  const auto after = defines_after(header, {{"OLD", ""}, {"KEPT", "3"}});
  EXPECT_EQ(after.count("OLD"), 0U);
  EXPECT_EQ(after.at("KEPT"), "3");
  EXPECT_EQ(after.at("WIDTH"), "64");
  EXPECT_EQ(after.at("DOUBLE_PRECISION"), "1");
  EXPECT_EQ(after.count("NARROW"), 0U);  // on a line the preprocessor drops
  EXPECT_EQ(defines_after(header, {{"SINGLE", ""}}).at("NARROW"), "1");
  // The file that includes it then takes its branches.
  const LiveLines live = live_lines("#ifdef DOUBLE_PRECISION\na\n#else\nb\n#endif\n", after);
  EXPECT_TRUE(live(2));
  EXPECT_FALSE(live(4));
}

}  // namespace
}  // namespace kjit::source
