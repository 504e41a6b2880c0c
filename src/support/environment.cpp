#include "support/environment.hpp"

#include "support/text.hpp"

#include <kjit/error.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <initializer_list>
#include <limits>
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

namespace {

/// The value that `words` gives the trimmed `text`; otherwise a ConfigError that names
/// `variable`, quotes the text, and goes on with `what_to_use`.
template <class T>
T choose(std::string_view text, std::initializer_list<std::pair<std::string_view, T>> words,
         const char* variable, std::string_view what_to_use) {
  const std::string_view t = trim(text);
  for (const auto& [word, value] : words) {
    if (t == word) {
      return value;
    }
  }
  throw ConfigError(fmt::format("kjit: {}='{}' {}", variable, text, what_to_use));
}

/// An on/off variable: '1' on, '0' or blank off, anything else a ConfigError saying what '1' does.
bool parse_switch(std::string_view text, const char* variable, std::string_view what_one_does) {
  return choose<bool>(text, {{"", false}, {"0", false}, {"1", true}}, variable,
                      fmt::format("is not a switch; use '1' ({}) or '0'", what_one_does));
}

/// Whether the setting `variable` is on (unset: off), as `parse` reads it.
bool switched_on(const char* variable, bool (*parse)(std::string_view)) {
  const auto value = get(variable);
  return value && parse(*value);
}

/// A path variable's value, trimmed; nullopt when unset or blank.
std::optional<std::filesystem::path> path_setting(const char* variable) {
  const auto value = get(variable);
  if (!value || trim(*value).empty()) {
    return std::nullopt;
  }
  return std::filesystem::path(std::string(trim(*value)));
}

}  // namespace

spdlog::level::level_enum parse_log_level(std::string_view text) {
  return choose<spdlog::level::level_enum>(text,
                                           {
                                               {"trace", spdlog::level::trace},
                                               {"debug", spdlog::level::debug},
                                               {"info", spdlog::level::info},
                                               {"warn", spdlog::level::warn},
                                               {"error", spdlog::level::err},
                                               {"critical", spdlog::level::critical},
                                               {"off", spdlog::level::off},
                                           },
                                           "KJIT_LOG_LEVEL",
                                           "is not a level; use one of trace, debug, info, warn, "
                                           "error, critical, off");
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
  const std::optional<std::uint32_t> n = whole_number<std::uint32_t>(trim(text));
  if (!n || *n == 0 || *n > kMax) {
    throw ConfigError(fmt::format(
        "kjit: KJIT_CPU_THREADS='{}' is not a thread count; use a whole number from 1 to {}", text,
        kMax));
  }
  return *n;
}

std::uint32_t cpu_threads() {
  const auto value = get("KJIT_CPU_THREADS");
  if (!value || trim(*value).empty()) {
    return std::max(1U, std::thread::hardware_concurrency());
  }
  return parse_cpu_threads(*value);
}

bool parse_cpu_barriers(std::string_view text) {
  return choose<bool>(text, {{"", true}, {"regions", true}, {"fibers", false}}, "KJIT_CPU_BARRIERS",
                      "is not a way to run barrier kernels; use 'regions' (the default) or "
                      "'fibers'");
}

bool cpu_split_barriers() {
  const auto value = get("KJIT_CPU_BARRIERS");
  return !value || parse_cpu_barriers(*value);
}

bool parse_cpu_warps(std::string_view text) {
  return choose<bool>(text, {{"", true}, {"vectors", true}, {"meetings", false}}, "KJIT_CPU_WARPS",
                      "is not a way to run warp shuffles; use 'vectors' (the default) or "
                      "'meetings'");
}

bool cpu_warps_as_vectors() {
  const auto value = get("KJIT_CPU_WARPS");
  return !value || parse_cpu_warps(*value);
}

bool parse_perf_map(std::string_view text) {
  return parse_switch(text, "KJIT_PERF_MAP", "write /tmp/perf-<pid>.map");
}

bool perf_map() {
  return switched_on("KJIT_PERF_MAP", parse_perf_map);
}

