// Hot reload (CompileOptions::watch, KJIT_HOT_RELOAD): a program from a file recompiles when the
// file or a header it includes changes, kernel() then returns the new code, and an edit that does
// not compile keeps the previous kernels and is reported.
#include "test_support.hpp"

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

namespace kjit::test {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

// Sanitizer builds compile several times slower: they are checked for results, not for speed.
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
constexpr bool kTimed = false;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
constexpr bool kTimed = false;
#else
constexpr bool kTimed = true;
#endif
#else
constexpr bool kTimed = true;
#endif

class HotReload : public DeviceTest {
 protected:
  void SetUp() override {
    DeviceTest::SetUp();
    dir_ = fs::temp_directory_path() /
           ("kjit-hot-reload-" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) +
            "-" + std::to_string(Clock::now().time_since_epoch().count()));
    fs::create_directories(dir_);
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }

  /// Writes `text` to `name` in the test's folder as an editor that saves in place does.
  void write(const std::string& name, const std::string& text) {
    std::ofstream(dir_ / name) << text;
  }
  /// As an editor that saves by renaming a new file over the old one does.
  void replace(const std::string& name, const std::string& text) {
    write(name + ".new", text);
    fs::rename(dir_ / (name + ".new"), dir_ / name);
  }

  static std::string kernel_text(const std::string& expression) {
    return "#include \"base.h\"\n"
           "__global__ void fill(int* out, int n) {\n"
           "  const int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
           "  if (i < n) out[i] = " +
           expression + ";\n}\n";
  }

  /// out[i] as the program's current kernel computes it, for n = 64.
  std::vector<int> run(const Program& program) {
    auto k = program.kernel<int*, int>("fill", device);
    auto out = poisoned<int>(64);
    k.launch(LaunchConfig::for_elements(64), out, 64);
    return out.download();
  }

  static std::vector<int> expected(const std::function<int(int)>& f) {
    std::vector<int> v(64);
    for (int i = 0; i < 64; ++i) {
      v[i] = f(i);
    }
    return v;
  }

  /// Calls kernel() until the program computes `want` (at most 5 s); returns the seconds taken.
  double until(const Program& program, const std::vector<int>& want) {
    const auto start = Clock::now();
    std::vector<int> got;
    while (Clock::now() - start < std::chrono::seconds(5)) {
      got = run(program);
      if (got == want) {
        break;
      }
    }
    EXPECT_EQ(got, want) << "the change was not picked up within 5 s";
    const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
    if (kTimed) {
      EXPECT_LT(seconds, 1.0) << "the new result took longer than a second";
    }
    std::printf("new result after %.3f s\n", seconds);
    return seconds;
  }

  fs::path dir_;
};

TEST_F(HotReload, AnEditedFileOrHeaderGivesTheNewKernelAndABrokenEditKeepsTheOld) {
  write("base.h", "#define BASE 100\n");
  write("fill.cu", kernel_text("BASE + i"));
  std::vector<std::string> failures;
  int successes = 0;
  const Program* self = nullptr;
  CompileOptions options;
  options.watch = true;
  options.on_reload = [&](const Error* failure) {
    if (failure != nullptr) {
      failures.emplace_back(failure->what());
    } else {
      ++successes;
    }
    // The callback may use the program: it runs after the reload let go of it.
    (void)self->kernel<int*, int>("fill", device);
  };
  const Program program = Program::from_file(dir_ / "fill.cu", options);
  self = &program;
  EXPECT_EQ(run(program), expected([](int i) { return 100 + i; }));
  auto before = program.kernel<int*, int>("fill", device);

  write("fill.cu", kernel_text("BASE + 2 * i"));
  until(program, expected([](int i) { return 100 + 2 * i; }));
  EXPECT_EQ(successes, 1);

  // A handle taken before the change runs the code it was made with.
  auto old = poisoned<int>(64);
  before.launch(LaunchConfig::for_elements(64), old, 64);
  EXPECT_EQ(old.download(), expected([](int i) { return 100 + i; }));

  replace("base.h", "#define BASE 7\n");  // a header, saved by renaming
  until(program, expected([](int i) { return 7 + 2 * i; }));
  EXPECT_EQ(successes, 2);

  write("fill.cu", kernel_text("BASE + * i"));  // does not compile
  const auto start = Clock::now();
  while (failures.empty() && Clock::now() - start < std::chrono::seconds(5)) {
    EXPECT_EQ(run(program), expected([](int i) { return 7 + 2 * i; }));
  }
  ASSERT_EQ(failures.size(), 1U) << "the failed reload was not reported";
  EXPECT_NE(failures[0].find("fill.cu:4"), std::string::npos) << failures[0];
  EXPECT_EQ(run(program), expected([](int i) { return 7 + 2 * i; }));
  EXPECT_EQ(failures.size(), 1U) << "a failed text was compiled again without a change";

  replace("fill.cu", kernel_text("BASE - i"));
  until(program, expected([](int i) { return 7 - i; }));
  EXPECT_EQ(successes, 3);
  EXPECT_EQ(failures.size(), 1U);
}

TEST_F(HotReload, KjitHotReloadWatchesEveryProgramFromAFile) {
  write("base.h", "#define BASE 1\n");
  write("fill.cu", kernel_text("BASE * i"));
  ASSERT_EQ(::setenv("KJIT_HOT_RELOAD", "1", 1), 0);
  const Program program = Program::from_file(dir_ / "fill.cu");
  ::unsetenv("KJIT_HOT_RELOAD");
  EXPECT_EQ(run(program), expected([](int i) { return i; }));
  write("base.h", "#define BASE 3\n");
  until(program, expected([](int i) { return 3 * i; }));

  // Without it, or the option, a program keeps the text it was made with.
  const Program unwatched = Program::from_file(dir_ / "fill.cu");
  EXPECT_EQ(run(unwatched), expected([](int i) { return 3 * i; }));
  write("base.h", "#define BASE 5\n");
  for (int call = 0; call < 20; ++call) {
    EXPECT_EQ(run(unwatched), expected([](int i) { return 3 * i; }));
  }
  until(program, expected([](int i) { return 5 * i; }));
}

TEST_F(HotReload, OnlyProgramsFromFilesCanBeWatched) {
  CompileOptions options;
  options.watch = true;
  try {
    (void)Program::from_source("fill.cu", kernel_text("i"), options);
    FAIL() << "a program from text took CompileOptions::watch";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("Program::from_file"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace kjit::test
