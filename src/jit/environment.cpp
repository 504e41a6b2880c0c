#include "jit/environment.hpp"

#include "jit/text.hpp"

#include <kjit/error.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <cstdlib>
#include <thread>
#include <utility>

namespace kjit::detail::environment {

std::optional<std::string> get(const char* name) {
  const char* value = std::getenv(name);  // NOLINT(concurrency-mt-unsafe): read-only use
  if (value == nullptr) {
    return std::nullopt;
  }
  return std::string(value);
}

spdlog::level::level_enum parse_log_level(std::string_view text) {
  static constexpr std::array<std::pair<std::string_view, spdlog::level::level_enum>, 7> levels{{
      {"trace", spdlog::level::trace},
      {"debug", spdlog::level::debug},
      {"info", spdlog::level::info},
      {"warn", spdlog::level::warn},
      {"error", spdlog::level::err},
      {"critical", spdlog::level::critical},
      {"off", spdlog::level::off},
  }};
  const std::string_view t = trim(text);
  for (const auto& [name, level] : levels) {
    if (t == name) {
      return level;
    }
  }
  throw ConfigError(
      fmt::format("kjit: KJIT_LOG_LEVEL='{}' is not a level; use one of trace, "
                  "debug, info, warn, error, critical, off",
                  text));
}

spdlog::level::level_enum log_level() {
  const auto value = get("KJIT_LOG_LEVEL");
  if (!value || trim(*value).empty()) {
    return spdlog::level::warn;
  }
  return parse_log_level(*value);
}

std::uint32_t parse_cpu_threads(std::string_view text) {
  constexpr std::uint32_t kMax = 4096;
  const std::string_view t = trim(text);
  std::uint32_t n = 0;
  const auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), n);
  if (t.empty() || ec != std::errc{} || end != t.data() + t.size() || n == 0 || n > kMax) {
    throw ConfigError(fmt::format(
        "kjit: KJIT_CPU_THREADS='{}' is not a thread count; use a whole number from 1 to {}", text,
        kMax));
  }
  return n;
}

std::uint32_t cpu_threads() {
  const auto value = get("KJIT_CPU_THREADS");
  if (!value || trim(*value).empty()) {
    return std::max(1U, std::thread::hardware_concurrency());
  }
  return parse_cpu_threads(*value);
}

std::optional<std::string> device_spec() {
  auto value = get("KJIT_DEVICE");
  if (!value || trim(*value).empty()) {
    return std::nullopt;
  }
  return value;
}

}  // namespace kjit::detail::environment