bool parse_debug(std::string_view text) {
  return parse_switch(text, "KJIT_DEBUG", "compile every program for a debugger");
}

bool debug() {
  return switched_on("KJIT_DEBUG", parse_debug);
}

Checks parse_checks(std::string_view text) {
  Checks checks;
  const std::string_view all = trim(text);
  if (all.empty() || all == "none") {
    return checks;
  }
  for (const std::string_view word : comma_list(all)) {
    if (word == "memory") {
      checks.memory = true;
    } else if (word == "race") {
      checks.race = true;
    } else {
      throw ConfigError(fmt::format(
          "kjit: KJIT_CHECK='{}' is not a list of checks kjit has; use 'memory' (CPU kernels' "
          "accesses checked against their buffers), 'race' (races in shared memory), "
          "'memory,race' or 'none'",
          text));
    }
  }
  return checks;
}

Checks checks() {
  const auto value = get("KJIT_CHECK");
  return value ? parse_checks(*value) : Checks{};
}

bool parse_hot_reload(std::string_view text) {
  return parse_switch(text, "KJIT_HOT_RELOAD", "recompile programs from files when they change");
}

bool hot_reload() {
  return switched_on("KJIT_HOT_RELOAD", parse_hot_reload);
}

bool parse_cpu_pin(std::string_view text) {
  return parse_switch(text, "KJIT_CPU_PIN", "each worker thread bound to one core");
}

bool cpu_pin() {
  return switched_on("KJIT_CPU_PIN", parse_cpu_pin);
}

std::optional<std::string> device_spec() {
  auto value = get("KJIT_DEVICE");
  if (!value || trim(*value).empty()) {
    return std::nullopt;
  }
  return value;
}

CacheMode parse_cache_mode(std::string_view text) {
  return choose<CacheMode>(
      text, {{"rw", CacheMode::read_write}, {"ro", CacheMode::read_only}, {"off", CacheMode::off}},
      "KJIT_CACHE", "is not a cache mode; use rw, ro or off");
}

CacheMode cache_mode() {
  const auto value = get("KJIT_CACHE");
  return !value || trim(*value).empty() ? CacheMode::read_write : parse_cache_mode(*value);
}

namespace {

std::filesystem::path absolute_dir(const std::string& value, const char* variable) {
  std::filesystem::path dir(value);
  if (!dir.is_absolute()) {
    throw ConfigError(
        fmt::format("kjit: {}='{}' is not an absolute path; the cache needs one", variable, value));
  }
  return dir.lexically_normal();
}

}  // namespace

std::filesystem::path cache_dir() {
  if (const auto dir = get("KJIT_CACHE_DIR"); dir && !trim(*dir).empty()) {
    return absolute_dir(std::string(trim(*dir)), "KJIT_CACHE_DIR");
  }
  if (const auto xdg = get("XDG_CACHE_HOME"); xdg && !xdg->empty()) {
    return absolute_dir(*xdg, "XDG_CACHE_HOME") / "kjit";
  }
  if (const auto home = get("HOME"); home && !home->empty()) {
    return absolute_dir(*home, "HOME") / ".cache" / "kjit";
  }
  throw ConfigError(
      "kjit: no cache directory: set KJIT_CACHE_DIR (or HOME), or turn the cache off with "
      "KJIT_CACHE=off");
}

std::uint64_t parse_byte_count(std::string_view text, const char* variable) {
  const std::string_view t = trim(text);
  std::uint64_t n = 0;
  const auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), n);
  std::string_view suffix(end, static_cast<std::size_t>(t.data() + t.size() - end));
  unsigned shift = 0;
  if (suffix.size() == 1) {
    const std::string_view units = "KMGT";
    const auto at =
        units.find(static_cast<char>(std::toupper(static_cast<unsigned char>(suffix[0]))));
    if (at != std::string_view::npos) {
      shift = 10 * static_cast<unsigned>(at + 1);
      suffix = {};
    }
  }
  const bool fits = shift == 0 || n <= (std::numeric_limits<std::uint64_t>::max() >> shift);
  if (t.empty() || ec != std::errc{} || !suffix.empty() || !fits) {
    throw ConfigError(fmt::format(
        "kjit: {}='{}' is not a size; use a number of bytes, optionally with K, M, G or T "
        "(powers of 1024): 500000000, 512M, 2G",
        variable, text));
  }
  return n << shift;
}

