// KJIT_CACHE_REMOTE's forms, and the errors for what is not one.
#include "core/cache/remote_store.hpp"
#include "core/cache/remote_tier.hpp"

#include <kjit/error.hpp>

#include <gtest/gtest.h>

#include <cstdlib>

namespace kjit::detail::cache {
namespace {

TEST(RemoteAddress, ReadsEveryForm) {
  RemoteAddress a = parse_remote_address("redis://cache.internal", "V");
  EXPECT_EQ(a.scheme, "redis");
  EXPECT_EQ(a.host, "cache.internal");
  EXPECT_EQ(a.port, 6379);
  EXPECT_EQ(a.database, 0);
  EXPECT_TRUE(a.user.empty());
  EXPECT_TRUE(a.password.empty());

  a = parse_remote_address("redis://fleet:pa:ss@10.0.0.5:7000/2", "V");
  EXPECT_EQ(a.user, "fleet");
  EXPECT_EQ(a.password, "pa:ss");
  EXPECT_EQ(a.host, "10.0.0.5");
  EXPECT_EQ(a.port, 7000);
  EXPECT_EQ(a.database, 2);
  EXPECT_EQ(a.describe(), "redis://fleet@10.0.0.5:7000/2") << "no password in messages";

  a = parse_remote_address("redis://:secret@[::1]:6380", "V");
  EXPECT_EQ(a.host, "::1");
  EXPECT_EQ(a.port, 6380);
  EXPECT_TRUE(a.user.empty());
  EXPECT_EQ(a.password, "secret");

  a = parse_remote_address("unix:///run/redis/redis.sock?db=4", "V");
  EXPECT_EQ(a.scheme, "unix");
  EXPECT_EQ(a.socket, "/run/redis/redis.sock");
  EXPECT_EQ(a.database, 4);
  EXPECT_EQ(a.describe(), "unix:///run/redis/redis.sock?db=4");
}

TEST(RemoteAddress, WhatIsNotOneIsAConfigErrorNamingTheVariable) {
  for (const char* bad :
       {"cache.internal:6379", "http://cache", "redis://", "redis://h:0", "redis://h:65536",
        "redis://h:port", "redis://h/x", "redis://h/-1", "unix://relative.sock",
        "unix:///s.sock?database=1", "unix:///s.sock?db=x"}) {
    try {
      (void)parse_remote_address(bad, "KJIT_CACHE_REMOTE");
      ADD_FAILURE() << bad << " was taken";
    } catch (const ConfigError& e) {
      EXPECT_NE(std::string(e.what()).find("KJIT_CACHE_REMOTE"), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find(bad), std::string::npos) << e.what();
    }
  }
}

TEST(RemoteAddress, AMessageNeverShowsThePassword) {
  for (const char* bad : {"redis://fleet:s3cret@h:port", "redis://:s3cret@h/x",
                          "redis://s3cret@h:0", "unix://u:s3cret@relative.sock"}) {
    try {
      (void)parse_remote_address(bad, "KJIT_CACHE_REMOTE");
      ADD_FAILURE() << bad << " was taken";
    } catch (const ConfigError& e) {
      const std::string what = e.what();
      EXPECT_EQ(what.find("s3cret"), std::string::npos) << what;
      EXPECT_NE(what.find(":***@"), std::string::npos) << what;
    }
  }
}

TEST(RemoteSettings, ComeFromTheEnvironmentAndABadValueIsAConfigError) {
  ::unsetenv("KJIT_CACHE_REMOTE");
  ::unsetenv("KJIT_CACHE_REMOTE_TIMEOUT_MS");
  RemoteSettings s = RemoteSettings::from_environment();
  EXPECT_FALSE(s.address);
  EXPECT_EQ(s.timeout.count(), 50);

  ::setenv("KJIT_CACHE_REMOTE", "unix:///tmp/r.sock", 1);
  ::setenv("KJIT_CACHE_REMOTE_TIMEOUT_MS", "250", 1);
  s = RemoteSettings::from_environment();
  ASSERT_TRUE(s.address);
  EXPECT_EQ(s.address->socket, "/tmp/r.sock");
  EXPECT_EQ(s.timeout.count(), 250);

  for (const char* bad : {"0", "-5", "60001", "fast", ""}) {
    ::setenv("KJIT_CACHE_REMOTE_TIMEOUT_MS", bad, 1);
    EXPECT_THROW((void)RemoteSettings::from_environment(), ConfigError) << bad;
  }
  ::unsetenv("KJIT_CACHE_REMOTE_TIMEOUT_MS");
  ::setenv("KJIT_CACHE_REMOTE_WAIT_MS", "1500", 1);
  EXPECT_EQ(RemoteSettings::from_environment().wait.count(), 1500);
  ::setenv("KJIT_CACHE_REMOTE_WAIT_MS", "0", 1);
  EXPECT_THROW((void)RemoteSettings::from_environment(), ConfigError);
  ::unsetenv("KJIT_CACHE_REMOTE_WAIT_MS");
  ::setenv("KJIT_CACHE_REMOTE", "memcached://x", 1);
  EXPECT_THROW((void)RemoteSettings::from_environment(), ConfigError);
  ::unsetenv("KJIT_CACHE_REMOTE");
}

}  // namespace
}  // namespace kjit::detail::cache
