#include "core/forked_compiles.hpp"

#include "support/environment.hpp"
#include "support/logging.hpp"
#include "support/thread_pool.hpp"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <future>
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
  /// The one thread on which the library's compiles in this process run; never stopped, as the
  /// libraries are never destroyed. NVRTC takes a lock of its own when a thread that compiled
  /// ends (a thread-specific destructor), and a fork at that moment gave a child that waited for
  /// that lock for ever.
  TaskQueue home{1};
};

/// Never destroyed: a library's home thread outlives every static destructor.
Library& library(const char* name) {
  static std::mutex mutex;
  static auto* const libraries = new std::map<std::string, Library, std::less<>>();
  const std::lock_guard lock(mutex);
  return (*libraries)[name];
}

std::atomic<std::uint64_t> forked{0};

backend::Binary compile_here(Library& lib, backend::Compiler& compiler,
                             const backend::CompileRequest& request) {
  auto task = std::make_shared<std::packaged_task<backend::Binary()>>([&] {
    const std::shared_lock shared(lib.gate);
    return compiler.compile(request);
  });
  std::future<backend::Binary> result = task->get_future();
  lib.home.post([task] { (*task)(); });
  return result.get();
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
                                      const std::string& target,
                                      std::chrono::milliseconds stall_limit) {
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
  backend::Binary binary;
  try {
    binary = compile_in_fork(compiler, request, target, lib.gate, stall_limit);
  } catch (const ForkedCompileStalled& e) {
    log().warn("{}; compiling it in this process", e.what());
    return compile_here(lib, compiler, request);
  }
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
