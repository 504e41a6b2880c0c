// Prints what Device::select() and the first compile do under the environment CTest gives it,
// so that tests can check how each variable is read (the registry reads them once per process).
#include <kjit/kjit.hpp>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>

#include <unistd.h>

namespace {

/// Under KJIT_PERF_MAP=1: prints this process's perf map, then removes it.
void print_perf_map() {
  if (std::getenv("KJIT_PERF_MAP") == nullptr) {
    return;
  }
  const std::string path = "/tmp/perf-" + std::to_string(::getpid()) + ".map";
  std::ifstream in(path);
  if (!in) {
    std::printf("no perf map at %s\n", path.c_str());
    return;
  }
  for (std::string line; std::getline(in, line);) {
    std::printf("perf map: %s\n", line.c_str());
  }
  std::remove(path.c_str());
}

}  // namespace

int main() {
  try {
    const kjit::Device device = kjit::Device::select();
    const kjit::DeviceInfo& info = device.info();
    std::printf("selected %s compute_units=%u\n", info.id().c_str(), info.compute_units);
    // KJIT_TEST_PROBE_BARRIER=1: a kernel with a barrier, for the CPU's ways of running them.
    const char* barrier = std::getenv("KJIT_TEST_PROBE_BARRIER");
    const bool with_barrier = barrier != nullptr && std::string(barrier) == "1";
    const std::string text = with_barrier
                                 ? "__global__ void k(int* v) {\n  __syncthreads();\n  *v = 7;\n}\n"
                                 : "__global__ void k(int* v) { *v = 7; }";
    // KJIT_TEST_PROBE_FILE=path: the kernel from that file (written first), for variables that
    // concern programs from files.
    const char* file = std::getenv("KJIT_TEST_PROBE_FILE");
    if (file != nullptr) {
      std::ofstream(file) << text;
    }
    auto k = (file != nullptr ? kjit::Program::from_file(file)
                              : kjit::Program::from_source("probe.cu", text))
                 .kernel<int*>("k", device);
    auto v = device.alloc<int>(1);
    k.launch(kjit::LaunchConfig{}, v);
    std::printf("kernel result %d\n", v.download()[0]);
    print_perf_map();
    return 0;
  } catch (const kjit::ConfigError& e) {
    std::printf("ConfigError: %s\n", e.what());
  } catch (const kjit::DeviceError& e) {
    std::printf("DeviceError: %s\n", e.what());
  } catch (const kjit::CompileError& e) {
    std::printf("CompileError: %s\n", e.what());
  } catch (const kjit::BackendError& e) {
    std::printf("BackendError: %s\n", e.what());
  } catch (const std::exception& e) {
    std::printf("other error: %s\n", e.what());
  }
  return 1;
}
