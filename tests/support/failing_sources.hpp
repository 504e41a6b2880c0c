// Kernel files that no backend compiles, each failing in another part of a compiler, for the
// tests that a failed compile never costs the process (faults/failing_compiles_test.cpp) or a
// compiler (unit/nvrtc_compile_test.cpp, unit/hiprtc_compile_test.cpp). Each defines or calls a
// kernel `k(int*)`; each `i` gives another text, so that no compile is one already cached.
#pragma once

#include <string>

namespace kjit::test {

inline std::string failing_source(int i) {
  const std::string id = std::to_string(i);
  switch (i % 6) {
    case 0:  // a syntax error
      return "__global__ void k(int* p) { p[0] = " + id + " +; }\n";
    case 1:  // a name no file declares
      return "__global__ void k(int* p) { p[0] = missing_" + id + "; }\n";
    case 2:  // a kernel defined twice
      return "__global__ void k(int* p) { p[0] = " + id +
             "; }\n"
             "__global__ void k(int* p) { p[0] = 0; }\n";
    case 3:  // a header that nothing answers, needed by the kernel
      return "#include \"nowhere_" + id + ".h\"\n__global__ void k(int* p) { p[0] = f(); }\n";
    case 4:  // a type error in a template instantiated by the kernel
      return "template <class T> __device__ T g(T x) { return x.nothing; }\n"
             "__global__ void k(int* p) { p[0] = g(" +
             id + "); }\n";
    default:  // a call of a host function
      return "#include <stdio.h>\n__global__ void k(int* p) { fclose(0); p[0] = " + id + "; }\n";
  }
}

}  // namespace kjit::test
