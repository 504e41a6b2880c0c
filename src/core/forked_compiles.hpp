// Concurrent compiles of a compiler that compiles one program at a time in a process (NVRTC):
// each runs in a process forked from this one, so that build_all and kjit-warm use every core.
#pragma once

#include "backends/kit/backend.hpp"

#include <cstdint>
#include <string>

namespace kjit::detail {

/// compiler.compile(request) for a compiler whose serial_library() names a library. The first
/// compile in the process runs here (it loads and warms the library; concurrent ones wait for
/// it); after it, a compile that finds no other in flight runs here, and one that does runs in
/// a forked process (compile_in_fork), unless KJIT_COMPILE_FORK=off.
backend::Binary compile_sharing_cores(backend::Compiler& compiler,
                                      const backend::CompileRequest& request,
                                      const std::string& target);

/// How many compiles this process has run in forked processes.
std::uint64_t forked_compile_count();

}  // namespace kjit::detail
