// Kernel files as real projects write them: host code beside the kernels (launches, the CUDA
// runtime, main(), host variables, shared headers that declare host functions) is ignored, not
// an error; a kernel that calls a host function is an error at the call; `#ifdef __CUDA_ARCH__`
// takes the device path on every backend.
#include "test_support.hpp"

#include <numeric>

namespace kjit::test {
namespace {

class HostCode : public DeviceTest {};

std::filesystem::path host_code_kernel(const std::string& name) {
  return test_kernel_path("host_code/" + name);
}

TEST_F(HostCode, AKernelFileWithHostCodeAndASharedHeaderLoadsAndRuns) {
  auto scan = Program::from_file(host_code_kernel("scan_with_host_code.cu"))
                  .kernel<unsigned*, const unsigned*>("scanExclusiveShared", device);
  constexpr unsigned kBlock = 256;
  constexpr unsigned kBlocks = 8;
  const std::vector<unsigned> in = random_vector<unsigned>(kBlock * kBlocks, 0, 1000);
  auto d_in = device.upload(in);
  auto d_out = poisoned<unsigned>(in.size());
  scan.launch(LaunchConfig{.grid = {kBlocks}, .block = {kBlock}}, d_out, d_in);
  const std::vector<unsigned> out = d_out.download();
  for (unsigned b = 0; b < kBlocks; ++b) {
    unsigned sum = 0;
    for (unsigned t = 0; t < kBlock; ++t) {
      ASSERT_EQ(out[b * kBlock + t], 2 * sum) << "block " << b << ", thread " << t;
      sum += in[b * kBlock + t];
    }
  }
}

TEST_F(HostCode, AKernelThatCallsAHostFunctionIsAnErrorAtTheCall) {
  auto e = compile_error<float*>(device, "calls_host.cu",
                                 "#include <stdio.h>\n"
                                 "__host__ void prepare(float* p) { p[0] = 1; }\n"
                                 "__global__ void k(float* p) {\n"
                                 "  prepare(p);\n"
                                 "}\n");
  EXPECT_EQ(e.file(), "calls_host.cu");
  EXPECT_EQ(e.line(), 4U) << e.what();
  EXPECT_TRUE(contains(e.what(), "prepare")) << e.what();
  if (device.info().backend != BackendKind::hip) {  // hipRTC words it as Clang does
    EXPECT_TRUE(contains(e.what(), "host function")) << e.what();
  }
}

TEST_F(HostCode, AKernelThatCallsTheHostsCLibraryIsAnErrorAtTheCall) {
  auto e = compile_error<int*>(device, "calls_fopen.cu",
                               "#include <stdio.h>\n"
                               "__global__ void k(int* p) {\n"
                               "  FILE* f = fopen(\"x\", \"r\");\n"
                               "  p[0] = f != 0;\n"
                               "}\n");
  EXPECT_EQ(e.file(), "calls_fopen.cu");
  EXPECT_EQ(e.line(), 3U) << e.what();
  EXPECT_TRUE(contains(e.what(), "fopen")) << e.what();
}

TEST_F(HostCode, HostFunctionsThatNoKernelReachesCostNothing) {
  // Unmarked functions are compiled for the device too (as NVRTC's default-device does): one
  // that a kernel calls works; one that calls the host's C library and no kernel reaches is
  // dropped.
  auto k = Program::from_source(
               "helpers.cu",
               "#include <stdio.h>\n"
               "#include <stdlib.h>\n"
               "int triple(int x) { return 3 * x; }\n"
               "void fail(const char* why) { fprintf(stderr, \"%s\", why); "
               "exit(1); }\n"
               "__global__ void k(int* p) { p[threadIdx.x] = triple(p[threadIdx.x]); }\n")
               .kernel<int*>("k", device);
  auto v = device.upload(std::vector<int>{1, 2, 3, 4});
  k.launch(LaunchConfig{.grid = {1}, .block = {4}}, v);
  EXPECT_EQ(v.download(), (std::vector<int>{3, 6, 9, 12}));
}

TEST_F(HostCode, NvccsMacrosSelectTheDevicePath) {
  auto k = Program::from_source("macros.cu", R"(
    #include <cuda_runtime.h>
    #if defined(__CUDACC__) && defined(__NVCC__) && defined(__CUDACC_RTC__)
    #define COMPILER 1
    #else
    #define COMPILER 0
    #endif
    __host__ __device__ int where() {
    #ifdef __CUDA_ARCH__
      return __CUDA_ARCH__ >= 700 ? 2 : 3;
    #else
      return 4;
    #endif
    }
    __global__ void k(int* p) { p[0] = where(); p[1] = COMPILER; p[2] = CUDART_VERSION >= 12000; }
  )")
               .kernel<int*>("k", device);
  auto v = poisoned<int>(3);
  k.launch(LaunchConfig{}, v);
  EXPECT_EQ(v.download(), (std::vector<int>{2, 1, 1}));
}

TEST_F(HostCode, MainAndLaunchesInAnInMemoryHeaderAreIgnoredToo) {
  CompileOptions options;
  options.headers["launcher.h"] =
      "__global__ void add_one(int* p);\n"
      "inline void launch(int* p) { add_one<<<1, 32>>>(p); }\n";
  auto k = Program::from_source("with_header.cu",
                                "#include \"launcher.h\"\n"
                                "__global__ void add_one(int* p) { p[threadIdx.x] += 1; }\n"
                                "int main() { launch(0); return 0; }\n",
                                options)
               .kernel<int*>("add_one", device);
  std::vector<int> host(32);
  std::iota(host.begin(), host.end(), 0);
  auto v = device.upload(host);
  k.launch(LaunchConfig{.grid = {1}, .block = {32}}, v);
  for (int& x : host) {
    ++x;
  }
  EXPECT_EQ(v.download(), host);
}

TEST_F(HostCode, AFileWithTheHostsHeadersFunctionsAndVariablesLoadsAsWritten) {
  // What benchmark suites put around their kernels: the host's headers (none of which kjit
  // ships, one of which exists nowhere), host functions that no device compiler accepts
  // (memalign, a variable-length array, varargs, std::chrono), a host variable with a dynamic
  // initializer, a class of the host's, and main with the CUDA runtime and cuBLAS.
  const std::string source = R"(#include <chrono>
#include <unistd.h>
#include <malloc.h>
#include <stdarg.h>
#include <sys/resource.h>
#include <sched.h>
#include <cublas_v2.h>
#include <omp.h>
#include "timing_of_another_project.h"
int width = 1000;
int tiles = (width - width % 512) / 32;
double now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}
float* buffer(size_t n) { return (float*)memalign(64, n * sizeof(float)); }
void smooth(float* x, int size) { float coe[2 * size - 1]; for (int i = 0; i < size; i++) coe[i] = x[i]; }
void note(const char* format, ...) { va_list args; va_start(args, format); vprintf(format, args); va_end(args); }
struct Options { std::string name; int n; void parse(char** argv) { n = atoi(argv[1]); } };
__global__ void scale(float* y, const float* x, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i];
}
int main(int argc, char** argv) {
  cublasHandle_t handle;
  cublasCreate(&handle);
  float *x, *y;
  cudaMalloc(&x, 4 * width);
  cudaMalloc(&y, 4 * width);
  scale<<<tiles, 256>>>(y, x, 2.0f, width);
  return 0;
}
)";
  auto scale = Program::from_source("suite_main.cu", source)
                   .kernel<float*, const float*, float, int>("scale", device);
  const int n = 1000;
  const std::vector<float> x = random_vector<float>(n, -10, 10);
  auto d_x = device.upload(x);
  auto d_y = poisoned<float>(n);
  scale.launch(LaunchConfig::for_elements(n), d_y, d_x, 3.0f, n);
  const std::vector<float> y = d_y.download();
  for (int i = 0; i < n; ++i) {
    ASSERT_EQ(y[i], 3.0f * x[i]) << i;
  }
}

