// Host code in kernel files (backends/host_code.hpp): which functions lose their bodies, that
// every line stays where it was, and that text the scanner cannot read comes back unchanged.
#include "backends/host_code.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>

namespace kjit::backend {
namespace {

std::size_t lines(const std::string& text) {
  return static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n'));
}

/// The text with runs of blanks squeezed to one and none at the ends of lines, to compare
/// without counting spaces.
std::string squeezed(const std::string& text) {
  std::string out;
  for (const char c : text) {
    if (c == '\n') {
      while (!out.empty() && out.back() == ' ') {
        out.pop_back();
      }
    } else if (c == ' ' && !out.empty() && out.back() == ' ') {
      continue;
    }
    out += c;
  }
  return out;
}

TEST(HostCode, AHostFunctionBecomesAMarkedDeclarationOnTheSameLines) {
  const std::string in =
      "__global__ void k(float* p) { p[0] = 1; }\n"
      "__host__ void launch(float* p) {\n"
      "  k<<<1, 1>>>(p);\n"
      "}\n"
      "__device__ int after;\n";
  const std::string out = erase_host_functions(in);
  EXPECT_EQ(lines(out), lines(in));
  EXPECT_EQ(squeezed(out),
            "__global__ void k(float* p) { p[0] = 1; }\n"
            "__host__ void launch(float* p) __KJIT_HOST_ONLY;\n"
            "\n"
            "\n"
            "__device__ int after;\n");
}

TEST(HostCode, LaunchesRuntimeCallsAndCLibraryIOMakeAnUnmarkedFunctionHostCode) {
  for (const std::string body :
       {"k<<<g, b>>>(p);", "cudaMemcpy(p, q, 4, cudaMemcpyHostToDevice);", "checkCudaErrors(x);",
        "cuLaunchKernel(f, 1, 1, 1);", "fprintf(stderr, \"x\");", "exit(1);"}) {
    const std::string in = "void run(float* p) { " + body + " }\n";
    EXPECT_EQ(squeezed(erase_host_functions(in)), "void run(float* p) __KJIT_HOST_ONLY;\n") << body;
  }
}

TEST(HostCode, DeviceCodeAndPlainHelpersStay) {
  const std::string in =
      "__device__ float f(float x) { return cudaMemcpyish(x); }\n"
      "__host__ __device__ inline int g(int x) { return x; }\n"
      "static __global__ void k(int* p) { p[0] = g(1); }\n"
      "int helper(int x) { return x * 2; }\n"
      "template <class T> T twice(T x) { printf(\"%d\", 1); return x + x; }\n"
      "constexpr int three() { return 3; }\n";
  EXPECT_EQ(erase_host_functions(in), in);
}

TEST(HostCode, ALaunchInDeviceCodeBecomesTheMarkedCallOnItsLine) {
  const std::string source =
      "__global__ void parent(int* p) {\n"
      "  child<<<1, 32>>>(p, 7);\n"
      "  Nest<Pair<int, Vec<int>>> x;\n"
      "}\n"
      "__device__ void plain() { Nest<Pair<int, Vec<int>>> y; }\n";
  const std::string out = erase_host_functions(source);
  EXPECT_EQ(lines(out), lines(source));
  EXPECT_EQ(out,
            "__global__ void parent(int* p) {\n"
            "  child,__KJIT_DEVICE_LAUNCH(1, 32),(p, 7);\n"
            "  Nest<Pair<int, Vec<int>>> x;\n"
            "}\n"
            "__device__ void plain() { Nest<Pair<int, Vec<int>>> y; }\n");
}

TEST(HostCode, MainGoesWhole) {
  const std::string in =
      "#include <stdio.h>\n"
      "int main(int argc, char** argv) {\n"
      "  return run(argc);\n"
      "}\n"
      "__global__ void k() {}\n";
  const std::string out = erase_host_functions(in);
  EXPECT_EQ(lines(out), lines(in));
  EXPECT_EQ(squeezed(out), "#include <stdio.h>\n\n\n\n__global__ void k() {}\n");
}

TEST(HostCode, ExplicitInstantiationsOfAnErasedTemplateGoWithIt) {
  const std::string in =
      "template <class T> __global__ void k(T* p) { p[0] = 1; }\n"
      "template <class T> void launch(T* p) {\n"
      "  k<T><<<1, 1>>>(p);\n"
      "}\n"
      "template void launch<int>(int* p);\n"
      "extern template void launch<float>(float*);\n"
      "template void launch(double*);\n"
      "template __global__ void k<int>(int*);\n";
  const std::string out = erase_host_functions(in);
  EXPECT_EQ(lines(out), lines(in));
  EXPECT_EQ(squeezed(out),
            "template <class T> __global__ void k(T* p) { p[0] = 1; }\n"
            "template <class T> void launch(T* p) __KJIT_HOST_ONLY;\n\n\n\n\n\n"
            "template __global__ void k<int>(int*);\n");
}

TEST(HostCode, NamespacesAndLinkageBlocksAreEntered) {
  const std::string in =
      "namespace a { namespace b {\n"
      "__host__ void h() { x(); }\n"
      "} }\n"
      "extern \"C\" {\n"
      "void launch(int n) { k<<<n, 1>>>(); }\n"
      "}\n";
  EXPECT_EQ(squeezed(erase_host_functions(in)),
            "namespace a { namespace b {\n"
            "__host__ void h() __KJIT_HOST_ONLY;\n"
            "} }\n"
            "extern \"C\" {\n"
            "void launch(int n) __KJIT_HOST_ONLY;\n"
            "}\n");
}

TEST(HostCode, ClassBodiesInitialisersAndLambdasAreLeftAlone) {
  const std::string in =
      "struct S : public B<int> { __host__ void m() { k<<<1, 1>>>(); } int x{1}; };\n"
      "struct alignas(16) T { float v[4]; };\n"
      "__device__ int table[] = {1, 2, 3};\n"
      "auto f = [](int x) { return cudaMalloc(x); };\n"
      "enum class E : int { a, b };\n"
      "S& operator=(const S& o);\n";
  EXPECT_EQ(erase_host_functions(in), in);
}

TEST(HostCode, QualifiersAttributesAndInitialiserListsBeforeTheBody) {
  const std::string in =
      "__host__ void f() noexcept(true) __attribute__((noinline)) { a(); }\n"
      "__host__ auto g(int x) -> decltype(x) { return x; }\n"
      "__host__ Foo::Foo(int x) : a(x), b{x} { init(); }\n"
      "__host__ int Foo::get() const { return a; }\n";
  // Members defined outside their class go whole: left as declarations they would redeclare
  // the members, which C++ forbids (the class declares them).
  EXPECT_EQ(squeezed(erase_host_functions(in)),
            "__host__ void f() noexcept(true) __attribute__((noinline)) __KJIT_HOST_ONLY;\n"
            "__host__ auto g(int x) -> decltype(x) __KJIT_HOST_ONLY;\n\n\n");
}

TEST(HostCode, FunctionsThatCallErasedOnesGoToo) {
  const std::string in =
      "inline void load(const char* f) { FILE* p = fopen(f, \"r\"); }\n"
      "inline bool load_image(const char* f) { load(f); return true; }\n"
      "inline bool load_pgm(const char* f) { return load_image(f); }\n"
      "inline float half(float x) { return x / 2; }\n"
      "__device__ float twice(float x) { return half(x) * 4; }\n";
  const std::string out = erase_host_functions(in);
  EXPECT_EQ(lines(out), lines(in));
  EXPECT_EQ(squeezed(out),
            "inline void load(const char* f) __KJIT_HOST_ONLY;\n"
            "inline bool load_image(const char* f) __KJIT_HOST_ONLY;\n"
            "inline bool load_pgm(const char* f) __KJIT_HOST_ONLY;\n"
            "inline float half(float x) { return x / 2; }\n"
            "__device__ float twice(float x) { return half(x) * 4; }\n");
}

TEST(HostCode, DirectivesInsideAnErasedBodyStay) {
  const std::string in =
      "__host__ void h() {\n"
      "#ifdef VERBOSE\n"
      "  log();\n"
      "#endif\n"
      "#define LATER 1\n"
      "}\n";
  EXPECT_EQ(squeezed(erase_host_functions(in)),
            "__host__ void h() __KJIT_HOST_ONLY;\n"
            "#ifdef VERBOSE\n"
            "\n"
            "#endif\n"
            "#define LATER 1\n"
            "\n");
}

TEST(HostCode, LiteralsAndCommentsAreNotCode) {
  const std::string in =
      "// void fake() { k<<<1,1>>>(); }\n"
      "/* __host__ void other() { } */\n"
      "__device__ const char* s = \"{ <<< }\";\n"
      "__device__ const char* r = R\"x(} { <<<)x\";\n"
      "__device__ char c = '{';\n"
      "void h() { const char* t = \"<<<\"; }\n";
  EXPECT_EQ(erase_host_functions(in), in);
}

TEST(HostCode, TextItCannotReadComesBackUnchanged) {
  for (const std::string in : {"__host__ void h() { k<<<1,1>>>();\n",  // unclosed
                               "__host__ void h() { } }\n",            // one } too many
                               "/* unterminated\n__host__ void h() { }\n",
                               "__host__ void h() { const char* s = \"open; }\n"}) {
    EXPECT_EQ(erase_host_functions(in), in) << in;
  }
}

TEST(HostCode, MarkedCalleesAreFoundInBothCompilersWordings) {
  EXPECT_EQ(host_only_callee("'fopen' is deprecated: __kjit_host_only__"), "fopen");
  EXPECT_EQ(host_only_callee("function \"fopen\" was declared deprecated (\"__kjit_host_only__\")"),
            "fopen");
  EXPECT_EQ(host_only_callee("function \"cudaMalloc(T **, size_t) [with T=float]\" was declared "
                             "deprecated (\"__kjit_host_only__\")"),
            "cudaMalloc");
  EXPECT_FALSE(host_only_callee("'old' is deprecated: use new"));
  EXPECT_TRUE(is_host_callee("launch(float*)", "launch"));
  EXPECT_TRUE(is_host_callee("ns::launch(float*)", "launch"));
  EXPECT_TRUE(is_host_callee("cudaMalloc<float>(float**, unsigned long)", "cudaMalloc"));
  EXPECT_FALSE(is_host_callee("relaunch(float*)", "launch"));
}

}  // namespace
}  // namespace kjit::backend
