// Host code in kernel files (source/host_code.hpp): what device code does not reach is blanked,
// what it reaches stays, host functions it names become marked declarations, every line stays
// where it was, and text the reader cannot follow comes back unchanged.
#include "source/host_code.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>

namespace kjit::source {
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
    } else if (c == ' ' && (out.empty() || out.back() == ' ' || out.back() == '\n')) {
      continue;
    }
    out += c;
  }
  return out;
}

/// erase_host_code, checked to keep the lines.
std::string erased(const std::string& in) {
  const std::string out = erase_host_code(in);
  EXPECT_EQ(lines(out), lines(in)) << out;
  return squeezed(out);
}

TEST(HostCode, WhatNoDeviceCodeReachesGoesWhole) {
  EXPECT_EQ(erased("#include <chrono>\n"
                   "#include <malloc.h>\n"
                   "int width = 1000;\n"
                   "int tiles = (width - width % 512) / 32;\n"
                   "float* make(int n) { float* p = (float*)memalign(64, n); return p; }\n"
                   "void smooth(int size) { float coe[2 * size - 1]; coe[0] = 1; }\n"
                   "struct Timer { std::chrono::steady_clock::time_point start; double ms(); };\n"
                   "double Timer::ms() { return 0; }\n"
                   "typedef std::vector<float> Floats;\n"
                   "using Clock = std::chrono::steady_clock;\n"
                   "enum Mode { fast, slow };\n"
                   "__global__ void k(float* p) { p[threadIdx.x] = 1; }\n"),
            "#include <chrono>\n#include <malloc.h>\n\n\n\n\n\n\n\n\n\n"
            "__global__ void k(float* p) { p[threadIdx.x] = 1; }\n");
}

TEST(HostCode, APointerToMemberTypeIsNamedByItsDeclarator) {
  // LULESH's lulesh.h: a typedef of a pointer to a member function of the host's class. Read
  // without its name, it stayed, and kept the class (and its std::vector of streams) with it.
  EXPECT_EQ(erased("class Domain { public: std::vector<cudaStream_t> streams; double& x(int); };\n"
                   "typedef double& (Domain::* Domain_member)(int);\n"
                   "typedef int (ns::Grid<2>::*Field);\n"
                   "__global__ void k(float* p) { p[threadIdx.x] = 1; }\n"),
            "\n\n\n__global__ void k(float* p) { p[threadIdx.x] = 1; }\n");
  // One that device code uses stays, with its class.
  EXPECT_EQ(erased("struct P { float a; float b; };\n"
                   "typedef float P::*Member;\n"
                   "typedef float (P::* Pick)(int);\n"
                   "__global__ void k(P* p, float* o) { Member m = &P::a; o[0] = p->*m; }\n"),
            "struct P { float a; float b; };\n"
            "typedef float P::*Member;\n"
            "\n"
            "__global__ void k(P* p, float* o) { Member m = &P::a; o[0] = p->*m; }\n");
}

TEST(HostCode, WhatDeviceCodeUsesStaysWithWhatItUsesInTurn) {
  const std::string in =
      "const int kBlock = 256;\n"
      "struct Pair { float a; Scale s; };\n"
      "struct Scale { float f; };\n"
      "typedef unsigned int word;\n"
      "enum Op { add = 1, mul = kBlock };\n"
      "int helper(int x) { return x * kBlock; }\n"
      "template <class T> T twice(T x) { return x + x; }\n"
      "constexpr int three() { return 3; }\n"
      "static float table[3] = {1, 2, 3};\n"
      "__global__ void k(Pair* p, word n) {\n"
      "  p[0].a = helper(n) + twice(1) + three() + table[0] + mul;\n"
      "}\n";
  EXPECT_EQ(erase_host_code(in), in);
}

