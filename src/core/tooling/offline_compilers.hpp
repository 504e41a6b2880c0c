// The backends' offline compilers by target name ("cpu", "cuda:sm_90", "hip:gfx90a"), made once
// each: what kjit-warm compiles with, and what the kjit-compile helper runs for libkjit.
#pragma once

#include "backends/kit/backend.hpp"

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <utility>

namespace kjit::tooling {

class OfflineCompilers {
 public:
  OfflineCompilers();
  ~OfflineCompilers();
  OfflineCompilers(const OfflineCompilers&) = delete;
  OfflineCompilers& operator=(const OfflineCompilers&) = delete;

  /// The compiler of `target` for `request`'s input (source or bitcode). ConfigError for a
  /// target that is not one or whose backend is not built; BackendError when its compiler
  /// library cannot be used.
  backend::Compiler& compiler(const std::string& target, const backend::CompileRequest& request);

 private:
  struct Backends;  // the backends built in (core/backend_registry.hpp)
  std::unique_ptr<Backends> backends_;
  std::mutex mutex_;
  std::map<std::pair<std::string, bool>, std::unique_ptr<backend::Compiler>> compilers_;
};

}  // namespace kjit::tooling
