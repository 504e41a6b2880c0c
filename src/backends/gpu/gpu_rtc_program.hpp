// What NVRTC and hipRTC programs share: a program destroyed with its owner, its log, the options
// both compilers spell alike, and options as the C array both take.
#pragma once

#include "backends/kit/backend.hpp"

#include <fmt/format.h>

#include <cstddef>
#include <string>
#include <vector>

namespace kjit::gpu {

/// A program of a runtime compiler whose table is `Api`: `destroy`, `log_size` and `get_log` are
/// the table's members for nvrtcDestroyProgram, nvrtcGetProgramLogSize and nvrtcGetProgramLog
/// (or hipRTC's), which return `success` when they succeed.
template <class Api, class Handle, auto destroy, auto log_size, auto get_log, auto success>
class RtcProgram {
 public:
  RtcProgram(const Api& api, Handle program) : api_(api), program_(program) {}
  RtcProgram(const RtcProgram&) = delete;
  RtcProgram& operator=(const RtcProgram&) = delete;
  ~RtcProgram() { (api_.*destroy)(&program_); }
  [[nodiscard]] Handle get() const noexcept { return program_; }

  /// The compiler's log, without its terminating NUL; empty when there is none.
  [[nodiscard]] std::string log() const {
    std::size_t size = 0;
    if ((api_.*log_size)(program_, &size) != success || size <= 1) {
      return {};
    }
    std::string text(size, '\0');
    (api_.*get_log)(program_, text.data());
    text.resize(size - 1);
    return text;
  }

 private:
  const Api& api_;
  Handle program_;
};

/// Appends the request's include folders (-I) and defines (-D) to `options`.
inline void add_includes_and_defines(std::vector<std::string>& options,
                                     const backend::CompileRequest& request) {
  for (const auto& dir : request.include_dirs) {
    options.push_back("-I" + dir.string());
  }
  for (const auto& [name, value] : request.defines) {
    options.push_back(value.empty() ? fmt::format("-D{}", name)
                                    : fmt::format("-D{}={}", name, value));
  }
}

/// `options` as the array of C strings a compiler takes; valid while `options` is.
inline std::vector<const char*> option_pointers(const std::vector<std::string>& options) {
  std::vector<const char*> argv;
  argv.reserve(options.size());
  for (const std::string& o : options) {
    argv.push_back(o.c_str());
  }
  return argv;
}

}  // namespace kjit::gpu
