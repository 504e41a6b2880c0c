// The remote cache tier on a real redis-server: a program compiled by one "node" (a process's
// disk cache) loads on another from Redis without a compile; a corrupt remote entry is refused
// and replaced; a store that is down, stops answering, refuses the password or is full is
// reported once and every result stays correct.
#include "cache_support.hpp"
#include "core/cache/cache_key.hpp"
#include "core/cache/disk_cache.hpp"
#include "core/cache/entry_signing.hpp"
#include "core/cache/remote_tier.hpp"
#include "redis_server.hpp"
#include "test_support.hpp"

#include <kjit/kjit.hpp>

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cstdio>

#include <atomic>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <functional>
#include <thread>

namespace kjit::test {
namespace {

namespace fs = std::filesystem;
namespace cache = detail::cache;

class RemoteCacheTest : public DeviceTest {
 protected:
  void SetUp() override {
    DeviceTest::SetUp();
    if (IsSkipped()) {
      return;
    }
    if (!have_redis()) {
      GTEST_SKIP() << "SKIPPED: redis-server and redis-cli are not installed "
                      "(scripts/install-deps.sh installs them)";
    }
    static std::atomic<int> count{0};
    dir_ = fs::temp_directory_path() / fmt::format("kjr-{}-{}", getpid(), count++);
    fs::remove_all(dir_);
    fs::create_directories(dir_ / "src");
    std::ofstream(dir_ / "src" / "scale.h") << "#define SCALE 3\n";
  }
  void TearDown() override {
    server_.reset();
    cache::use_remote_tier({});
    if (!dir_.empty()) {
      fs::remove_all(dir_);
    }
  }

  void start_server(std::vector<std::string> extra = {}) {
    server_ = std::make_unique<RedisServer>(dir_ / "redis", std::move(extra));
  }

  /// Makes this process a fresh node: an empty disk cache of its own and the remote tier at
  /// `url` (none when empty). The timeout is long where a test is not about timeouts: a test
  /// machine under load (sanitizers, parallel tests) is not a server that stopped answering.
  void become_node(const std::string& name, const std::string& url,
                   std::chrono::milliseconds timeout = std::chrono::milliseconds(2000),
                   std::optional<std::string> key = std::nullopt) {
    cache::RemoteSettings r;
    if (!url.empty()) {
      r.address = cache::parse_remote_address(url, "test");
    }
    r.timeout = timeout;
    r.key = std::move(key);
    become_node(name, std::move(r));
  }
  /// The same with the remote tier's settings in full.
  void become_node(const std::string& name, cache::RemoteSettings remote) {
    cache::CacheSettings s;
    s.user_dir = dir_ / "nodes" / name;
    cache::use_disk_cache(s);
    cache::use_remote_tier(std::move(remote));
  }

  /// The tier at `url` with a wait bound of `wait` (and become_node's long timeout).
  [[nodiscard]] static cache::RemoteSettings waiting(const std::string& url,
                                                     std::chrono::milliseconds wait) {
    cache::RemoteSettings r;
    r.address = cache::parse_remote_address(url, "test");
    r.timeout = std::chrono::milliseconds(2000);
    r.wait = wait;
    return r;
  }

  /// Program scaled<salt> compiled and published by node "a", then its entry deleted from the
  /// store: a key that a holder could be compiling. Its hex ("" after a failed expectation).
  std::string key_without_entry(int salt) {
    become_node("a", server_->url());
    EXPECT_EQ(run_program(salt), 0);
    const std::vector<std::string> names = server_->entry_names();
    EXPECT_EQ(names.size(), 1U);
    if (names.size() != 1) {
      return {};
    }
    (void)server_->cli(fmt::format("DEL {}", names[0]));
    return names[0].substr(std::string("kjit:entry:").size());
  }

  /// Loads program scaled<salt> afresh and counts its wrong outputs.
  int run_program(int salt) {
    const fs::path p = dir_ / "src" / fmt::format("scaled{}.cu", salt);
    if (!fs::exists(p)) {
      std::ofstream(p) << scaled_copy_source(salt);
    }
    return scaled_copy_mismatches(Program::from_file(p), device, 3, salt, 7U + salt);
  }

  /// The node's disk entries of programs.
  [[nodiscard]] std::size_t disk_entries() const {
    return cache::disk_cache().entries(false).size();
  }

