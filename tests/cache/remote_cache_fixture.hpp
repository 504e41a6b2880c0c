// The fixture of the remote tier's tests: a redis-server of each test's own, and "nodes" (a
// disk cache each) that load programs through the tier.
#pragma once

#include "cache_support.hpp"
#include "core/cache/disk_cache.hpp"
#include "core/cache/remote_tier.hpp"
#include "redis_server.hpp"
#include "test_support.hpp"

#include <kjit/kjit.hpp>

#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace kjit::test {

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
    dir_ = std::filesystem::temp_directory_path() / fmt::format("kjr-{}-{}", getpid(), count++);
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_ / "src");
    std::ofstream(dir_ / "src" / "scale.h") << "#define SCALE 3\n";
  }
  void TearDown() override {
    server_.reset();
    detail::cache::use_remote_tier({});
    if (!dir_.empty()) {
      std::filesystem::remove_all(dir_);
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
    detail::cache::RemoteSettings r;
    if (!url.empty()) {
      r.address = detail::cache::parse_remote_address(url, "test");
    }
    r.timeout = timeout;
    r.key = std::move(key);
    become_node(name, std::move(r));
  }
  /// The same with the remote tier's settings in full.
  void become_node(const std::string& name, detail::cache::RemoteSettings remote) {
    detail::cache::CacheSettings s;
    s.user_dir = dir_ / "nodes" / name;
    detail::cache::use_disk_cache(s);
    detail::cache::use_remote_tier(std::move(remote));
  }

  /// The tier at `url` with a wait bound of `wait` (and become_node's long timeout).
  [[nodiscard]] static detail::cache::RemoteSettings waiting(const std::string& url,
                                                             std::chrono::milliseconds wait) {
    detail::cache::RemoteSettings r;
    r.address = detail::cache::parse_remote_address(url, "test");
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
    const std::filesystem::path p = dir_ / "src" / fmt::format("scaled{}.cu", salt);
    if (!std::filesystem::exists(p)) {
      std::ofstream(p) << scaled_copy_source(salt);
    }
    return scaled_copy_mismatches(Program::from_file(p), device, 3, salt, 7U + salt);
  }

  /// The node's disk entries of programs.
  [[nodiscard]] std::size_t disk_entries() const {
    return detail::cache::disk_cache().entries(false).size();
  }

  /// Starts a cache worker process as node `node` (a disk cache of its own) on the store, for
  /// programs scaled<from> to scaled<to - 1>.
  FILE* start_worker(const std::string& node, int from, int to,
                     const std::string& env = "KJIT_CACHE_REMOTE_TIMEOUT_MS=2000") const {
    for (int salt = from; salt < to; ++salt) {
      const std::filesystem::path p = dir_ / "src" / fmt::format("scaled{}.cu", salt);
      if (!std::filesystem::exists(p)) {
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
  std::filesystem::path dir_;
};

}  // namespace kjit::test