TEST(HostCode, DeviceFunctionsNoKernelReachesGo) {
  // LULESH's sm_utils.inl: device helpers in inline PTX, of which the file's kernels call one.
  // Kernels and device variables stay as roots; a __device__ function stays when something
  // reaches it, through a kernel, a device variable's initializer, another kept function, or a
  // macro (KERNEL spells __global__ and makes a root too).
  EXPECT_EQ(erased("#define KERNEL __global__\n"
                   "static __device__ int lane_id() { int id; asm(\"mov.u32 %0, %%laneid;\" : "
                   "\"=r\"(id)); return id; }\n"
                   "__device__ __forceinline__ float shfl(float r) { return r; }\n"
                   "__host__ __device__ float half(float x) { return x / 2; }\n"
                   "__device__ float unused(float x) { return lane_id() + x; }\n"
                   "__device__ float twice(float x) { return 2 * x; }\n"
                   "__device__ float (*op)(float) = twice;\n"
                   "__device__ float by_macro(float x) { return x; }\n"
                   "#define CALL(x) by_macro(x)\n"
                   "__global__ void k(float* p) { p[0] = shfl(p[1]); }\n"
                   "KERNEL void m(float* p) { p[0] = CALL(p[1]); }\n"),
            "#define KERNEL __global__\n\n"
            "__device__ __forceinline__ float shfl(float r) { return r; }\n\n\n"
            "__device__ float twice(float x) { return 2 * x; }\n"
            "__device__ float (*op)(float) = twice;\n"
            "__device__ float by_macro(float x) { return x; }\n"
            "#define CALL(x) by_macro(x)\n"
            "__global__ void k(float* p) { p[0] = shfl(p[1]); }\n"
            "KERNEL void m(float* p) { p[0] = CALL(p[1]); }\n");
}

TEST(HostCode, ALineCommentOfStarsIsOneComment) {
  // Rodinia's dwt2d io.h: "//*** FOR TEST ***" was read as a block comment opened by its second
  // slash, which hid what followed, up to the next "*/", from the analysis.
  EXPECT_EQ(erased("//******** FOR TEST ********\n"
                   "__device__ int unused() { return 0; }\n"
                   "/* a */\n"
                   "__global__ void k(int* p) { *p = 1; }\n"),
            "//******** FOR TEST ********\n\n/* a */\n__global__ void k(int* p) { *p = 1; }\n");
}

TEST(HostCode, AFileThatCannotBeReadKeepsEveryDeviceFunction) {
  // What an unterminated comment hides may call any of them.
  const std::string header = "/* open\n__global__ void k(int* p) { *p = helper(); }\n";
  const std::string main = "__device__ int helper() { return 1; }\n";
  EXPECT_EQ(HostCodeFilter({main, header}, {}).erase(main), main);
}

TEST(HostCode, AHostFunctionThatDeviceCodeNamesBecomesAMarkedDeclaration) {
  EXPECT_EQ(erased("__host__ void prepare(float* p) {\n"
                   "  p[0] = 1;\n"
                   "}\n"
                   "__global__ void k(float* p) { prepare(p); }\n"),
            "__host__ void prepare(float* p) __KJIT_HOST_ONLY;\n\n\n"
            "__global__ void k(float* p) { prepare(p); }\n");
}

TEST(HostCode, LaunchesRuntimeCallsAndTheHostsLibraryMakeAFunctionHostCode) {
  for (const std::string body :
       {"k<<<g, b>>>(p);", "cudaMemcpy(p, q, 4, cudaMemcpyHostToDevice);", "checkCudaErrors(x);",
        "cuLaunchKernel(f, 1, 1, 1);", "fprintf(stderr, \"x\");", "exit(1);", "std::cout << 1;",
        "posix_memalign(&q, 64, 4);"}) {
    const std::string in =
        "void run(float* p) { " + body + " }\n" + "__global__ void k(float* p) { run(p); }\n";
    EXPECT_EQ(erased(in),
              "void run(float* p) __KJIT_HOST_ONLY;\n__global__ void k(float* p) { run(p); }\n")
        << body;
  }
}

TEST(HostCode, FunctionsThatCallHostFunctionsAreHostFunctions) {
  EXPECT_EQ(erased("inline void load(const char* f) { FILE* p = fopen(f, \"r\"); }\n"
                   "inline bool load_image(const char* f) { load(f); return true; }\n"
                   "inline bool load_pgm(const char* f) { return load_image(f); }\n"
                   "inline float half(float x) { return x / 2; }\n"
                   "__global__ void twice(const char* f, float* x) {\n"
                   "  *x = load_pgm(f) ? half(*x) * 4 : 0;\n"
                   "}\n"),
            "\n\n"
            "inline bool load_pgm(const char* f) __KJIT_HOST_ONLY;\n"
            "inline float half(float x) { return x / 2; }\n"
            "__global__ void twice(const char* f, float* x) {\n"
            "*x = load_pgm(f) ? half(*x) * 4 : 0;\n"
            "}\n");
}