  /// Starts a cache worker process as node `node` (a disk cache of its own) on the store, for
  /// programs scaled<from> to scaled<to - 1>.
  FILE* start_worker(const std::string& node, int from, int to,
                     const std::string& env = "KJIT_CACHE_REMOTE_TIMEOUT_MS=2000") const {
    for (int salt = from; salt < to; ++salt) {
      const fs::path p = dir_ / "src" / fmt::format("scaled{}.cu", salt);
      if (!fs::exists(p)) {
        std::ofstream(p) << scaled_copy_source(salt);
      }
    }
    const std::string command = fmt::format(
        "KJIT_DEVICE=cpu KJIT_CPU_THREADS=1 KJIT_CACHE_DIR='{}' KJIT_CACHE_REMOTE='{}' {} "
        "exec '{}' '{}' {} {} 2>&1",
        (dir_ / "nodes" / node).string(), server_->url(), env, KJIT_CACHE_WORKER,
        (dir_ / "src").string(), from, to);
    return popen(command.c_str(), "r");
  }
  /// The value of "name=N" in a worker's output; -1 when absent.
  static long long field(const std::string& output, const std::string& name) {
    const auto at = output.find(name + "=");
    return at == std::string::npos ? -1 : std::stoll(output.substr(at + name.size() + 1));
  }

