// The kjit error hierarchy. Every failure the library reports is an exception derived from
// kjit::Error whose message names the object involved (program, kernel, device, file:line).
#pragma once

#include <kjit/export.hpp>

#include <stdexcept>
#include <string>
#include <vector>

namespace kjit {

/// Base of every exception kjit throws.
class KJIT_API Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
  ~Error() override;
};

/// A malformed setting: an environment variable (KJIT_DEVICE, KJIT_LOG_LEVEL, ...) or an option.
class KJIT_API ConfigError : public Error {
 public:
  using Error::Error;
  ~ConfigError() override;
};

/// No device matches a request, or a device failed to initialise. The message lists the
/// devices that exist.
class KJIT_API DeviceError : public Error {
 public:
  using Error::Error;
  ~DeviceError() override;
};

/// A call that breaks the API's rules: a moved-from buffer, a span that is too small, an element
/// count whose byte size overflows, a kernel name that is not a name.
class KJIT_API UsageError : public Error {
 public:
  using Error::Error;
  ~UsageError() override;
};

/// A vendor or system call failed (driver, allocation, thread creation). Carries the call.
class KJIT_API BackendError : public Error {
 public:
  using Error::Error;
  ~BackendError() override;
};

/// One compiler diagnostic, located in the user's own file.
struct KJIT_API Diagnostic {
  enum class Severity { note, warning, error };
  std::string file;  // the user's file name as given (path of from_file, name of from_source)
  unsigned line = 0;
  unsigned column = 0;
  Severity severity = Severity::error;
  std::string message;

  /// "file:line:col: error: message", the form editors understand.
  [[nodiscard]] std::string to_string() const;
};

/// A program failed to compile for a device. what() lists each diagnostic as
/// "file:line:col: error: message"; log() holds the compiler's full output.
class KJIT_API CompileError : public Error {
 public:
  CompileError(std::string program, std::string target, std::vector<Diagnostic> diagnostics,
               std::string log);
  ~CompileError() override;

  [[nodiscard]] const std::string& program() const noexcept { return program_; }
  [[nodiscard]] const std::string& target() const noexcept { return target_; }
  [[nodiscard]] const std::vector<Diagnostic>& diagnostics() const noexcept { return diagnostics_; }
  [[nodiscard]] const std::string& log() const noexcept { return log_; }
  /// File and line of the first error (empty and 0 when the compiler gave no location).
  [[nodiscard]] const std::string& file() const noexcept;
  [[nodiscard]] unsigned line() const noexcept;

 private:
  std::string program_;
  std::string target_;
  std::vector<Diagnostic> diagnostics_;
  std::string log_;
};

/// The program has no __global__ function with the requested name (or the name names a
/// __device__ function, or a template instantiation that does not exist).
class KJIT_API KernelNotFoundError : public Error {
 public:
  using Error::Error;
  ~KernelNotFoundError() override;
};

/// A launch that cannot run as asked: a zero or oversized grid or block, too much shared memory,
/// arguments that do not match the kernel's real parameters, a buffer of another device.
class KJIT_API LaunchError : public Error {
 public:
  using Error::Error;
  ~LaunchError() override;
};

}  // namespace kjit
