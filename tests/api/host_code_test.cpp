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

}  // namespace
}  // namespace kjit::test