TEST(HostCode, ALaunchInDeviceCodeBecomesTheMarkedCallOnItsLine) {
  const std::string source =
      "__global__ void parent(int* p) {\n"
      "  child<<<1, 32>>>(p, 7);\n"
      "  Nest<Pair<int, Vec<int>>> x;\n"
      "}\n"
      "__global__ void plain() { Nest<Pair<int, Vec<int>>> y; }\n";
  EXPECT_EQ(erase_host_code(source),
            "__global__ void parent(int* p) {\n"
            "  child,__KJIT_DEVICE_LAUNCH(1, 32),(p, 7);\n"
            "  Nest<Pair<int, Vec<int>>> x;\n"
            "}\n"
            "__global__ void plain() { Nest<Pair<int, Vec<int>>> y; }\n");
}

TEST(HostCode, ACompoundLiteralInDeviceCodeBecomesItsCxxForm) {
  EXPECT_EQ(erase_host_code("struct p3 { float x, y, z; };\n"
                            "__global__ void k(p3* out, const float* x) {\n"
                            "  out[0] = (struct p3){x[0], x[1], x[2]};\n"
                            "}\n"),
            "struct p3 { float x, y, z; };\n"
            "__global__ void k(p3* out, const float* x) {\n"
            "  out[0] = p3{x[0], x[1], x[2]};\n"
            "}\n");
}

TEST(HostCode, MainGoesWholeEvenWhenNamed) {
  EXPECT_EQ(erased("#include <stdio.h>\n"
                   "int main(int argc, char** argv) {\n"
                   "  return run(argc);\n"
                   "}\n"
                   "__global__ void k() { int main = 1; }\n"),
            "#include <stdio.h>\n\n\n\n__global__ void k() { int main = 1; }\n");
}

TEST(HostCode, ExplicitInstantiationsOfAHostTemplateGoWithIt) {
  EXPECT_EQ(erased("template <class T> __global__ void k(T* p) { p[0] = 1; }\n"
                   "template <class T> void launch(T* p) {\n"
                   "  k<T><<<1, 1>>>(p);\n"
                   "}\n"
                   "template void launch<int>(int* p);\n"
                   "extern template void launch<float>(float*);\n"
                   "template void launch(double*);\n"
                   "template __global__ void k<int>(int*);\n"),
            "template <class T> __global__ void k(T* p) { p[0] = 1; }\n\n\n\n\n\n\n"
            "template __global__ void k<int>(int*);\n");
}

TEST(HostCode, NamespacesAndLinkageBlocksAreEntered) {
  EXPECT_EQ(erased("namespace a { namespace b {\n"
                   "__host__ void h() { x(); }\n"
                   "__device__ int g() { return 1; }\n"
                   "__global__ void k(int* p) { *p = g(); }\n"
                   "} }\n"
                   "extern \"C\" {\n"
                   "void launch(int n) { k<<<n, 1>>>(); }\n"
                   "}\n"),
            "namespace a { namespace b {\n\n__device__ int g() { return 1; }\n"
            "__global__ void k(int* p) { *p = g(); }\n} }\n"
            "extern \"C\" {\n\n}\n");
}

TEST(HostCode, AClassDeviceCodeUsesKeepsItsLayoutAndTheMembersDeviceCodeNames) {
  EXPECT_EQ(erased("struct Image {\n"
                   "  float* data;\n"
                   "  int width;\n"
                   "  Image(int w) : width(w) { data = 0; }\n"
                   "  __device__ float at(int i) const { return data[i]; }\n"
                   "  int size() const { return width; }\n"
                   "  void save(const char* f) { std::ofstream out(f); }\n"
                   "  void print(std::ostream& os) const;\n"
                   "  float* begin() { return data; }\n"
                   "};\n"
                   "void Image::print(std::ostream& os) const { os << width; }\n"
                   "class Unused { std::string name; void go() { memalign(1, 2); } };\n"
                   "__global__ void k(Image im, float* out) { out[0] = im.at(0) + im.size(); }\n"),
            "struct Image {\n"
            "float* data;\n"
            "int width;\n"
            "Image(int w) : width(w) { data = 0; }\n"
            "__device__ float at(int i) const { return data[i]; }\n"
            "int size() const { return width; }\n"
            "\n\n"
            "float* begin() { return data; }\n"
            "};\n\n\n"
            "__global__ void k(Image im, float* out) { out[0] = im.at(0) + im.size(); }\n");
}