  std::unique_ptr<RedisServer> server_;
  fs::path dir_;
};

TEST_F(RemoteCacheTest, AProgramCompiledOnOneNodeLoadsOnAnotherWithoutACompile) {
  start_server();
  become_node("a", server_->url());
  const CacheStats before = cache_stats();
  EXPECT_EQ(run_program(1), 0);
  const CacheStats a = cache_stats();
  EXPECT_EQ(a.compiles - before.compiles, 1U);
  EXPECT_EQ(a.remote_misses - before.remote_misses, 1U);
  EXPECT_EQ(a.remote_stored - before.remote_stored, 1U);
  EXPECT_EQ(server_->entry_names().size(), 1U);

  become_node("b", server_->url());
  const std::size_t entries_before = disk_entries();
  EXPECT_EQ(run_program(1), 0);
  const CacheStats b = cache_stats();
  EXPECT_EQ(b.compiles, a.compiles) << "node b compiled what node a published";
  EXPECT_EQ(b.remote_hits - a.remote_hits, 1U);
  EXPECT_GT(disk_entries(), entries_before) << "a remote hit is written to the node's disk";

  // The next lookup on node b is a disk hit: Redis is not asked again.
  EXPECT_EQ(run_program(1), 0);
  const CacheStats b2 = cache_stats();
  EXPECT_EQ(b2.remote_hits, b.remote_hits);
  EXPECT_EQ(b2.remote_misses, b.remote_misses);
  EXPECT_EQ(b2.compiles, b.compiles);
}

TEST_F(RemoteCacheTest, ACorruptRemoteEntryIsRefusedAndReplacedByTheCompile) {
  start_server();
  become_node("a", server_->url());
  EXPECT_EQ(run_program(2), 0);
  const std::vector<std::string> names = server_->entry_names();
  ASSERT_EQ(names.size(), 1U);
  for (const std::string value : {"'not a kjit entry'", "''"}) {
    (void)server_->cli(fmt::format("SET {} {}", names[0], value));
    become_node(fmt::format("b{}", value.size()), server_->url());
    const CacheStats before = cache_stats();
    EXPECT_EQ(run_program(2), 0);
    const CacheStats after = cache_stats();
    EXPECT_EQ(after.remote_rejected - before.remote_rejected, 1U) << value;
    EXPECT_EQ(after.compiles - before.compiles, 1U) << value;
    EXPECT_EQ(after.remote_stored - before.remote_stored, 1U) << value;
  }
  // The entry the compile published serves the next node.
  become_node("c", server_->url());
  const CacheStats before = cache_stats();
  EXPECT_EQ(run_program(2), 0);
  EXPECT_EQ(cache_stats().remote_hits - before.remote_hits, 1U);
  EXPECT_EQ(cache_stats().compiles, before.compiles);
}

TEST_F(RemoteCacheTest, AnEntryUnderAnotherKeyIsRefused) {
  start_server();
  become_node("a", server_->url());
  EXPECT_EQ(run_program(3), 0);
  EXPECT_EQ(run_program(4), 0);
  const std::vector<std::string> names = server_->entry_names();
  ASSERT_EQ(names.size(), 2U);
  // Swap the two entries: each is a well-formed entry of another key.
  (void)server_->cli(fmt::format("RENAME {} kjit:swap", names[0]));
  (void)server_->cli(fmt::format("RENAME {} {}", names[1], names[0]));
  (void)server_->cli(fmt::format("RENAME kjit:swap {}", names[1]));
  become_node("b", server_->url());
  const CacheStats before = cache_stats();
  EXPECT_EQ(run_program(3), 0);
  EXPECT_EQ(run_program(4), 0);
  const CacheStats after = cache_stats();
  EXPECT_EQ(after.remote_rejected - before.remote_rejected, 2U);
  EXPECT_EQ(after.compiles - before.compiles, 2U);
}

TEST_F(RemoteCacheTest, AStoreThatIsDownIsReportedOnceAndProgramsRun) {
  start_server();
  const std::string url = server_->url();
  server_->stop();
  become_node("a", url);
  const CacheStats before = cache_stats();
  EXPECT_EQ(run_program(5), 0);
  EXPECT_EQ(run_program(6), 0);
  const CacheStats after = cache_stats();
  EXPECT_EQ(after.remote_failures - before.remote_failures, 1U) << "tried once, then left off";
  EXPECT_EQ(after.compiles - before.compiles, 2U);
  EXPECT_FALSE(cache::remote_tier().enabled());
  EXPECT_GE(disk_entries(), 2U) << "the disk cache goes on";
}

TEST_F(RemoteCacheTest, AStoreKilledMidRunIsReportedOnceAndProgramsRun) {
  start_server();
  become_node("a", server_->url());
  EXPECT_EQ(run_program(7), 0);
  server_->stop();
  const CacheStats before = cache_stats();
  EXPECT_EQ(run_program(8), 0);
  EXPECT_EQ(run_program(9), 0);
  const CacheStats after = cache_stats();
  EXPECT_EQ(after.remote_failures - before.remote_failures, 1U);
  EXPECT_EQ(after.compiles - before.compiles, 2U);
}

TEST_F(RemoteCacheTest, AStoreThatStopsAnsweringTimesOutOnce) {
  start_server();
  server_->pause();  // connects (the kernel accepts), then never answers
  become_node("a", server_->url(), std::chrono::milliseconds(50));
  const CacheStats before = cache_stats();
  EXPECT_EQ(run_program(10), 0);
  EXPECT_EQ(run_program(11), 0);
  const CacheStats after = cache_stats();
  EXPECT_EQ(after.remote_failures - before.remote_failures, 1U);
  EXPECT_EQ(after.compiles - before.compiles, 2U);
  server_->resume();
}

TEST_F(RemoteCacheTest, AWrongPasswordIsReportedAndTheRightOneWorks) {
  start_server({"--requirepass", "s3cret"});
  become_node("a", server_->url(":wrong@"));
  CacheStats before = cache_stats();
  EXPECT_EQ(run_program(12), 0);
  EXPECT_EQ(cache_stats().remote_failures - before.remote_failures, 1U);
  EXPECT_TRUE(server_->entry_names("s3cret").empty());

  become_node("b", server_->url(":s3cret@"));
  before = cache_stats();
  EXPECT_EQ(run_program(12), 0);
  EXPECT_EQ(cache_stats().remote_failures, before.remote_failures);
  EXPECT_EQ(cache_stats().remote_stored - before.remote_stored, 1U);
  EXPECT_EQ(server_->entry_names("s3cret").size(), 1U);
}

TEST_F(RemoteCacheTest, AFullStoreIsReportedOnceAndProgramsRun) {
  start_server({"--maxmemory", "1", "--maxmemory-policy", "noeviction"});
  become_node("a", server_->url());
  const CacheStats before = cache_stats();
  EXPECT_EQ(run_program(13), 0);
  EXPECT_EQ(run_program(14), 0);
  const CacheStats after = cache_stats();
  EXPECT_EQ(after.remote_failures - before.remote_failures, 1U);
  EXPECT_EQ(after.remote_stored, before.remote_stored);
  EXPECT_EQ(after.compiles - before.compiles, 2U);
}

TEST_F(RemoteCacheTest, AUnixSocketAndADatabaseNumberWork) {
  start_server();
  become_node("a", server_->socket_url() + "?db=3");
  EXPECT_EQ(run_program(15), 0);
  EXPECT_EQ(server_->cli("-n 3 DBSIZE"), "1\n");
  EXPECT_EQ(server_->cli("-n 0 DBSIZE"), "0\n");
  become_node("b", server_->url() + "/3");
  const CacheStats before = cache_stats();
  EXPECT_EQ(run_program(15), 0);
  EXPECT_EQ(cache_stats().remote_hits - before.remote_hits, 1U);
  EXPECT_EQ(cache_stats().compiles, before.compiles);
}

TEST_F(RemoteCacheTest, AProcessWaitsForTheLeaseHoldersEntryInsteadOfCompiling) {
  start_server();
  become_node("a", server_->url());
  EXPECT_EQ(run_program(30), 0);
  const std::vector<std::string> names = server_->entry_names();
  ASSERT_EQ(names.size(), 1U);
  const std::string hex = names[0].substr(std::string("kjit:entry:").size());
  // Another process holds the lease, and publishes its entry once node b has asked for the
  // lease (a SET the server ran after this one) and waited a little.
  (void)server_->cli(fmt::format("RENAME {} kjit:saved", names[0]));
  ASSERT_EQ(server_->cli(fmt::format("SET kjit:lease:{} other NX PX 60000", hex)), "OK\n");
  const long long sets = server_->calls("set");
  std::thread holder([&] {
    for (int i = 0; i < 6000 && server_->calls("set") <= sets; ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    (void)server_->cli(fmt::format("RENAME kjit:saved {}", names[0]));
    (void)server_->cli(fmt::format("DEL kjit:lease:{}", hex));
  });
  become_node("b", server_->url());
  const CacheStats before = cache_stats();
  EXPECT_EQ(run_program(30), 0);
  holder.join();
  const CacheStats after = cache_stats();
  EXPECT_EQ(after.compiles, before.compiles) << "waited for the holder's entry";
  EXPECT_EQ(after.remote_waits - before.remote_waits, 1U);
  EXPECT_EQ(after.remote_hits - before.remote_hits, 1U);
  EXPECT_EQ(after.remote_leases, before.remote_leases);
}

TEST_F(RemoteCacheTest, ALeaseWhoseHolderDiedIsTakenOverAndReleased) {
  start_server();
  const std::string hex = key_without_entry(31);
  ASSERT_FALSE(hex.empty());
  // A holder that died mid-compile: no entry, and a lease nobody renews.
  ASSERT_EQ(server_->cli(fmt::format("SET kjit:lease:{} dead NX PX 2000", hex)), "OK\n");
  become_node("b", server_->url());
  const CacheStats before = cache_stats();
  EXPECT_EQ(run_program(31), 0);
  const CacheStats after = cache_stats();
  EXPECT_EQ(after.remote_takeovers - before.remote_takeovers, 1U);
  EXPECT_EQ(after.remote_leases - before.remote_leases, 1U);
  EXPECT_EQ(after.compiles - before.compiles, 1U);
  EXPECT_EQ(after.remote_stored - before.remote_stored, 1U);
  EXPECT_EQ(server_->cli(fmt::format("EXISTS kjit:lease:{}", hex)), "0\n")
      << "released once published";
}

TEST_F(RemoteCacheTest, ALeaseIsRenewedWhileItsHolderCompilesAndEndedWhenItGivesUp) {
  start_server();
  cache::RemoteSettings r;
  r.address = cache::parse_remote_address(server_->url(), "test");
  r.timeout = std::chrono::milliseconds(200);
  r.lease = std::chrono::milliseconds(1000);
  cache::RemoteTier& tier = cache::use_remote_tier(r);
  cache::CacheKey key;
  key.hex = "0123456789abcdef0123456789abcdef";
  EXPECT_FALSE(tier.fetch(key)) << "nothing there: this process takes the lease";
  // Three lease times later, the renewals have kept it.
  std::this_thread::sleep_for(std::chrono::milliseconds(3000));
  const std::string ttl = server_->cli(fmt::format("PTTL kjit:lease:{}", key.hex));
  EXPECT_GT(std::stoll(ttl), 0) << ttl;
  tier.abandon(key);
  EXPECT_EQ(server_->cli(fmt::format("EXISTS kjit:lease:{}", key.hex)), "0\n");
}

TEST_F(RemoteCacheTest, SixtyFourProcessesStartingColdCompileEachProgramOnce) {
  start_server();
  constexpr int kProcesses = 64;
  std::vector<FILE*> workers;
  workers.reserve(kProcesses);
  for (int i = 0; i < kProcesses; ++i) {
    // 64 processes on a test machine's few cores, Redis among them: a reply late by a
    // scheduling delay is not a server that stopped answering (that has its own test).
    // The wait bound too: a holder starved of a core for seconds is still compiling.
    workers.push_back(start_worker(fmt::format("n{}", i), 40, 42,
                                   "KJIT_CACHE_REMOTE_TIMEOUT_MS=10000 "
                                   "KJIT_CACHE_REMOTE_WAIT_MS=600000"));
  }
  long long compiles = 0;
  long long remote = 0;
  std::string compilers;  // the output of each process that compiled
  for (FILE* w : workers) {
    const std::string output = finish_worker(w);
    EXPECT_EQ(field(output, "mismatches"), 0) << output;
    compiles += field(output, "compiles");
    remote += field(output, "remote_hits");
    if (field(output, "compiles") != 0) {
      compilers += output;
    }
  }
  EXPECT_EQ(compiles, 2) << "one compile per program across every process:\n" << compilers;
  EXPECT_EQ(remote, 2 * kProcesses - 2);
}

TEST_F(RemoteCacheTest, AHolderKilledMidCompileIsTakenOverAndNoProcessHangs) {
  start_server();
  // A program that takes about a second to compile: 1500 chained functions the kernel may call.
  std::string slow = "#include \"scale.h\"\n__device__ __noinline__ int f0(int x) { return x; }\n";
  for (int i = 1; i < 1500; ++i) {
    slow += fmt::format("__device__ __noinline__ int f{}(int x) {{ return f{}(x) * 3 + {}; }}\n", i,
                        i - 1, i);
  }
  slow +=
      "__global__ void scaled(const int* in, int* out, int n) {\n"
      "  const int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
      "  if (i < n) out[i] = in[i] * SCALE + 80 + (n < 0 ? f1499(in[i]) : 0);\n}\n";
  std::ofstream(dir_ / "src" / "scaled80.cu") << slow;
  FILE* holder = start_worker("holder", 80, 81);
  long long pid = -1;
  std::array<char, 256> buffer{};
  while (pid < 0 && fgets(buffer.data(), buffer.size(), holder) != nullptr) {
    if (std::string_view(buffer.data()).starts_with("pid=")) {
      pid = std::stoll(std::string(buffer.data() + 4));
    }
  }
  ASSERT_GT(pid, 0);
  // Killed once it holds the lease, while it compiles.
  bool leased = false;
  for (int i = 0; i < 3000 && !leased; ++i) {
    leased = !server_->cli("--scan --pattern 'kjit:lease:*'").empty();
    if (!leased) {
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
  }
  ASSERT_TRUE(leased) << "the holder never took the lease";
  ::kill(static_cast<pid_t>(pid), SIGKILL);
  pclose(holder);
  EXPECT_TRUE(server_->entry_names().empty()) << "killed before it published";
  const std::string output = finish_worker(start_worker("other", 80, 81));
  EXPECT_EQ(field(output, "mismatches"), 0) << output;
  EXPECT_EQ(field(output, "remote_takeovers"), 1) << output;
  EXPECT_EQ(field(output, "compiles"), 1) << output;
  EXPECT_EQ(server_->entry_names().size(), 1U);
  EXPECT_EQ(server_->cli("--scan --pattern 'kjit:lease:*'"), "") << "every lease ended";
}

/// A failed compile's lease becomes a mark for a while: the processes that miss the key then
/// compile it at once, each meeting the error, instead of taking the lease one after another.
TEST_F(RemoteCacheTest, ACompileThatFailsMarksItsLeaseAndTheNextProcessCompilesAtOnce) {
  start_server();
  become_node("a", server_->url());
  std::ofstream(dir_ / "src" / "broken.cu") << "__global__ void broken(int* p) { p[0] = nope; }\n";
  const auto compile_broken = [&] {
    (void)Program::from_file(dir_ / "src" / "broken.cu").kernel<int*>("broken", device);
  };
  const CacheStats before = cache_stats();
  EXPECT_THROW(compile_broken(), CompileError);
  EXPECT_EQ(cache_stats().remote_leases - before.remote_leases, 1U);
  const std::string leases = server_->cli("--scan --pattern 'kjit:lease:*'");
  ASSERT_EQ(std::count(leases.begin(), leases.end(), '\n'), 1) << leases;
  const std::string lease = leases.substr(0, leases.size() - 1);
  EXPECT_EQ(server_->cli("GET " + lease), "failed\n");
  const long long ttl = std::stoll(server_->cli("PTTL " + lease));
  EXPECT_GT(ttl, 0);
  EXPECT_LE(ttl, 30000);

  // A waiter would poll for seconds.
  become_node("b", waiting(server_->url(), std::chrono::milliseconds(5000)));
  const CacheStats b = cache_stats();
  const long long gets = server_->calls("get");
  EXPECT_THROW(compile_broken(), CompileError);
  EXPECT_LE(server_->calls("get") - gets, 2) << "the entry's read and the lease's, no polling";
  const CacheStats after = cache_stats();
  EXPECT_EQ(after.remote_leases, b.remote_leases) << "no lease taken while the mark stands";
  EXPECT_EQ(after.remote_waits, b.remote_waits);
  EXPECT_EQ(after.remote_takeovers, b.remote_takeovers);
}

/// A mark left by a failure that was the holder's alone (its machine ran out of memory): the
/// next process compiles at once, succeeds, and publishes for every other.
TEST_F(RemoteCacheTest, AProgramWhoseMarkedCompileWorksHereIsPublished) {
  start_server();
  const std::string hex = key_without_entry(33);
  ASSERT_FALSE(hex.empty());
  ASSERT_EQ(server_->cli(fmt::format("SET kjit:lease:{} failed PX 600000", hex)), "OK\n");
  // A waiter would poll for seconds.
  become_node("b", waiting(server_->url(), std::chrono::milliseconds(5000)));
  const CacheStats before = cache_stats();
  const long long gets = server_->calls("get");
  EXPECT_EQ(run_program(33), 0);
  EXPECT_LE(server_->calls("get") - gets, 2) << "the entry's read and the lease's, no polling";
  const CacheStats after = cache_stats();
  EXPECT_EQ(after.compiles - before.compiles, 1U);
  EXPECT_EQ(after.remote_waits, before.remote_waits);
  EXPECT_EQ(after.remote_leases, before.remote_leases);
  EXPECT_EQ(after.remote_stored - before.remote_stored, 1U);
  EXPECT_EQ(server_->entry_names().size(), 1U);
}

TEST_F(RemoteCacheTest, AWaiterCompilesItselfPastTheWaitBound) {
  start_server();
  const std::string hex = key_without_entry(90);
  ASSERT_FALSE(hex.empty());
  // A holder that renews its lease and never publishes (a compile that hangs).
  ASSERT_EQ(server_->cli(fmt::format("SET kjit:lease:{} stuck NX PX 600000", hex)), "OK\n");
  become_node("b", waiting(server_->url(), std::chrono::milliseconds(300)));
  const CacheStats before = cache_stats();
  EXPECT_EQ(run_program(90), 0);
  const CacheStats after = cache_stats();
  EXPECT_EQ(after.compiles - before.compiles, 1U);
  EXPECT_EQ(after.remote_waits, before.remote_waits);
  EXPECT_EQ(after.remote_takeovers, before.remote_takeovers);
  EXPECT_EQ(after.remote_stored - before.remote_stored, 1U) << "its entry is published";
}

TEST_F(RemoteCacheTest, AMalformedSettingIsAConfigErrorAtTheFirstCompileNotAnAbort) {
  const fs::path src = dir_ / "src" / "ok.cu";
  std::ofstream(src) << "__global__ void ok(int* p) { p[0] = 1; }\n";
  become_node("a", "");
  for (const auto& [variable, value] : std::vector<std::pair<std::string, std::string>>{
           {"KJIT_CACHE_REMOTE", "redis://:s3cret@host:port"},
           {"KJIT_CACHE_REMOTE_TIMEOUT_MS", "abc"},
           {"KJIT_CACHE_REMOTE_WAIT_MS", "0"}}) {
    ::setenv(variable.c_str(), value.c_str(), 1);
    if (variable != "KJIT_CACHE_REMOTE") {
      ::setenv("KJIT_CACHE_REMOTE", "redis://127.0.0.1:1", 1);
    }
    cache::forget_remote_tier();
    const auto e = expect_throw<ConfigError>(
        [&] { (void)Program::from_file(src).kernel<int*>("ok", device); });
    EXPECT_NE(std::string(e.what()).find(variable), std::string::npos) << e.what();
    EXPECT_EQ(std::string(e.what()).find("s3cret"), std::string::npos) << e.what();
    ::unsetenv(variable.c_str());
    ::unsetenv("KJIT_CACHE_REMOTE");
  }
  cache::use_remote_tier({});
}

TEST_F(RemoteCacheTest, SignedEntriesLoadWithTheKeyAndAreRefusedWithoutIt) {
  start_server();
  const auto node = [&](const std::string& name, std::optional<std::string> key) {
    become_node(name, server_->url(), std::chrono::milliseconds(2000), std::move(key));
  };
  const std::string fleet(40, 'k');
  const std::string other(40, 'x');
  node("a", fleet);
  EXPECT_EQ(run_program(60), 0);
  const std::vector<std::string> names = server_->entry_names();
  ASSERT_EQ(names.size(), 1U);

  // The same key: a hit.
  node("b", fleet);
  CacheStats before = cache_stats();
  EXPECT_EQ(run_program(60), 0);
  EXPECT_EQ(cache_stats().remote_hits - before.remote_hits, 1U);
  EXPECT_EQ(cache_stats().compiles, before.compiles);

  // A process without a key checks nothing, and loads the entry inside the signed frame.
  node("c", std::nullopt);
  before = cache_stats();
  EXPECT_EQ(run_program(60), 0);
  EXPECT_EQ(cache_stats().remote_hits - before.remote_hits, 1U);

  // Another key: refused, compiled, and its own entry published in its place.
  node("d", other);
  before = cache_stats();
  EXPECT_EQ(run_program(60), 0);
  EXPECT_EQ(cache_stats().remote_rejected - before.remote_rejected, 1U);
  EXPECT_EQ(cache_stats().compiles - before.compiles, 1U);

  // An unsigned entry, as whoever can write to Redis would plant one: refused by the fleet.
  node("e", std::nullopt);
  (void)server_->cli(fmt::format("DEL {}", names[0]));
  EXPECT_EQ(run_program(60), 0);
  node("f", fleet);
  before = cache_stats();
  EXPECT_EQ(run_program(60), 0);
  EXPECT_EQ(cache_stats().remote_rejected - before.remote_rejected, 1U);
  EXPECT_EQ(cache_stats().compiles - before.compiles, 1U);

  // A signed entry with one byte changed: refused.
  (void)server_->cli(fmt::format("SETRANGE {} 200 Z", names[0]));
  node("g", fleet);
  before = cache_stats();
  EXPECT_EQ(run_program(60), 0);
  EXPECT_EQ(cache_stats().remote_rejected - before.remote_rejected, 1U);
  EXPECT_EQ(cache_stats().compiles - before.compiles, 1U);
}

TEST_F(RemoteCacheTest, AFleetUserThatMayOnlyReadEntriesLoadsWhatAWarmerWrote) {
  start_server();
  ASSERT_EQ(server_->cli("ACL SETUSER warmer on '>wpw' '~kjit:*' '+@all'"), "OK\n");
  ASSERT_EQ(server_->cli("ACL SETUSER fleet on '>fpw' resetkeys '%R~kjit:entry:*' "
                         "'~kjit:lease:*' +get +set +eval +pexpire +del +select +ping"),
            "OK\n");
  become_node("warmer", server_->url("warmer:wpw@"));
  EXPECT_EQ(run_program(70), 0);
  ASSERT_EQ(server_->entry_names().size(), 1U);

  become_node("fleet1", server_->url("fleet:fpw@"));
  CacheStats before = cache_stats();
  EXPECT_EQ(run_program(70), 0);
  EXPECT_EQ(run_program(71), 0);  // not in the store: compiled, and not published
  CacheStats after = cache_stats();
  EXPECT_EQ(after.remote_hits - before.remote_hits, 1U);
  EXPECT_EQ(after.compiles - before.compiles, 1U);
  EXPECT_EQ(after.remote_stored, before.remote_stored);
  EXPECT_EQ(after.remote_failures, before.remote_failures) << "reading goes on";
  EXPECT_EQ(server_->entry_names().size(), 1U);
  EXPECT_TRUE(cache::remote_tier().enabled());
}

TEST_F(RemoteCacheTest, AKeyFileMustBeLongAndPrivate) {
  const fs::path file = dir_ / "fleet.key";
  std::ofstream(file) << std::string(40, 'k');
  fs::permissions(file, fs::perms::owner_read | fs::perms::owner_write);
  EXPECT_EQ(cache::read_key_file(file, "KJIT_CACHE_REMOTE_KEY").size(), 40U);
  fs::permissions(file, fs::perms::group_read, fs::perm_options::add);
  const auto open = expect_throw<ConfigError>([&] { (void)cache::read_key_file(file, "V"); });
  EXPECT_NE(std::string(open.what()).find("chmod 600"), std::string::npos) << open.what();
  std::ofstream(file, std::ios::trunc) << "short";
  fs::permissions(file, fs::perms::owner_read | fs::perms::owner_write);
  const auto shorter = expect_throw<ConfigError>([&] { (void)cache::read_key_file(file, "V"); });
  EXPECT_NE(std::string(shorter.what()).find("5 bytes"), std::string::npos) << shorter.what();
  EXPECT_THROW((void)cache::read_key_file(dir_ / "none", "V"), ConfigError);
}

/// The public call sets the tier as the environment would, with the same checks; a bad option
/// leaves the tier as it was, and an empty URL turns it off.
TEST_F(RemoteCacheTest, AProgramSetsTheTierItselfAndBadOptionsLeaveItAsItWas) {
  start_server({"--requirepass", "fleet-secret-pw"});
  const std::string url = server_->url(":fleet-secret-pw@");
  const fs::path key = dir_ / "fleet.key";
  std::ofstream(key) << std::string(48, 'q');
  fs::permissions(key, fs::perms::owner_read | fs::perms::owner_write);
  cache::CacheSettings disk;
  disk.user_dir = dir_ / "nodes" / "a";
  cache::use_disk_cache(disk);
  RemoteCacheOptions good;
  good.url = url;
  good.timeout = std::chrono::milliseconds(2000);
  good.key_file = key;
  set_remote_cache(good);
  EXPECT_EQ(cache_config().remote.find("fleet-secret-pw"), std::string::npos)
      << cache_config().remote;
  EXPECT_NE(cache_config().remote.find("127.0.0.1"), std::string::npos) << cache_config().remote;
  const CacheStats before = cache_stats();
  EXPECT_EQ(run_program(30), 0);
  EXPECT_EQ(cache_stats().remote_stored - before.remote_stored, 1U);

  // Each bad option is a ConfigError naming it, and the tier stays.
  const auto options = [&](const std::function<void(RemoteCacheOptions&)>& change) {
    RemoteCacheOptions o;
    o.url = url;
    change(o);
    return o;
  };
  const std::vector<std::pair<RemoteCacheOptions, std::string>> bad = {
      {options([](auto& o) { o.url = "http://127.0.0.1:1"; }), "RemoteCacheOptions::url"},
      {options([](auto& o) { o.timeout = std::chrono::milliseconds(0); }),
       "RemoteCacheOptions::timeout"},
      {options([](auto& o) { o.wait = std::chrono::hours(2); }), "RemoteCacheOptions::wait"},
      {options([&](auto& o) { o.key_file = dir_ / "none.key"; }), "RemoteCacheOptions::key_file"},
  };
  for (const auto& [option, named] : bad) {
    const auto e = expect_throw<ConfigError>([&] { set_remote_cache(option); });
    EXPECT_NE(std::string(e.what()).find(named), std::string::npos) << e.what();
  }
  disk.user_dir = dir_ / "nodes" / "b";
  cache::use_disk_cache(disk);
  const CacheStats b = cache_stats();
  EXPECT_EQ(run_program(30), 0);
  EXPECT_EQ(cache_stats().remote_hits - b.remote_hits, 1U) << "the signed entry, with the key";
  EXPECT_EQ(cache_stats().compiles, b.compiles);

  // An empty URL turns the tier off: a fresh node compiles, and the store is not asked.
  set_remote_cache({});
  EXPECT_EQ(cache_config().remote, "");
  disk.user_dir = dir_ / "nodes" / "c";
  cache::use_disk_cache(disk);
  const CacheStats c = cache_stats();
  EXPECT_EQ(run_program(30), 0);
  EXPECT_EQ(cache_stats().compiles - c.compiles, 1U);
  EXPECT_EQ(cache_stats().remote_misses, c.remote_misses);
}

/// Separate processes on libkjit.so, configured by the environment alone: the second "node"
/// (its own disk cache) compiles nothing.
TEST_F(RemoteCacheTest, ProcessesOnTwoNodesShareOneStoreThroughTheEnvironment) {
  start_server();
  for (int salt = 20; salt < 23; ++salt) {
    std::ofstream(dir_ / "src" / fmt::format("scaled{}.cu", salt)) << scaled_copy_source(salt);
  }
  const auto run_node = [&](const std::string& node) {
    return finish_worker(start_worker(node, 20, 23));
  };
  const std::string first = run_node("a");
  EXPECT_NE(first.find("compiles=3 "), std::string::npos) << first;
  EXPECT_EQ(server_->entry_names().size(), 3U);
  const std::string second = run_node("b");
  EXPECT_NE(second.find("compiles=0 "), std::string::npos) << second;
  EXPECT_NE(second.find("mismatches=0"), std::string::npos) << second;
}

}  // namespace
}  // namespace kjit::test
