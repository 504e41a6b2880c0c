// The environment variables kjit reads, each parsed and validated in one place.
#pragma once

#include <spdlog/common.h>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace kjit::detail::environment {

/// The variable's value, or nullopt when it is unset.
std::optional<std::string> get(const char* name);

/// KJIT_LOG_LEVEL: trace, debug, info, warn, error, critical or off; unset or empty gives warn.
spdlog::level::level_enum log_level();
/// Parses a log level name; ConfigError for anything else.
spdlog::level::level_enum parse_log_level(std::string_view text);

/// KJIT_CPU_THREADS: worker threads of the CPU backend; unset or empty gives the number of cores.
std::uint32_t cpu_threads();
/// Parses a thread count from 1 to 4096; ConfigError for anything else.
std::uint32_t parse_cpu_threads(std::string_view text);

/// KJIT_DEVICE, or nullopt when it is unset or blank.
std::optional<std::string> device_spec();

}  // namespace kjit::detail::environment
