// Failed compiles never cost the process: a thousand of them, of every kind, each a clear
// exception, leave the device and the library working; and a program whose compiles all fail
// exits cleanly, every time (a CUDA device's context, still being made when such a program
// returned, once raced with the driver's own teardown), as does one that returns while variants
// compile in the background.
#include "failing_sources.hpp"
#include "test_support.hpp"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <filesystem>

extern char** environ;

namespace kjit::test {
namespace {

class FailingCompiles : public DeviceTest {};

TEST_F(FailingCompiles, AThousandOfThemLeaveTheLibraryAndTheDeviceWorking) {
  constexpr int kCompiles = 1000;
  int failed = 0;
  for (int i = 0; i < kCompiles; ++i) {
    try {
      (void)Program::from_source("failing_" + std::to_string(i) + ".cu", failing_source(i))
          .kernel<int*>("k", device);
      ADD_FAILURE() << "compiled: " << failing_source(i);
    } catch (const CompileError& e) {
      ++failed;
      ASSERT_FALSE(e.diagnostics().empty()) << e.what();
      ASSERT_TRUE(contains(e.what(), "failing_" + std::to_string(i) + ".cu")) << e.what();
    }
  }
  EXPECT_EQ(failed, kCompiles);
  auto k = Program::from_source("works.cu", "__global__ void k(int* p) { p[threadIdx.x] *= 3; }")
               .kernel<int*>("k", device);
  const std::vector<int> in = random_vector<int>(64, -1000, 1000);
  auto v = device.upload(in);
  k.launch(LaunchConfig{.grid = {1}, .block = {64}}, v);
  const std::vector<int> out = v.download();
  for (std::size_t i = 0; i < in.size(); ++i) {
    ASSERT_EQ(out[i], 3 * in[i]) << i;
  }
}

/// Runs the probe `name`, built beside this test (and carried with it), `runs` times with the
/// argument `arg`; each run must exit with 0.
void expect_clean_exits(const std::string& name, const char* arg, int runs) {
  const std::string probe =
      (std::filesystem::read_symlink("/proc/self/exe").parent_path() / name).string();
  std::array<char, 8> value{};
  std::snprintf(value.data(), value.size(), "%s", arg);
  std::array<char*, 3> args{const_cast<char*>(probe.c_str()), value.data(), nullptr};
  posix_spawn_file_actions_t quiet;
  ASSERT_EQ(posix_spawn_file_actions_init(&quiet), 0);
  ASSERT_EQ(posix_spawn_file_actions_addopen(&quiet, 1, "/dev/null", O_WRONLY, 0), 0);
  for (int run = 0; run < runs; ++run) {
    pid_t pid = 0;
    ASSERT_EQ(posix_spawn(&pid, probe.c_str(), &quiet, nullptr, args.data(), environ), 0);
    int status = 0;
    ASSERT_EQ(waitpid(pid, &status, 0), pid);
    ASSERT_TRUE(WIFEXITED(status))
        << name << " run " << run << " ended by signal " << WTERMSIG(status);
    ASSERT_EQ(WEXITSTATUS(status), 0) << name << " run " << run;
  }
  posix_spawn_file_actions_destroy(&quiet);
}

TEST_F(FailingCompiles, AProgramWhoseCompilesAllFailExitsCleanlyEveryTime) {
  expect_clean_exits("kjit_failing_compile_probe", "6", 40);
}

TEST_F(FailingCompiles, AProgramThatReturnsWhileVariantsCompileExitsCleanlyEveryTime) {
  expect_clean_exits("kjit_exit_while_compiling_probe", "6", 20);
}

}  // namespace
}  // namespace kjit::test
