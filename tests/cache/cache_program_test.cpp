// The disk cache under real programs on the device under test: hits skip the compiler and give
// the same results; a changed header, a corrupt or unloadable entry, and concurrent compiles of
// one program (threads and processes) all end with correct results and one compile per key.
#include "cache_support.hpp"
#include "core/cache/cache_entry.hpp"
#include "core/cache/cache_key.hpp"
#include "core/cache/cached_build.hpp"
#include "core/cache/disk_cache.hpp"
#include "core/device_impl.hpp"
#include "support/file_text.hpp"
#include "test_support.hpp"

#include <kjit/kjit.hpp>

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>
#include <string_view>
#include <thread>

namespace kjit::test {
namespace {

namespace fs = std::filesystem;
namespace cache = detail::cache;

class CacheProgramTest : public DeviceTest {
 protected:
  void SetUp() override {
    DeviceTest::SetUp();
    if (IsSkipped()) {
      return;
    }
    dir_ = fs::temp_directory_path() /
           fmt::format("kjit-cache-{}-{}", getpid(),
                       ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_ / "src");
    cache::CacheSettings s;
    s.user_dir = dir_ / "cache";
    cache::use_disk_cache(s);
    write_header(3);
  }
  void TearDown() override {
    if (!dir_.empty()) {
      fs::remove_all(dir_);
    }
  }

  void write_header(int scale) {
    std::ofstream(dir_ / "src" / "scale.h", std::ios::trunc) << "#define SCALE " << scale << "\n";
  }
  fs::path write_source(int salt) {
    const fs::path p = dir_ / "src" / fmt::format("scaled{}.cu", salt);
    std::ofstream(p, std::ios::trunc) << scaled_copy_source(salt);
    return p;
  }
  /// The programs' entries; on CUDA the cache also holds NVRTC's remembered identity, which the
  /// notes beside an entry tell apart.
  std::vector<fs::path> entries() const {
    std::vector<fs::path> out;
    for (const auto& f : fs::recursive_directory_iterator(dir_ / "cache")) {
      if (f.path().extension() == ".kjit") {
        std::ifstream notes(fs::path(f.path()).replace_extension(".json"));
        const std::string text{std::istreambuf_iterator<char>(notes), {}};
        if (text.find("\"format\": \"compiler-identity\"") == std::string::npos) {
          out.push_back(f.path());
        }
      }
    }
    return out;
  }

  /// The key and bytes of the cache's one entry, which is then removed with the whole cache (a
  /// fresh, empty one takes its place).
  std::pair<std::string, std::string> take_the_entry() {
    const std::vector<fs::path> all = entries();
    EXPECT_EQ(all.size(), 1U);
    if (all.empty()) {
      return {};
    }
    std::ifstream in(all.front(), std::ios::binary);
    std::string bytes{std::istreambuf_iterator<char>(in), {}};
    fs::remove_all(dir_ / "cache");
    cache::CacheSettings s;
    s.user_dir = dir_ / "cache";
    cache::use_disk_cache(s);
    return {all.front().stem().string(), std::move(bytes)};
  }

  /// Starts a worker process on this test's cache for programs scaled<from> to scaled<to - 1>.
  /// `shell` runs first, in the worker's shell.
  FILE* start_worker(int from, int to, std::string_view shell = "") const {
    const std::string command = fmt::format("{} KJIT_CACHE_DIR='{}' exec '{}' '{}' {} {} 2>&1",
                                            shell, (dir_ / "cache").string(), KJIT_CACHE_WORKER,
                                            (dir_ / "src").string(), from, to);
    return popen(command.c_str(), "r");
  }