std::optional<std::uint64_t> cache_max_bytes() {
  const auto value = get("KJIT_CACHE_MAX_BYTES");
  if (!value || trim(*value).empty()) {
    return std::nullopt;
  }
  return parse_byte_count(*value, "KJIT_CACHE_MAX_BYTES");
}

std::vector<std::filesystem::path> parse_cache_path(std::string_view text) {
  std::vector<std::filesystem::path> dirs;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t colon = std::min(text.find(':', start), text.size());
    const std::string_view part = trim(text.substr(start, colon - start));
    if (!part.empty()) {
      dirs.push_back(absolute_dir(std::string(part), "KJIT_CACHE_PATH"));
    }
    start = colon + 1;
  }
  return dirs;
}

std::vector<std::filesystem::path> cache_path() {
  const auto value = get("KJIT_CACHE_PATH");
  return value ? parse_cache_path(*value) : std::vector<std::filesystem::path>{};
}

std::optional<std::filesystem::path> record_manifest() {
  return path_setting("KJIT_RECORD_MANIFEST");
}

std::optional<std::filesystem::path> repro_dir() {
  return path_setting("KJIT_REPRO_DIR");
}

CompileIsolation parse_compile_isolation(std::string_view isolation, std::string_view timeout) {
  CompileIsolation out;
  const auto mode =
      choose<int>(isolation, {{"", -1}, {"none", 0}, {"process", 1}}, "KJIT_COMPILE_ISOLATION",
                  "is not a way to run compiles; use 'process' or 'none' (the default)");
  out.in_child = mode == 1;
  const std::string_view t = trim(timeout);
  if (t.empty()) {
    return out;
  }
  double seconds = 0;
  const auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), seconds);
  constexpr double kDay = 24.0 * 3600.0;
  if (ec != std::errc{} || end != t.data() + t.size() || !(seconds > 0) || seconds > kDay) {
    throw ConfigError(fmt::format(
        "kjit: KJIT_COMPILE_TIMEOUT='{}' is not a time limit; use seconds, more than 0 and at "
        "most 86400: 30, 2.5",
        timeout));
  }
  if (mode == 0) {
    throw ConfigError(
        fmt::format("kjit: KJIT_COMPILE_TIMEOUT='{}' needs compiles in a child process, but "
                    "KJIT_COMPILE_ISOLATION='{}' asks for none; only a process can be stopped",
                    timeout, isolation));
  }
  out.in_child = true;
  out.timeout = std::chrono::milliseconds(std::llround(seconds * 1000.0));
  return out;
}

CompileIsolation compile_isolation() {
  return parse_compile_isolation(get("KJIT_COMPILE_ISOLATION").value_or(""),
                                 get("KJIT_COMPILE_TIMEOUT").value_or(""));
}

bool parse_compile_fork(std::string_view text) {
  return choose<bool>(text, {{"", true}, {"auto", true}, {"off", false}}, "KJIT_COMPILE_FORK",
                      "is not a way to run concurrent compiles; use 'auto' (the default) or 'off'");
}

bool compile_fork() {
  return parse_compile_fork(get("KJIT_COMPILE_FORK").value_or(""));
}

std::optional<std::filesystem::path> compile_helper() {
  const auto value = get("KJIT_COMPILE_HELPER");
  if (!value || trim(*value).empty()) {
    return std::nullopt;
  }
  std::filesystem::path helper(std::string(trim(*value)));
  if (!helper.is_absolute()) {
    throw ConfigError(
        fmt::format("kjit: KJIT_COMPILE_HELPER='{}' is not an absolute path", *value));
  }
  return helper;
}

}  // namespace kjit::detail::environment
