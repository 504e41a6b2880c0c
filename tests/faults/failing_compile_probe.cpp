// A program whose compiles all fail: it selects its device, compiles a failing kernel file a few
// times (each a caught kjit::CompileError), and returns. It must exit with 0 every time, on every
// backend: no failed compile, and nothing left running by one, may end it otherwise
// (failing_compiles_test.cpp runs it many times).
#include <kjit/kjit.hpp>

#include <cstdio>
#include <cstdlib>
#include <string>

int main(int argc, char** argv) {
  const int times = argc > 1 ? std::atoi(argv[1]) : 6;
  try {
    const kjit::Device device = kjit::Device::select();
    int failed = 0;
    for (int i = 0; i < times; ++i) {
      // A kernel that uses a host variable with a dynamic initializer: no device compiler takes
      // it. Each text differs, so that each compile is a real one.
      const std::string source = "int width = 1000 + " + std::to_string(i) +
                                 ";\n"
                                 "int tiles = (width - width % 512) / 32;\n"
                                 "__global__ void k(int* p) { p[0] = tiles; }\n"
                                 "__global__ void k2(int* p) { p[1] = undeclared_name; }\n";
      try {
        (void)kjit::Program::from_source("failing.cu", source).kernel<int*>("k2", device);
      } catch (const kjit::CompileError&) {
        ++failed;
      }
    }
    std::printf("%d of %d compiles failed\n", failed, times);
    return failed == times ? 0 : 1;
  } catch (const kjit::DeviceError& e) {
    std::printf("no device: %s\n", e.what());
    return 0;
  }
}
