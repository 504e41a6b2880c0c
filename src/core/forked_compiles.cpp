#include "core/forked_compiles.hpp"

#include "core/child_compile.hpp"
#include "support/environment.hpp"
#include "support/logging.hpp"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <map>
#include <mutex>
#include <shared_mutex>

namespace kjit::detail {

namespace {

/// What this process knows of one serial library.
struct Library {
  /// Held shared by every compile with the library in this process, exclusively for a fork():
  /// a child must not start with another thread's lock inside the library held for ever.
  std::shared_mutex gate;
  std::mutex mutex;
  std::condition_variable warmed;
  bool warm = false;     // a compile has run in this process: the library is loaded and warm
  bool warming = false;  // the first compile is running
  unsigned in_flight = 0;
};

Library& library(const char* name) {
  static std::mutex mutex;
  static std::map<std::string, Library, std::less<>> libraries;
  const std::lock_guard lock(mutex);
  return libraries[name];
}

std::atomic<std::uint64_t> forked{0};

backend::Binary compile_here(Library& lib, backend::Compiler& compiler,
                             const backend::CompileRequest& request) {
  const std::shared_lock shared(lib.gate);
  return compiler.compile(request);
}

/// Counts a compile in flight for as long as it lives; the first one also ends the warm-up.
class InFlight {
 public:
  InFlight(Library& lib, bool warming) : lib_(lib), warming_(warming) {}
  InFlight(const InFlight&) = delete;
  InFlight& operator=(const InFlight&) = delete;
  ~InFlight() {
    const std::lock_guard lock(lib_.mutex);
    --lib_.in_flight;
    if (warming_) {
      lib_.warming = false;
      lib_.warm = true;  // even after a failed compile: the library has loaded and run
      lib_.warmed.notify_all();
    }
  }

 private:
  Library& lib_;
  bool warming_;
};

}  // namespace

backend::Binary compile_sharing_cores(backend::Compiler& compiler,
                                      const backend::CompileRequest& request,
                                      const std::string& target) {
  const bool may_fork = environment::compile_fork();
  Library& lib = library(compiler.serial_library());
  std::unique_lock lock(lib.mutex);
  bool waited = false;
  while (lib.warming) {
    waited = true;
    lib.warmed.wait(lock);
  }
  const bool first = !lib.warm;
  // Alone, a compile is fastest here: in a forked process it took twice as long. One that
  // waited for the warm-up had company.
  const bool here = first || (lib.in_flight == 0 && !waited) || !may_fork;
  ++lib.in_flight;
  lib.warming = first;
  lock.unlock();
  const InFlight counted(lib, first);
  if (here) {
    return compile_here(lib, compiler, request);
  }
  const auto start = std::chrono::steady_clock::now();
  backend::Binary binary = compile_in_fork(compiler, request, target, lib.gate);
  forked.fetch_add(1, std::memory_order_relaxed);
  log().debug(
      "kjit: compiled '{}' for {} in a forked process ({:.1f} ms)", request.program_name, target,
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
  return binary;
}

std::uint64_t forked_compile_count() {
  return forked.load(std::memory_order_relaxed);
}

}  // namespace kjit::detail
