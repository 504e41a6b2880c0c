// The headers a program includes from disk, read before compiling so that their host code is
// erased as the program's own is (host_code.hpp): for GPU compilers that take named in-memory
// headers (NVRTC, hipRTC) and find those before their search path. The CPU backend's compiler
// reads files through a filter instead (cpu_frontend.cpp).
#pragma once

#include "backends/backend.hpp"

#include <filesystem>
#include <string>
#include <vector>

namespace kjit::backend {

struct DiskHeader {
  std::string name;  // as the #include spells it: "helper_cuda.h", "../common/vec.h"
  std::filesystem::path path;
  std::string text;  // with host functions' bodies erased
};

/// Each include name of the program (its source, its in-memory headers, the files they include)
/// that a file beside the including file or in an include dir answers, but none the request's
/// in-memory headers or kjit's own headers answer: those come first.
std::vector<DiskHeader> disk_headers(const CompileRequest& request);

}  // namespace kjit::backend
