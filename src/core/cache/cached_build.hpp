// A program compiled for a device through the disk cache: loaded from a verified entry when one
// exists, else compiled (by one process of those that want it), loaded, and stored.
#pragma once

#include "backends/kit/backend.hpp"

#include <memory>
#include <string>
#include <vector>

namespace kjit::detail::cache {

struct CachedBuild {
  std::unique_ptr<backend::Module> module;
  std::vector<std::string> symbols;  // one per request.kernel_names
  bool from_cache = false;
  double compile_ms = 0;  // 0 on a hit
  double load_ms = 0;     // reading the entry (on a hit) and loading the binary
  std::string log;        // the compiler's warnings (on a compile)
};

/// Throws what the compiler and the device's loader throw. Cache trouble is never an error: it
/// is logged and the program compiled.
CachedBuild build_through_cache(const backend::CompileRequest& request, backend::Device& device);
/// The same with any compiler; without a device (kjit-warm) nothing is loaded: a hit is an entry
/// that verifies, a miss is compiled and stored.
CachedBuild build_through_cache(const backend::CompileRequest& request, backend::Compiler& compiler,
                                backend::Device* device);

}  // namespace kjit::detail::cache