TEST(HostCode, OperatorsStayUnlessTheyWorkOnTheHostsTypes) {
  EXPECT_EQ(erased("struct V { float x; };\n"
                   "struct Matrix { std::vector<float> v; };\n"
                   "inline V operator+(V a, V b) { return V{a.x + b.x}; }\n"
                   "Matrix operator*(const Matrix& a, const Matrix& b);\n"
                   "std::ostream& operator<<(std::ostream& os, V v) { return os << v.x; }\n"
                   "__global__ void k(V* p) { p[0] = p[0] + p[1]; }\n"),
            "struct V { float x; };\n\n"
            "inline V operator+(V a, V b) { return V{a.x + b.x}; }\n\n\n"
            "__global__ void k(V* p) { p[0] = p[0] + p[1]; }\n");
}

TEST(HostCode, MacrosCarryMarksAndUses) {
  const std::string in =
      "#define HD __host__ __device__\n"
      "#define AT(i) (data[(i) * stride])\n"
      "int stride = 2;\n"
      "float* data;\n"
      "HD inline float square(float x) { return x * x; }\n"
      "__global__ void k(float* out) { out[0] = square(AT(1)); }\n";
  EXPECT_EQ(erase_host_code(in), in);
}

TEST(HostCode, UsingsAndAliasesOfTheHostsNamespacesGo) {
  EXPECT_EQ(
      erased("using std::cout;\n"
             "using std::min;\n"
             "using namespace std::chrono;\n"
             "namespace fs = std::filesystem;\n"
             "namespace cg = cooperative_groups;\n"
             "namespace mine { int two() { return 2; } }\n"
             "using namespace mine;\n"
             "using namespace std;\n"
             "__global__ void k(int* p) { cg::sync(cg::this_thread_block()); p[0] = min(1, two()); "
             "}\n"),
      "\nusing std::min;\n\n\nnamespace cg = cooperative_groups;\n"
      "namespace mine { int two() { return 2; } }\n"
      "using namespace mine;\nusing namespace std;\n"
      "__global__ void k(int* p) { cg::sync(cg::this_thread_block()); p[0] = min(1, two()); }\n");
}

TEST(HostCode, AMacroThatDefinesHostCodeGoesWithIt) {
  // A binding macro expands to a host function (LeetCUDA's TORCH_BINDING_HIST); one that spells
  // __global__ defines device code, which stays.
  const std::string in =
      "#define BIND(name) void bind_##name(torch::Tensor t) { name<<<1, 1>>>(t.data()); }\n"
      "#define KERNEL(name) __global__ void name(int* p) { p[0] = 1; }\n"
      "KERNEL(one)\n"
      "BIND(one)\n"
      "void launch(torch::Tensor t) { bind_one(t); }\n";
  EXPECT_EQ(erased(in),
            "#define BIND(name) void bind_##name(torch::Tensor t) { name<<<1, 1>>>(t.data()); }\n"
            "#define KERNEL(name) __global__ void name(int* p) { p[0] = 1; }\n"
            "KERNEL(one)\n\n\n");
}

TEST(HostCode, TheNamesTheHostAsksForAreRoots) {
  const std::string header =
      "struct Plus { __device__ int operator()(int a, int b) const; };\n"
      "struct Times { int x; };\n";
  const std::string main =
      "template <class Op> __global__ void k(int* p) { p[0] = Op()(1, 2); }\n"
      "struct Shape { int n; };\n";
  const HostCodeFilter filter({main, header}, {"k<Plus>", "(Shape*)"});
  EXPECT_EQ(squeezed(filter.erase(header)),
            "struct Plus { __device__ int operator()(int a, int b) const; };\n\n");
  EXPECT_EQ(squeezed(filter.erase(main)), main);
  EXPECT_EQ(squeezed(HostCodeFilter({main, header}, {"k<Times>"}).erase(header)),
            "\nstruct Times { int x; };\n");
}

