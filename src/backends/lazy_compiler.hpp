// A compiler made on first use: a device can exist (and run binaries from the cache) without
// its compilers' libraries, which are large to load or may be missing. A factory that fails
// fails the same way for every later call.
#pragma once

#include "backends/backend.hpp"

#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <utility>

namespace kjit::backend {

class LazyCompiler : public Compiler {
 public:
  using Factory = std::function<std::unique_ptr<Compiler>()>;
  explicit LazyCompiler(Factory factory) : factory_(std::move(factory)) {}
  TargetIdentity identity() override { return get().identity(); }
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
  std::once_flag once_;
  std::unique_ptr<Compiler> compiler_;
  std::exception_ptr failure_;
};

}  // namespace kjit::backend
