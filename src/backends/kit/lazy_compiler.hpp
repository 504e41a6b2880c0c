// A compiler made on first use: a device can exist (and run binaries from the cache) without
// its compilers' libraries, which are large to load or may be missing. A factory that fails
// fails the same way for every later call.
#pragma once

#include "backends/kit/backend.hpp"

#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <utility>

namespace kjit::backend {

class LazyCompiler : public Compiler {
 public:
  using Factory = std::function<std::unique_ptr<Compiler>()>;
  using Probe = std::function<std::optional<std::string>()>;
  /// `probe`, when given, is identity_probe() (made without calling the factory).
  explicit LazyCompiler(Factory factory, Probe probe = {})
      : factory_(std::move(factory)), probe_(std::move(probe)) {}
  TargetIdentity identity() override { return get().identity(); }
  std::optional<std::string> identity_probe() override { return probe_ ? probe_() : std::nullopt; }
  Binary compile(const CompileRequest& request) override { return get().compile(request); }

 private:
  Compiler& get() {
    std::call_once(once_, [this] {
      try {
        compiler_ = factory_();
      } catch (...) {
        failure_ = std::current_exception();
      }
    });
    if (failure_) {
      std::rethrow_exception(failure_);
    }
    return *compiler_;
  }

  Factory factory_;
  Probe probe_;
  std::once_flag once_;
  std::unique_ptr<Compiler> compiler_;
  std::exception_ptr failure_;
};

}  // namespace kjit::backend
