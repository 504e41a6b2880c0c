#include "jit/environment.hpp"

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

}  // namespace
}  // namespace kjit::detail::environment
