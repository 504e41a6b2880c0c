#include "support/logging.hpp"

#include "support/environment.hpp"

#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include <memory>

namespace kjit::detail {

spdlog::logger& log() {
  // Leaked on purpose: kjit may log from destructors that run during process exit.
  static spdlog::logger* const logger = [] {
    // First: a bad KJIT_LOG_LEVEL throws before anything is made (found by LeakSanitizer).
    const auto level = environment::log_level();
    auto sink = std::make_shared<spdlog::sinks::stderr_color_sink_mt>();
    auto l = std::make_unique<spdlog::logger>("kjit", std::move(sink));
    l->set_pattern("[kjit] [%l] %v");
    l->set_level(level);
    return l.release();
  }();
  return *logger;
}

}  // namespace kjit::detail
