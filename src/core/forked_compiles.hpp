// Concurrent compiles of a compiler that compiles one program at a time in a process (NVRTC):
// each runs in a process forked from this one, so that build_all and kjit-warm use every core.
#pragma once

#include "backends/kit/backend.hpp"

#include <chrono>
#include <cstdint>
#include <shared_mutex>
#include <stdexcept>
#include <string>

namespace kjit::detail {

/// How long a forked compile may use no CPU time before it is taken for stuck.
inline constexpr std::chrono::milliseconds kForkStallLimit{10000};

/// compiler.compile(request) for a compiler whose serial_library() names a library. The first
/// compile in the process runs here (it loads and warms the library; concurrent ones wait for
/// it); after it, a compile that finds no other in flight runs here, and one that does runs in
/// a forked process (compile_in_fork), unless KJIT_COMPILE_FORK=off. Every compile that runs
/// here runs on one thread kept for the library, which lives as long as the process. A forked
/// compile that stalls (compile_in_fork) runs again here, with a warning.
backend::Binary compile_sharing_cores(backend::Compiler& compiler,
                                      const backend::CompileRequest& request,
                                      const std::string& target,
                                      std::chrono::milliseconds stall_limit = kForkStallLimit);

/// How many compiles this process has run in forked processes.
std::uint64_t forked_compile_count();

/// A forked compile that used no CPU time for its stall limit: it was killed, and the compile
/// may run again elsewhere.
class ForkedCompileStalled : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Compiles `request` with `compiler` in a process forked from this one, which finds the
/// compiler's library loaded and warm; `gate` is held exclusively for the fork() itself, so that
/// no thread that holds it shared is inside the library then. The child writes no log lines (a
/// lock another thread held at the fork could never be released in it). Its errors arrive as
/// they would in process; a child that dies gives a CompileError that says so. A child whose CPU
/// time stands still for `stall_limit` (it waits for a lock that no thread of its own will
/// release) is killed: ForkedCompileStalled.
backend::Binary compile_in_fork(backend::Compiler& compiler, const backend::CompileRequest& request,
                                const std::string& target, std::shared_mutex& gate,
                                std::chrono::milliseconds stall_limit = kForkStallLimit);

}  // namespace kjit::detail
