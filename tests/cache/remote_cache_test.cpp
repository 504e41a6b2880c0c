// The remote cache tier on a real redis-server: a program compiled by one "node" (a process's
// disk cache) loads on another from Redis without a compile; a corrupt remote entry is refused
// and replaced; a store that is down, stops answering, refuses the password or is full is
// reported once and every result stays correct.
#include "cache_support.hpp"
#include "core/cache/cache_key.hpp"
#include "core/cache/disk_cache.hpp"
#include "core/cache/remote_tier.hpp"
#include "redis_server.hpp"
#include "test_support.hpp"

#include <kjit/kjit.hpp>

#include <gtest/gtest.h>
#include <unistd.h>

#include <array>
#include <cstdio>

#include <atomic>
#include <filesystem>
#include <fstream>

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
  /// `url` (none when empty).
  void become_node(const std::string& name, const std::string& url,
                   std::chrono::milliseconds timeout = std::chrono::milliseconds(200)) {
    cache::CacheSettings s;
    s.user_dir = dir_ / "nodes" / name;
    cache::use_disk_cache(s);
    cache::RemoteSettings r;
    if (!url.empty()) {
      r.address = cache::parse_remote_address(url, "test");
    }
    r.timeout = timeout;
    cache::use_remote_tier(r);
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

/// Separate processes on libkjit.so, configured by the environment alone: the second "node"
/// (its own disk cache) compiles nothing.
TEST_F(RemoteCacheTest, ProcessesOnTwoNodesShareOneStoreThroughTheEnvironment) {
  start_server();
  for (int salt = 20; salt < 23; ++salt) {
    std::ofstream(dir_ / "src" / fmt::format("scaled{}.cu", salt)) << scaled_copy_source(salt);
  }
  const auto run_node = [&](const std::string& node) {
    const std::string command = fmt::format(
        "KJIT_DEVICE=cpu KJIT_CACHE_DIR='{}' KJIT_CACHE_REMOTE='{}' '{}' '{}' 20 23 2>&1",
        (dir_ / "nodes" / node).string(), server_->url(), KJIT_CACHE_WORKER,
        (dir_ / "src").string());
    std::string output;
    FILE* worker = popen(command.c_str(), "r");
    std::array<char, 256> buffer{};
    while (worker != nullptr && fgets(buffer.data(), buffer.size(), worker) != nullptr) {
      output += buffer.data();
    }
    EXPECT_EQ(worker != nullptr ? pclose(worker) : -1, 0) << output;
    return output;
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
