// kjit's logger: spdlog, named "kjit", level from KJIT_LOG_LEVEL (default warn).
#pragma once

#include <spdlog/logger.h>

namespace kjit::detail {

/// The library's logger, created on first use. Throws ConfigError for a bad KJIT_LOG_LEVEL.
spdlog::logger& log();

}  // namespace kjit::detail
