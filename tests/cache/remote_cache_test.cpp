// The remote cache tier on a real redis-server: a program compiled by one "node" (a process's
// disk cache) loads on another from Redis without a compile; a corrupt remote entry is refused
// and replaced; a store that is down, stops answering, refuses the password or is full is
// reported once and every result stays correct; settings, signed entries and Redis users.
// Leases on compiling are in remote_lease_test.cpp.
#include "cache_support.hpp"
#include "core/cache/cache_key.hpp"
#include "core/cache/disk_cache.hpp"
#include "core/cache/entry_signing.hpp"
#include "core/cache/remote_tier.hpp"
#include "redis_server.hpp"
#include "remote_cache_fixture.hpp"
#include "test_support.hpp"

#include <kjit/kjit.hpp>

#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace kjit::test {
namespace {

namespace fs = std::filesystem;
namespace cache = detail::cache;

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
