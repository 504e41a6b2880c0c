// Building programs ahead of their first kernel() call: Program::build and build_all, which a
// program that registers many kernels calls at startup.
#include "test_support.hpp"

#include <fstream>
#include <string>

#include <unistd.h>

#if defined(KJIT_TEST_SANITIZED)
#include <sanitizer/allocator_interface.h>
#endif
#if defined(KJIT_TEST_SANITIZED) && !defined(KJIT_TEST_THREAD_SANITIZER)
#include <sanitizer/lsan_interface.h>
#endif

namespace kjit::test {
namespace {

class Build : public DeviceTest {
 protected:
  /// A program with one declared kernel, `k<salt>`, that computes y = x * salt + 1. The seed in
  /// the text keeps a previous run's cache entries out.
  Program salted(int salt) {
    const std::string s = std::to_string(salt);
    std::string text = "// run ";
    text += std::to_string(test_seed());
    text += "\n__global__ void k";
    text += s;
    text += "(const int* x, int* y, int n) {\n  int i = blockIdx.x * blockDim.x + threadIdx.x;\n";
    text += "  if (i < n) y[i] = x[i] * ";
    text += s;
    text += " + 1;\n}\n";
    std::string file = "build";
    file += s;
    file += ".cu";
    std::string kernel = "k";
    kernel += s;
    return Program::from_source(file, text, {.kernels = {kernel}});
  }

  /// Runs k<salt> of `p` and checks it against the host.
  void check(const Program& p, int salt) {
    const auto x = random_vector<int>(1000, -1000, 1000);
    auto y = poisoned<int>(x.size());
    std::string name = "k";
    name += std::to_string(salt);
    p.kernel<const int*, int*, int>(name, device)
        .launch(LaunchConfig::for_elements(x.size()), device.upload(x), y,
                static_cast<int>(x.size()));
    const auto out = y.download();
    for (std::size_t i = 0; i < x.size(); ++i) {
      ASSERT_EQ(out[i], x[i] * salt + 1) << "k" << salt << " at " << i;
    }
  }

  static std::uint64_t builds() {
    const CacheStats s = cache_stats();
    return s.compiles + s.hits;
  }
};

TEST_F(Build, BuildAllBuildsEachProgramOnceAndKernelsThenCompileNothing) {
  std::vector<Program> programs;
  for (int salt = 1; salt <= 8; ++salt) {
    programs.push_back(salted(salt));
  }
  const std::uint64_t before = builds();
  build_all(programs, device);
  EXPECT_EQ(builds() - before, programs.size()) << "one compile or cache load per program";
  const std::uint64_t built = builds();
  for (int salt = 1; salt <= 8; ++salt) {
    check(programs[static_cast<std::size_t>(salt - 1)], salt);
  }
  EXPECT_EQ(builds(), built) << "kernel() after build_all compiled again";
  build_all(programs, device);  // built already: nothing to do
  EXPECT_EQ(builds(), built);
}

TEST_F(Build, OneFailureDoesNotStopTheOthersAndTheFirstIsThrown) {
  std::vector<Program> programs{
      salted(11),
      salted(12),
      Program::from_source("broken.cu", "__global__ void k( {", {.kernels = {"k"}}),
      salted(13),
      Program::from_source("missing.cu", "__global__ void k() {}", {.kernels = {"not_there"}}),
      salted(14)};
  try {
    build_all(programs, device);
    FAIL() << "build_all succeeded with a broken program";
  } catch (const CompileError& e) {
    EXPECT_NE(std::string(e.what()).find("broken.cu"), std::string::npos) << e.what();
  }
  const std::uint64_t built = builds();
  for (const auto& [index, salt] :
       {std::pair<std::size_t, int>{0, 11}, {1, 12}, {3, 13}, {5, 14}}) {
    check(programs[index], salt);
  }
  EXPECT_EQ(builds(), built) << "the good programs were not built";
  EXPECT_THROW(programs[4].build(device), KernelNotFoundError);
}

TEST_F(Build, AProgramMustDeclareWhatToBuild) {
  const Program undeclared = Program::from_source("plain.cu", "__global__ void k() {}");
  try {
    undeclared.build(device);
    FAIL() << "build() without declared kernels succeeded";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("CompileOptions::kernels"), std::string::npos) << e.what();
  }
  EXPECT_THROW(Program().build(device), UsageError);
  const std::vector<Program> none;
  EXPECT_NO_THROW(build_all(none, device));
}

/// This process's resident memory, in KiB (Linux).
long resident_kib() {
  std::ifstream statm("/proc/self/statm");
  long pages = 0;
  long resident = 0;
  statm >> pages >> resident;
  return resident * (::sysconf(_SC_PAGESIZE) / 1024);
}

/// The memory this process holds, in KiB: under a sanitizer, the heap its allocator has handed
/// out and not had back (resident memory there also holds the quarantine of freed memory and the
/// shadow memory); otherwise resident memory, which also counts JIT'd code mapped outside the heap.
long held_kib() {
#if defined(KJIT_TEST_SANITIZED)
  return static_cast<long>(__sanitizer_get_current_allocated_bytes() / 1024);
#else
  return resident_kib();
#endif
}

TEST_F(Build, AThousandProgramsComeAndGoWithoutGrowingMemory) {
  // Each Program is new: it loads its binary from the disk cache (the first compiles it) and
  // links or loads it, and must release that code when its last handle goes. A leak of a JIT'd
  // object or a module is tens of KiB a program: 1000 of them would grow memory by tens of MiB.
  // Under a sanitizer the growth is that of the live heap, and under AddressSanitizer
  // LeakSanitizer also looks for memory that nothing points to any more, at once, not at exit.
  const std::string source =
      "// run " + std::to_string(test_seed()) + "\n__global__ void k(int* v, int x) { *v = x; }";
  if (!cache_config().enabled) {
    GTEST_SKIP() << "KJIT_CACHE=off: each of the 1200 programs would compile";
  }
  auto v = device.alloc<int>(1);
  const auto come_and_go = [&](int i) {
    auto k = Program::from_source("churn.cu", source).kernel<int*, int>("k", device);
    k.launch(LaunchConfig{}, v, i);
  };
  for (int i = 0; i < 200; ++i) {  // allocator pools, the cache's files and the driver warm up
    come_and_go(i);
  }
  device.synchronize();
  const long before = held_kib();
  for (int i = 0; i < 1000; ++i) {
    come_and_go(i);
  }
  device.synchronize();
  const long growth = held_kib() - before;
  EXPECT_EQ(v.download()[0], 999);
  EXPECT_LT(growth, 4096) << "1000 programs came and went, and the memory held grew by " << growth
                          << " KiB";
#if defined(KJIT_TEST_SANITIZED) && !defined(KJIT_TEST_THREAD_SANITIZER)
  EXPECT_EQ(__lsan_do_recoverable_leak_check(), 0)
      << "LeakSanitizer found memory that nothing points to (its report is above)";
#endif
}

}  // namespace
}  // namespace kjit::test