TEST(HostCode, AHostFunctionNamedAsItsKernelIsNoUseOfIt) {
  // llm.c's launchers share their kernel's name; left as a declaration, such a launcher would
  // make the kernel's name an overload set.
  const std::string main =
      "__global__ void gelu(float* p, int n) { p[0] = n; }\n"
      "void gelu(float* p, int n, int block) { gelu<<<n / block, block>>>(p, n); }\n";
  EXPECT_EQ(squeezed(HostCodeFilter({main}, {"gelu"}).erase(main)),
            "__global__ void gelu(float* p, int n) { p[0] = n; }\n\n");
}

TEST(HostCode, UsesReachAcrossTheProgramsFiles) {
  const std::string header =
      "inline int scale() { return 4; }\n"
      "inline void report(int x) { printf(\"%d\", x); fflush(stdout); }\n"
      "bool checkCmdLineFlag(int argc, const char** argv, const char* flag);\n";
  const std::string main =
      "#include \"helper.h\"\n"
      "void run(int argc, const char** argv) { if (checkCmdLineFlag(argc, argv, \"x\")) {} }\n"
      "__global__ void k(int* p) { p[0] = scale(); }\n";
  const HostCodeFilter filter({main, header}, {"k"});
  EXPECT_EQ(squeezed(filter.erase(header)), "inline int scale() { return 4; }\n\n\n");
  EXPECT_EQ(squeezed(filter.erase(main)),
            "#include \"helper.h\"\n\n__global__ void k(int* p) { p[0] = scale(); }\n");
}

TEST(HostCode, TemplateDefaultsAndWindowsLineEndsAreRead) {
  // A template parameter's default is no initializer; a macro continued over "\\\r\n" lines
  // is one directive (Rodinia's files have Windows line ends).
  const std::string in =
      "#define CHECK(call) do { \\\r\n"
      "  if (call) { exit(1); } \\\r\n"
      "} while (0)\r\n"
      "template <class T, int N = 32> __global__ void k(T* p) { p[0] = N; }\r\n"
      "void run(float* p) { CHECK(cudaMalloc(&p, 4)); }\r\n";
  EXPECT_EQ(erased(in),
            "#define CHECK(call) do { \\\r\n"
            "if (call) { exit(1); } \\\r\n"
            "} while (0)\r\n"
            "template <class T, int N = 32> __global__ void k(T* p) { p[0] = N; }\r\n"
            "\r\n");
}

TEST(HostCode, DirectivesInsideAnErasedBodyStayButItsPragmasGo) {
  EXPECT_EQ(erased("__host__ void h() {\n"
                   "#ifdef VERBOSE\n"
                   "  log();\n"
                   "#endif\n"
                   "#define LATER 1\n"
                   "#pragma unroll\n"
                   "  for (int i = 0; i < 4; ++i) log();\n"
                   "  #  pragma omp parallel for \\\n"
                   "    schedule(static)\n"
                   "  for (int i = 0; i < 4; ++i) log();\n"
                   "}\n"),
            "\n#ifdef VERBOSE\n\n#endif\n#define LATER 1\n\n\n\n\n\n\n");
}

TEST(HostCode, LiteralsAndCommentsAreNotCode) {
  const std::string in =
      "// void fake() { k<<<1,1>>>(); }\n"
      "/* __host__ void other() { } */\n"
      "__device__ const char* s = \"{ <<< }\";\n"
      "__device__ const char* r = R\"x(} { <<<)x\";\n"
      "__device__ char c = '{';\n"
      "__global__ void h() { const char* t = \"<<<\"; }\n";
  EXPECT_EQ(erase_host_code(in), in);
}

TEST(HostCode, TextItCannotReadComesBackUnchanged) {
  for (const std::string in : {"__host__ void h() { k<<<1,1>>>();\n",  // unclosed
                               "__host__ void h() { } }\n",            // one } too many
                               "/* unterminated\n__host__ void h() { }\n",
                               "__host__ void h() { const char* s = \"open; }\n"}) {
    EXPECT_EQ(erase_host_code(in), in) << in;
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
}  // namespace kjit::source
