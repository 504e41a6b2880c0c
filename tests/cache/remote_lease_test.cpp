// Leases on compiling, with the remote tier on a real redis-server: a process waits for the
// holder's entry instead of compiling; a holder that died or was killed mid-compile is taken
// over; leases are renewed while their holder compiles; 64 processes compile each program once;
// a failed compile marks its lease so that the others compile at once; a waiter compiles itself
// past its wait bound.
#include "cache_support.hpp"
#include "core/cache/cache_key.hpp"
#include "core/cache/remote_tier.hpp"
#include "redis_server.hpp"
#include "remote_cache_fixture.hpp"

#include <kjit/kjit.hpp>

#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

namespace kjit::test {
namespace {

namespace fs = std::filesystem;
namespace cache = detail::cache;

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

}  // namespace
}  // namespace kjit::test
