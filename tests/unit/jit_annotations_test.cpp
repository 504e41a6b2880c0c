// Proteus's annotation read from kernel files (source/jit_annotations.hpp): the positions of each
// annotated kernel, wherever the attribute stands, and each bad position as a problem at its line.
#include "source/jit_annotations.hpp"

#include <gtest/gtest.h>

#include <cstring>
#include <map>
#include <string>
#include <vector>

namespace kjit::source {
namespace {

using Positions = std::vector<std::size_t>;

TEST(JitAnnotations, PositionsAreReadWhereverTheAttributeStands) {
  const JitAnnotations a = read_jit_annotations(R"(
#include <cuda_runtime.h>
template <class T, int N> struct Table { T v[N]; };
__global__ __attribute__((annotate("jit", 3, 2))) void first(float* y, int n, long steps) {}

__global__ void __attribute__((annotate("jit", 1)))
second(unsigned n, Table<float, 4> t, const double* __restrict__ x) {}
namespace ns {
template <class T>
__global__ __attribute__((annotate("jit", 2, 2))) void third(const T* x, T scale) {}
}
__global__ void plain(int n) {}
__attribute__((annotate("jit", 1))) void host_side(int n) {}
__global__ __attribute__((annotate("other", 1))) void elsewhere(int n) {}
)");
  EXPECT_TRUE(a.problems.empty());
  ASSERT_EQ(a.kernels.size(), 3U);
  EXPECT_EQ(a.kernels[0].kernel, "first");
  EXPECT_EQ(a.kernels[0].positions, (Positions{1, 2}));
  EXPECT_EQ(a.kernels[0].parameters, 3U);
  EXPECT_EQ(a.kernels[0].line, 4U);
  EXPECT_EQ(a.kernels[0].column, 27U);
  EXPECT_EQ(a.kernels[1].kernel, "second");
  EXPECT_EQ(a.kernels[1].positions, (Positions{0}));
  EXPECT_EQ(a.kernels[1].parameters, 3U);  // the template's comma splits no parameter
  EXPECT_EQ(a.kernels[1].line, 6U);
  EXPECT_EQ(a.kernels[2].positions, (Positions{1}));  // each position once
  ASSERT_NE(a.find("ns::third<float>"), nullptr);
  EXPECT_EQ(a.find("ns::third<float>")->kernel, "third");
  EXPECT_EQ(a.find("plain"), nullptr);
  EXPECT_EQ(a.find("host_side"), nullptr);
  EXPECT_EQ(a.find("elsewhere"), nullptr);
}

TEST(JitAnnotations, PositionsCountTheParametersThePreprocessorKeeps) {
  // LULESH's CalcVolumeForceForElems_kernel: an #ifdef inside the list picks one of two sets of
  // force arrays; position 5 is the count after it, whichever set the program takes.
  const char* text = R"(
__global__ __attribute__((annotate("jit", 2, 5))) void force(const double* x, int n,
#ifdef DOUBLE_PRECISION
    double* fx_elem, double* fy_elem,
#else
    double* fx_node, double* fy_node,
#endif
    int threads) {}
)";
  for (const bool defined : {false, true}) {
    std::map<std::string, std::string, std::less<>> defines;
    if (defined) {
      defines["DOUBLE_PRECISION"] = "";
    }
    const JitAnnotations a = read_jit_annotations(text, defines);
    EXPECT_TRUE(a.problems.empty()) << (a.problems.empty() ? "" : a.problems.front().message);
    ASSERT_EQ(a.kernels.size(), 1U);
    EXPECT_EQ(a.kernels[0].parameters, 5U);
    EXPECT_EQ(a.kernels[0].positions, (Positions{1, 4}));
  }
}

TEST(JitAnnotations, BadPositionsAreProblemsAtTheirLines) {
  const JitAnnotations a = read_jit_annotations(R"(
__global__ __attribute__((annotate("jit", 0))) void zero(int n) {}
__global__ __attribute__((annotate("jit", 3))) void past(int n, float a) {}
__global__ __attribute__((annotate("jit", 1, 2))) void pointer(int n, float* y) {}
__global__ __attribute__((annotate("jit", 1.5))) void fraction(int n) {}
__global__ __attribute__((annotate("jit", n))) void word(int n) {}
__global__ __attribute__((annotate("jit"))) void none(int n) {}
__global__ __attribute__((annotate("jit", 1))) void array(int v[4]) {}
)");
  EXPECT_TRUE(a.kernels.empty());
  ASSERT_EQ(a.problems.size(), 7U);
  const auto expect = [&](std::size_t i, const char* kernel, unsigned line, const char* text) {
    SCOPED_TRACE(kernel);
    EXPECT_EQ(a.problems[i].kernel, kernel);
    EXPECT_EQ(a.problems[i].line, line);
    EXPECT_NE(a.problems[i].message.find(text), std::string::npos) << a.problems[i].message;
  };
  expect(0, "zero", 2, "argument position 0 does not exist");
  expect(1, "past", 3, "argument position 3 is past the kernel's last parameter (it takes 2)");
  expect(2, "pointer", 4, "argument position 2 is 'float* y', a pointer");
  expect(3, "fraction", 5, "argument position '1.5' is not an integer");
  expect(4, "word", 6, "argument position 'n' is not an integer");
  expect(5, "none", 7, "names no argument position");
  expect(6, "array", 8, "'int v[4]', a pointer, array or reference");
  EXPECT_EQ(a.problems_of("past").size(), 1U);
  EXPECT_TRUE(a.problems_of("other").empty());
}

TEST(JitAnnotations, CompilersAreGivenTheTextWithoutThem) {
  const std::string text =
      "__global__ __attribute__((annotate(\"jit\", 1,\n 2))) void k(int n, int m) {}\n"
      "__global__ __attribute__((annotate(\"jit\", 1), noinline)) void j(int n) {}\n"
      "__global__ __attribute__((annotate(\"other\", 1))) void h(int n) {}\n";
  const std::string first = "__attribute__((annotate(\"jit\", 1,";
  const std::string want =
      "__global__ " + std::string(first.size(), ' ') + "\n" +
      std::string(std::strlen(" 2)))"), ' ') +
      " void k(int n, int m) {}\n"
      "__global__ __attribute__((annotate(\"jit\", 1), noinline)) void j(int n) {}\n"
      "__global__ __attribute__((annotate(\"other\", 1))) void h(int n) {}\n";
  EXPECT_EQ(without_jit_annotations(text), want);
  EXPECT_EQ(without_jit_annotations("int x;"), "int x;");
}

TEST(JitAnnotations, ATextWithoutAnnotationsHasNone) {
  EXPECT_TRUE(read_jit_annotations("__global__ void k(int n) {}").kernels.empty());
  EXPECT_TRUE(read_jit_annotations("__global__ void k(int n) { /* unterminated").kernels.empty());
}

}  // namespace
}  // namespace kjit::source
