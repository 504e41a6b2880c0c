// Out-of-line members of the error hierarchy (keeps their vtables in libkjit.so) and the
// formatting of compile errors.
#include <kjit/error.hpp>

#include <fmt/format.h>

namespace kjit {

Error::~Error() = default;
ConfigError::~ConfigError() = default;
DeviceError::~DeviceError() = default;
UsageError::~UsageError() = default;
BackendError::~BackendError() = default;
KernelNotFoundError::~KernelNotFoundError() = default;
LaunchError::~LaunchError() = default;
CompileError::~CompileError() = default;

namespace {

const char* severity_name(Diagnostic::Severity s) {
  switch (s) {
    case Diagnostic::Severity::note:
      return "note";
    case Diagnostic::Severity::warning:
      return "warning";
    case Diagnostic::Severity::error:
      return "error";
  }
  return "error";
}

std::string compile_error_message(const std::string& program, const std::string& target,
                                  const std::vector<Diagnostic>& diagnostics,
                                  const std::string& log) {
  std::string text = fmt::format("kjit: cannot compile '{}' for {}", program, target);
  bool listed = false;
  bool after_error = false;  // notes say more about the error before them
  for (const Diagnostic& d : diagnostics) {
    if (d.severity != Diagnostic::Severity::note) {
      after_error = d.severity == Diagnostic::Severity::error;
    }
    if (d.severity != Diagnostic::Severity::note || after_error) {
      text += '\n';
      text += d.to_string();
      listed = listed || d.severity != Diagnostic::Severity::note;
    }
  }
  if (!listed && !log.empty()) {
    text += '\n';
    text += log;
  }
  return text;
}

const std::string kNoFile;

}  // namespace

std::string Diagnostic::to_string() const {
  if (file.empty()) {
    return fmt::format("{}: {}", severity_name(severity), message);
  }
  if (line == 0) {  // about the whole file (bitcode has no lines)
    return fmt::format("{}: {}: {}", file, severity_name(severity), message);
  }
  return fmt::format("{}:{}:{}: {}: {}", file, line, column, severity_name(severity), message);
}

CompileError::CompileError(std::string program, std::string target,
                           std::vector<Diagnostic> diagnostics, std::string log)
    : Error(compile_error_message(program, target, diagnostics, log)),
      program_(std::move(program)),
      target_(std::move(target)),
      diagnostics_(std::move(diagnostics)),
      log_(std::move(log)) {}

const std::string& CompileError::file() const noexcept {
  for (const Diagnostic& d : diagnostics_) {
    if (d.severity == Diagnostic::Severity::error) {
      return d.file;
    }
  }
  return kNoFile;
}

unsigned CompileError::line() const noexcept {
  for (const Diagnostic& d : diagnostics_) {
    if (d.severity == Diagnostic::Severity::error) {
      return d.line;
    }
  }
  return 0;
}

}  // namespace kjit