TEST_F(HostCode, AHeaderThatDeviceCodeNeedsAndNothingAnswersIsNamedInTheError) {
  auto e = compile_error<float*>(device, "needs_vec.cu",
                                 "#include \"vec3_of_another_project.h\"\n"
                                 "__global__ void k(float* p) {\n"
                                 "  p[0] = dot3(p, p);\n"
                                 "}\n");
  EXPECT_EQ(e.file(), "needs_vec.cu");
  EXPECT_EQ(e.line(), 3U) << e.what();
  EXPECT_TRUE(contains(e.what(), "dot3")) << e.what();
  EXPECT_TRUE(
      contains(e.what(), "needs_vec.cu:1:1: note: kjit found no 'vec3_of_another_project.h'"))
      << e.what();
}

TEST_F(HostCode, HostCodeInHeadersAndClassesIsSetAsideWhereverItIs) {
  // A header of host helpers whose inline functions call each other (as cuda-samples'
  // helper_string.h does), a host function of the file that calls one, and a class that kernels
  // use whose host member calls what no file declares.
  CompileOptions options;
  options.headers["host_helpers.h"] = R"(
#include <string>
inline int skip(char delimiter, const char* text) { int i = 0; while (text[i] == delimiter) i++; return i; }
inline bool has_flag(int argc, const char** argv, const char* flag) {
  for (int i = 1; i < argc; i++) { std::string arg(argv[i] + skip('-', argv[i])); if (arg == flag) return true; }
  return false;
}
)";
  const std::string source = R"(#include "host_helpers.h"
struct Grid {
  int nx, ny;
  __host__ __device__ int cells() const { return nx * ny; }
  void dump(const char* file) const { write_grid_somewhere(file, nx, ny); }
};
bool verbose(int argc, const char** argv) { return has_flag(argc, argv, "verbose"); }
__global__ void fill(Grid g, int* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < g.cells()) out[i] = i % g.nx;
}
)";
  struct Grid {
    int nx, ny;
  };
  auto fill = Program::from_source("grid.cu", source, options).kernel<Grid, int*>("fill", device);
  const Grid g{7, 9};
  auto out = poisoned<int>(63);
  fill.launch(LaunchConfig::for_elements(63, 32), g, out);
  const std::vector<int> got = out.download();
  for (int i = 0; i < 63; ++i) {
    ASSERT_EQ(got[i], i % 7) << i;
  }
}

}  // namespace
}  // namespace kjit::test