  fs::path dir_;
};

TEST_F(CacheProgramTest, ASecondProgramLoadsFromTheCacheWithoutCompiling) {
  const fs::path src = write_source(1);
  const CacheConfig config = cache_config();
  EXPECT_TRUE(config.enabled);
  EXPECT_TRUE(config.writable);
  EXPECT_EQ(config.directory, dir_ / "cache");
  const CacheStats before = cache_stats();
  EXPECT_EQ(scaled_copy_mismatches(Program::from_file(src), device, 3, 1, 11), 0);
  const CacheStats cold = cache_stats();
  EXPECT_EQ(cold.compiles, before.compiles + 1);
  EXPECT_EQ(cold.stored, before.stored + 1);
  EXPECT_EQ(entries().size(), 1U);

  EXPECT_EQ(scaled_copy_mismatches(Program::from_file(src), device, 3, 1, 12), 0);
  const CacheStats warm = cache_stats();
  EXPECT_EQ(warm.compiles, cold.compiles) << "a hit must not compile";
  EXPECT_EQ(warm.hits, cold.hits + 1);
  EXPECT_GT(warm.load_ms, cold.load_ms);
}

TEST_F(CacheProgramTest, AChangedHeaderRecompilesAndTheResultFollowsIt) {
  const fs::path src = write_source(2);
  EXPECT_EQ(scaled_copy_mismatches(Program::from_file(src), device, 3, 2, 21), 0);
  write_header(5);
  const auto compiles = cache_stats().compiles;
  EXPECT_EQ(scaled_copy_mismatches(Program::from_file(src), device, 5, 2, 22), 0)
      << "a stale binary from the old header was used";
  EXPECT_EQ(cache_stats().compiles, compiles + 1);
  write_header(3);
  EXPECT_EQ(scaled_copy_mismatches(Program::from_file(src), device, 3, 2, 23), 0);
  EXPECT_EQ(cache_stats().compiles, compiles + 1) << "the first header's entry is still there";
}

TEST_F(CacheProgramTest, ACorruptEntryIsRebuiltAndTheProgramRuns) {
  const fs::path src = write_source(3);
  EXPECT_EQ(scaled_copy_mismatches(Program::from_file(src), device, 3, 3, 31), 0);
  ASSERT_EQ(entries().size(), 1U);
  const fs::path entry = entries().front();
  {
    std::fstream f(entry, std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(static_cast<std::streamoff>(fs::file_size(entry) / 2));
    f.put('\x7f');
  }
  const CacheStats before = cache_stats();
  EXPECT_EQ(scaled_copy_mismatches(Program::from_file(src), device, 3, 3, 32), 0);
  const CacheStats after = cache_stats();
  EXPECT_EQ(after.rejected, before.rejected + 1);
  EXPECT_EQ(after.compiles, before.compiles + 1);
  EXPECT_EQ(scaled_copy_mismatches(Program::from_file(src), device, 3, 3, 33), 0);
  EXPECT_EQ(cache_stats().hits, after.hits + 1) << "the rebuilt entry is used";
}

TEST_F(CacheProgramTest, AnEntryThatDoesNotLoadIsRebuilt) {
  const fs::path src = write_source(4);
  EXPECT_EQ(scaled_copy_mismatches(Program::from_file(src), device, 3, 4, 41), 0);
  ASSERT_EQ(entries().size(), 1U);
  const fs::path entry = entries().front();
  std::ifstream in(entry, std::ios::binary);
  const std::string bytes{std::istreambuf_iterator<char>(in), {}};
  const std::string key = entry.stem().string();
  auto decoded = cache::decode_entry(bytes, key);
  ASSERT_TRUE(decoded.binary) << decoded.problem;
  decoded.binary->bytes.assign(4096, 0x42);  // checksummed, but not code the device can load
  std::ofstream(entry, std::ios::binary | std::ios::trunc)
      << cache::encode_entry(key, *decoded.binary);

  const CacheStats before = cache_stats();
  EXPECT_EQ(scaled_copy_mismatches(Program::from_file(src), device, 3, 4, 42), 0);
  EXPECT_EQ(cache_stats().rejected, before.rejected + 1);
  EXPECT_EQ(cache_stats().compiles, before.compiles + 1);
}

TEST_F(CacheProgramTest, AnEmbeddedEntryLoadsWithoutCompilingAndNothingIsStored) {
  const fs::path src = write_source(5);
  EXPECT_EQ(scaled_copy_mismatches(Program::from_file(src), device, 3, 5, 51), 0);
  auto [key, bytes] = take_the_entry();
  const std::size_t embedded_before = cache_config().embedded_entries;
  const std::array<EmbeddedEntry, 1> precompiled{{{key.c_str(), bytes.data(), bytes.size()}}};
  const EmbeddedKernels registration({}, {}, precompiled);
  EXPECT_EQ(cache_config().embedded_entries, embedded_before + 1);

  const CacheStats before = cache_stats();
  EXPECT_EQ(scaled_copy_mismatches(Program::from_file(src), device, 3, 5, 52), 0);
  const CacheStats after = cache_stats();
  EXPECT_EQ(after.compiles, before.compiles) << "the embedded entry must spare the compile";
  EXPECT_EQ(after.hits, before.hits + 1);
  EXPECT_EQ(after.stored, before.stored);
  EXPECT_TRUE(entries().empty()) << "an embedded hit is not copied into the user's cache";

  // KJIT_CACHE=off turns the embedded tier off too.
  cache::CacheSettings off;
  off.mode = detail::environment::CacheMode::off;
  cache::use_disk_cache(off);
  EXPECT_EQ(scaled_copy_mismatches(Program::from_file(src), device, 3, 5, 53), 0);
  EXPECT_EQ(cache_stats().compiles, after.compiles + 1);
}

TEST_F(CacheProgramTest, ACorruptEmbeddedEntryIsPassedOverAndTheProgramCompiles) {
  const fs::path src = write_source(6);
  EXPECT_EQ(scaled_copy_mismatches(Program::from_file(src), device, 3, 6, 61), 0);
  auto [key, bytes] = take_the_entry();
  bytes[bytes.size() / 2] = static_cast<char>(bytes[bytes.size() / 2] ^ 0x20);
  const std::array<EmbeddedEntry, 1> precompiled{{{key.c_str(), bytes.data(), bytes.size()}}};
  const EmbeddedKernels registration({}, {}, precompiled);

  const CacheStats before = cache_stats();
  EXPECT_EQ(scaled_copy_mismatches(Program::from_file(src), device, 3, 6, 62), 0);
  const CacheStats after = cache_stats();
  EXPECT_EQ(after.rejected, before.rejected + 1);
  EXPECT_EQ(after.compiles, before.compiles + 1);
  EXPECT_EQ(entries().size(), 1U) << "the compiled program is stored in the user's cache";
  EXPECT_EQ(scaled_copy_mismatches(Program::from_file(src), device, 3, 6, 63), 0);
  EXPECT_EQ(cache_stats().hits, after.hits + 1) << "the user's entry is used next";
}

TEST_F(CacheProgramTest, AnEmbeddedEntryThatDoesNotLoadIsDroppedAndTheProgramCompiles) {
  const fs::path src = write_source(7);
  EXPECT_EQ(scaled_copy_mismatches(Program::from_file(src), device, 3, 7, 71), 0);
  auto [key, bytes] = take_the_entry();
  auto decoded = cache::decode_entry(bytes, key);
  ASSERT_TRUE(decoded.binary) << decoded.problem;
  decoded.binary->bytes.assign(4096, 0x42);  // checksummed, but not code the device can load
  const std::string unloadable = cache::encode_entry(key, *decoded.binary);
  const std::array<EmbeddedEntry, 1> precompiled{
      {{key.c_str(), unloadable.data(), unloadable.size()}}};
  const EmbeddedKernels registration({}, {}, precompiled);
  const std::size_t embedded = cache_config().embedded_entries;

  const CacheStats before = cache_stats();
  EXPECT_EQ(scaled_copy_mismatches(Program::from_file(src), device, 3, 7, 72), 0);
  EXPECT_EQ(cache_stats().rejected, before.rejected + 1);
  EXPECT_EQ(cache_stats().compiles, before.compiles + 1);
  EXPECT_EQ(cache_config().embedded_entries, embedded - 1) << "not tried again";
}

/// A compiler whose library cannot be loaded: identity() and compile() throw BackendError.
class AbsentCompiler : public backend::Compiler {
 public:
  explicit AbsentCompiler(std::vector<std::string> loadable) : loadable_(std::move(loadable)) {}
  backend::TargetIdentity identity() override { throw BackendError("kjit: no such compiler"); }
  backend::Binary compile(const backend::CompileRequest&) override {
    throw BackendError("kjit: no such compiler");
  }
  std::vector<std::string> loadable_targets() override { return loadable_; }

 private:
  std::vector<std::string> loadable_;
};

TEST_F(CacheProgramTest, WithoutItsCompilerAProgramLoadsTheBinaryPrecompiledForItsDevice) {
  backend::CompileRequest request;
  request.program_name = "precompiled.cu";
  request.source = scaled_copy_source(9);
  request.headers = {{"scale.h", "#define SCALE 3\n"}};
  request.kernel_names = {"scaled"};
  request.kernel_signatures = {std::nullopt};
  backend::Device& on = device.impl()->backend();
  const std::string target = on.compiler_for(request).identity().target;
  ASSERT_FALSE(cache::build_through_cache(request, on).from_cache);
  auto [key, bytes] = take_the_entry();

  AbsentCompiler absent({"cuda:sm_1", target});
  EXPECT_THROW((void)cache::build_through_cache(request, absent, &on), BackendError)
      << "nothing is precompiled yet";
  const std::string second = cache::make_precompiled_key(request, target).key->hex;
  EXPECT_NE(second, key);
  const std::array<EmbeddedEntry, 1> precompiled{
      {{key.c_str(), bytes.data(), bytes.size(), second.c_str()}}};
  const EmbeddedKernels registration({}, {}, precompiled);
  const CacheStats before = cache_stats();
  const cache::CachedBuild built = cache::build_through_cache(request, absent, &on);
  EXPECT_TRUE(built.from_cache);
  EXPECT_NE(built.module, nullptr);
  EXPECT_EQ(built.symbols.size(), 1U);
  EXPECT_EQ(cache_stats().hits, before.hits + 1);
  EXPECT_EQ(cache_stats().compiles, before.compiles);

  request.defines = {{"UNUSED", "1"}};  // another key: nothing precompiled for it
  EXPECT_THROW((void)cache::build_through_cache(request, absent, &on), BackendError);
}

TEST_F(CacheProgramTest, SixteenThreadsWithTheirOwnProgramsCompileOnce) {
  const fs::path src = write_source(5);
  const auto compiles = cache_stats().compiles;
  std::vector<std::thread> threads;
  std::atomic<int> bad{0};
  for (int t = 0; t < 16; ++t) {
    threads.emplace_back([&, t] {
      // Separate Program objects share nothing in memory: only the disk cache's key lock.
      bad += scaled_copy_mismatches(Program::from_file(src), device, 3, 5,
                                    static_cast<std::uint32_t>(50 + t));
    });
  }
  for (auto& t : threads) {
    t.join();
  }
  EXPECT_EQ(bad, 0);
  EXPECT_EQ(cache_stats().compiles, compiles + 1);
}

TEST_F(CacheProgramTest, APlainTemplateNameCostsNoCompileWhenWarm) {
  const Program cold = Program::from_file(kernel_path("saxpy.cu"));
  (void)cold.kernel<float, const float*, float*, int>("saxpy", device);
  const CacheStats after_cold = cache_stats();
  const Program warm = Program::from_file(kernel_path("saxpy.cu"));
  auto k = warm.kernel<float, const float*, float*, int>("saxpy", device);
  EXPECT_EQ(cache_stats().compiles, after_cold.compiles)
      << "the failed plain lookup must be remembered too";
  const std::vector<float> x{1, 2, 3};
  auto dx = device.upload(std::span<const float>(x));
  auto dy = device.upload(std::span<const float>(std::vector<float>{10, 20, 30}));
  k.launch(LaunchConfig::for_elements(3), 2.0f, dx, dy, 3);
  EXPECT_EQ(dy.download(), (std::vector<float>{12, 24, 36}));
}

TEST_F(CacheProgramTest, SixteenProcessesWarmingOneEmptyCacheCompileEachKeyOnce) {
  // 16 processes ask for the same 32 programs at once, each process in its own order.
  for (int salt = 10; salt < 42; ++salt) {
    write_source(salt);
  }
  std::vector<FILE*> workers;
  for (int w = 0; w < 16; ++w) {
    FILE* p = start_worker(10, 42);
    ASSERT_NE(p, nullptr);
    workers.push_back(p);
  }
  unsigned long total = 0;
  for (FILE* p : workers) {
    const std::string output = finish_worker(p);
    unsigned long compiles = 0;
    const auto at = output.find("compiles=");
    ASSERT_NE(at, std::string::npos) << output;
    compiles = std::stoul(output.substr(at + 9));
    total += compiles;
  }
  EXPECT_EQ(total, 32U) << "32 programs, 16 processes: each program compiled once";
}

TEST_F(CacheProgramTest, AFullDiskCostsTheCacheNotTheRun) {
#if defined(KJIT_TEST_THREAD_SANITIZER)
  GTEST_SKIP() << "under a file size limit (ulimit -f), ThreadSanitizer's runtime dies of SIGBUS "
                  "in libLLVM's static constructors, before main(); the other builds run this test";
#endif
  for (int salt = 50; salt < 54; ++salt) {
    write_source(salt);
  }
  // The worker may not write a file past its first block: every cache write fails part way, at
  // the write() where a full disk would fail (EFBIG instead of ENOSPC), and is not a signal.
  const std::string full = finish_worker(start_worker(50, 54, "trap '' XFSZ; ulimit -f 1;"));
  EXPECT_NE(full.find("compiles=4 "), std::string::npos) << full;
  EXPECT_NE(full.find("cannot store"), std::string::npos) << "the lost store is a warning\n"
                                                          << full;
  EXPECT_TRUE(entries().empty()) << "no entry may come from a write that failed";
  for (const auto& f : fs::recursive_directory_iterator(dir_ / "cache")) {
    EXPECT_EQ(f.path().filename().string().find(detail::kTempFileMark), std::string::npos)
        << "temporary file left behind: " << f.path();
  }
  // With room again, the next process stores what it compiles, and the one after loads it.
  const std::string room = finish_worker(start_worker(50, 54));
  EXPECT_NE(room.find("compiles=4 "), std::string::npos) << room;
  const std::string warm = finish_worker(start_worker(50, 54));
  EXPECT_NE(warm.find("compiles=0 "), std::string::npos) << warm;
}

TEST_F(CacheProgramTest, ProcessesKilledWhileCompilingLeaveNothingALaterRunLoadsWrong) {
  // 20 workers, one after another, each compiling 8 real programs into one cache (4 new ones and
  // 4 of the previous worker's) and killed with SIGKILL. Even trials kill within 5 ms of the
  // worker starting a program that no one has compiled yet, so in its compile (a compile takes
  // tens of milliseconds): all of them must land there. Odd trials kill at a random moment up to
  // 500 ms after the worker starts: before its first compile, in one, between writing an entry
  // and renaming it, or after it finished.
  constexpr int kFirst = 60;
  constexpr int kTrials = 20;
  constexpr int kLast = kFirst + 4 * kTrials + 4;
  for (int salt = kFirst; salt < kLast; ++salt) {
    write_source(salt);
  }
  std::mt19937_64 random(test_seed());
  std::uniform_int_distribution<int> early_us(0, 5000);
  std::uniform_int_distribution<int> any_us(0, 500000);
  int in_compile = 0;
  int killed = 0;
  for (int trial = 0; trial < kTrials; ++trial) {
    const int from = kFirst + 4 * trial;
    const int first_new = from + 4;  // the previous worker's programs come first
    FILE* worker = start_worker(from, from + 8);
    ASSERT_NE(worker, nullptr);
    const bool aimed = trial % 2 == 0;
    std::array<char, 256> buffer{};
    std::string output;
    pid_t pid = 0;
    int target = -1;  // the new program an aimed kill lands in
    while (fgets(buffer.data(), buffer.size(), worker) != nullptr) {
      const std::string line = buffer.data();
      output += line;
      int salt = 0;
      if (pid == 0 && std::sscanf(line.c_str(), "pid=%d", &pid) == 1 && !aimed) {
        std::this_thread::sleep_for(std::chrono::microseconds(any_us(random)));
        ::kill(pid, SIGKILL);
      } else if (aimed && target < 0 && std::sscanf(line.c_str(), "start %d", &salt) == 1 &&
                 salt >= first_new) {
        target = salt;
        std::this_thread::sleep_for(std::chrono::microseconds(early_us(random)));
        ::kill(pid, SIGKILL);
      }
    }
    const int status = pclose(worker);
    // Finished before its killer, or killed: nothing else.
    if (status != 0) {
      EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL) << status << output;
      ++killed;
    } else {
      EXPECT_NE(output.find("mismatches=0 "), std::string::npos) << output;
    }
    if (aimed) {
      ASSERT_GE(target, 0) << "the worker started no new program\n" << output;
      const bool landed =
          status != 0 && output.find(fmt::format("done {}\n", target)) == std::string::npos;
      EXPECT_TRUE(landed) << "the kill aimed at the compile of scaled" << target
                          << ".cu came after it\n"
                          << output;
      in_compile += landed ? 1 : 0;
    }
  }
  std::printf("[  NOTE    ] %d of %d workers killed, %d of %d in a compile (KJIT_TEST_SEED=%llu)\n",
              killed, kTrials, in_compile, kTrials / 2,
              static_cast<unsigned long long>(test_seed()));
  EXPECT_EQ(in_compile, kTrials / 2) << "every aimed kill must land in a compile";
  // What they left: a run that compiles whatever is missing, then one that loads every entry.
  // Both check every result.
  const std::string fill = finish_worker(start_worker(kFirst, kLast));
  EXPECT_NE(fill.find("mismatches=0 "), std::string::npos) << fill;
  const std::string warm = finish_worker(start_worker(kFirst, kLast));
  EXPECT_NE(warm.find("compiles=0 "), std::string::npos) << warm;
  EXPECT_NE(warm.find("mismatches=0 "), std::string::npos) << warm;
}

TEST_F(CacheProgramTest, AWarmProcessNeverLoadsNvrtc) {
  if (device.info().backend != BackendKind::cuda) {
    GTEST_SKIP() << "only the CUDA backend loads its compiler (NVRTC) as a library";
  }
  write_source(20);
  write_source(21);
  FILE* first = start_worker(20, 22);
  ASSERT_NE(first, nullptr);
  const std::string cold = finish_worker(first);
  EXPECT_NE(cold.find("compiles=2 "), std::string::npos) << cold;
  EXPECT_NE(cold.find("nvrtc_loaded=1"), std::string::npos) << cold;
  FILE* second = start_worker(20, 22);
  ASSERT_NE(second, nullptr);
  const std::string warm = finish_worker(second);
  EXPECT_NE(warm.find("compiles=0 hits=2 "), std::string::npos) << warm;
  EXPECT_NE(warm.find("nvrtc_loaded=0"), std::string::npos)
      << "every program was cached, yet NVRTC was loaded: " << warm;
}

}  // namespace
}  // namespace kjit::test
