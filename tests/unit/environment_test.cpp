#include "support/environment.hpp"

#include <kjit/error.hpp>

#include <gtest/gtest.h>

namespace kjit::detail::environment {
namespace {

TEST(Environment, ParsesLogLevels) {
  EXPECT_EQ(parse_log_level("trace"), spdlog::level::trace);
  EXPECT_EQ(parse_log_level("warn"), spdlog::level::warn);
  EXPECT_EQ(parse_log_level(" error "), spdlog::level::err);
  EXPECT_EQ(parse_log_level("off"), spdlog::level::off);
}

TEST(Environment, RejectsUnknownLogLevels) {
  for (const char* bad : {"", "loud", "WARN", "warning", "3"}) {
    try {
      (void)parse_log_level(bad);
      ADD_FAILURE() << "'" << bad << "' was accepted";
    } catch (const ConfigError& e) {
      EXPECT_NE(std::string(e.what()).find("KJIT_LOG_LEVEL"), std::string::npos) << e.what();
    }
  }
}

TEST(Environment, ParsesThreadCounts) {
  EXPECT_EQ(parse_cpu_threads("1"), 1U);
  EXPECT_EQ(parse_cpu_threads(" 16 "), 16U);
  EXPECT_EQ(parse_cpu_threads("4096"), 4096U);
}

TEST(Environment, RejectsBadThreadCounts) {
  for (const char* bad :
       {"0", "-1", "4097", "two", "2.5", "", "8 threads", "99999999999999999999"}) {
    try {
      (void)parse_cpu_threads(bad);
      ADD_FAILURE() << "'" << bad << "' was accepted";
    } catch (const ConfigError& e) {
      EXPECT_NE(std::string(e.what()).find("KJIT_CPU_THREADS"), std::string::npos) << e.what();
    }
  }
}

/// An on/off variable's parser: '1' on, '0' or blank off, anything else an error naming it.
void expect_switch(bool (*parse)(std::string_view), const char* variable) {
  SCOPED_TRACE(variable);
  EXPECT_TRUE(parse("1"));
  EXPECT_TRUE(parse(" 1 "));
  EXPECT_FALSE(parse("0"));
  EXPECT_FALSE(parse(""));
  for (const char* bad : {"yes", "true", "2", "on", "10", "cores"}) {
    try {
      (void)parse(bad);
      ADD_FAILURE() << "'" << bad << "' was accepted";
    } catch (const ConfigError& e) {
      EXPECT_NE(std::string(e.what()).find(variable), std::string::npos) << e.what();
    }
  }
}

TEST(Environment, ParsesTheChecks) {
  EXPECT_EQ(parse_checks("memory"), (Checks{true, false}));
  EXPECT_EQ(parse_checks(" memory "), (Checks{true, false}));
  EXPECT_EQ(parse_checks("race"), (Checks{false, true}));
  EXPECT_EQ(parse_checks("memory,race"), (Checks{true, true}));
  EXPECT_EQ(parse_checks(" race , memory"), (Checks{true, true}));
  EXPECT_EQ(parse_checks("none"), Checks{});
  EXPECT_EQ(parse_checks(""), Checks{});
  EXPECT_FALSE(parse_checks("none").any());
  EXPECT_TRUE(parse_checks("race").any());
  for (const char* bad : {"1", "mem", "races", "Memory", "memory,", ",race", "memory,,race",
                          "none,memory", "memory;race"}) {
    try {
      (void)parse_checks(bad);
      ADD_FAILURE() << "'" << bad << "' was accepted";
    } catch (const ConfigError& e) {
      EXPECT_NE(std::string(e.what()).find("KJIT_CHECK"), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find(bad), std::string::npos) << e.what();
    }
  }
}

TEST(Environment, ParsesTheOnOffSwitches) {
  expect_switch(parse_cpu_pin, "KJIT_CPU_PIN");
  expect_switch(parse_perf_map, "KJIT_PERF_MAP");
  expect_switch(parse_debug, "KJIT_DEBUG");
  expect_switch(parse_hot_reload, "KJIT_HOT_RELOAD");
}

TEST(Environment, ParsesBarrierModes) {
  EXPECT_TRUE(parse_cpu_barriers("regions"));
  EXPECT_TRUE(parse_cpu_barriers(" regions "));
  EXPECT_TRUE(parse_cpu_barriers(""));
  EXPECT_FALSE(parse_cpu_barriers("fibers"));
  for (const char* bad : {"fiber", "loops", "Regions", "fibers,regions", "1"}) {
    try {
      (void)parse_cpu_barriers(bad);
      ADD_FAILURE() << "'" << bad << "' was accepted";
    } catch (const ConfigError& e) {
      EXPECT_NE(std::string(e.what()).find("KJIT_CPU_BARRIERS"), std::string::npos) << e.what();
    }
  }
}

TEST(Environment, ParsesWarpModes) {
  EXPECT_TRUE(parse_cpu_warps("vectors"));
  EXPECT_TRUE(parse_cpu_warps(" vectors "));
  EXPECT_TRUE(parse_cpu_warps(""));
  EXPECT_FALSE(parse_cpu_warps("meetings"));
  for (const char* bad : {"vector", "lanes", "Vectors", "vectors,meetings", "0"}) {
    try {
      (void)parse_cpu_warps(bad);
      ADD_FAILURE() << "'" << bad << "' was accepted";
    } catch (const ConfigError& e) {
      EXPECT_NE(std::string(e.what()).find("KJIT_CPU_WARPS"), std::string::npos) << e.what();
    }
  }
}

TEST(Environment, ParsesCacheSettings) {
  EXPECT_EQ(parse_cache_mode("rw"), CacheMode::read_write);
  EXPECT_EQ(parse_cache_mode(" ro "), CacheMode::read_only);
  EXPECT_EQ(parse_cache_mode("off"), CacheMode::off);
  EXPECT_EQ(parse_byte_count("123", "V"), 123U);
  EXPECT_EQ(parse_byte_count("512M", "V"), 512ULL << 20);
  EXPECT_EQ(parse_byte_count("2g", "V"), 2ULL << 30);
  EXPECT_EQ(parse_byte_count("1T", "V"), 1ULL << 40);
  const auto dirs = parse_cache_path("/opt/kjit:: /srv/cache/ ");
  ASSERT_EQ(dirs.size(), 2U);
  EXPECT_EQ(dirs[0], "/opt/kjit");
  EXPECT_EQ(dirs[1], "/srv/cache/");
}

TEST(Environment, RejectsBadCacheSettings) {
  for (const char* bad : {"", "on", "RW", "readonly", "1"}) {
    try {
      (void)parse_cache_mode(bad);
      ADD_FAILURE() << "'" << bad << "' was accepted";
    } catch (const ConfigError& e) {
      EXPECT_NE(std::string(e.what()).find("KJIT_CACHE"), std::string::npos) << e.what();
    }
  }
  for (const char* bad : {"", "-1", "12Q", "1.5G", "G", "99999999999T", "10 M"}) {
    try {
      (void)parse_byte_count(bad, "KJIT_CACHE_MAX_BYTES");
      ADD_FAILURE() << "'" << bad << "' was accepted";
    } catch (const ConfigError& e) {
      EXPECT_NE(std::string(e.what()).find("KJIT_CACHE_MAX_BYTES"), std::string::npos);
    }
  }
  EXPECT_THROW((void)parse_cache_path("/ok:relative/dir"), ConfigError);
}

TEST(Environment, ParsesCompileIsolation) {
  EXPECT_FALSE(parse_compile_isolation("", "").in_child);
  EXPECT_FALSE(parse_compile_isolation(" none ", "").in_child);
  EXPECT_TRUE(parse_compile_isolation("process", "").in_child);
  EXPECT_FALSE(parse_compile_isolation("process", "").timeout.has_value());
  // A time limit needs a child process, so it asks for one.
  const CompileIsolation limited = parse_compile_isolation("", " 2.5 ");
  EXPECT_TRUE(limited.in_child);
  EXPECT_EQ(limited.timeout, std::chrono::milliseconds(2500));
  EXPECT_EQ(parse_compile_isolation("process", "30").timeout, std::chrono::milliseconds(30000));
  EXPECT_EQ(parse_compile_isolation("", "86400").timeout, std::chrono::hours(24));
}

TEST(Environment, RejectsBadCompileIsolation) {
  const std::pair<const char*, const char*> bad[] = {
      {"thread", ""}, {"Process", ""}, {"", "0"},   {"", "-1"},    {"", "soon"},
      {"", "5s"},     {"", "nan"},     {"", "inf"}, {"", "86401"}, {"none", "10"},
  };
  for (const auto& [isolation, timeout] : bad) {
    try {
      (void)parse_compile_isolation(isolation, timeout);
      ADD_FAILURE() << "'" << isolation << "', '" << timeout << "' was accepted";
    } catch (const ConfigError& e) {
      const std::string text = e.what();
      EXPECT_NE(text.find(*timeout != 0 ? "KJIT_COMPILE_TIMEOUT" : "KJIT_COMPILE_ISOLATION"),
                std::string::npos)
          << text;
    }
  }
}

}  // namespace
}  // namespace kjit::detail::environment
