// The headers kjit gives kernels on every backend (src/source/kernel_headers/include): the C
// and C++ standard headers kernel files include, CUDA's runtime, half-precision and
// cooperative-groups headers, each a compile-safe version embedded in libkjit, so that a kernel
// file loads as written with no CUDA toolkit or C library headers on the machine. A backend's
// compiler finds them before anything on disk, and after the caller's in-memory headers.
#pragma once

#include <span>
#include <string_view>

namespace kjit::source {

struct KernelHeader {
  std::string_view name;  // as kernels include it: "stdio.h", "cooperative_groups/reduce.h"
  std::string_view text;
};

/// Every header, in a fixed order.
std::span<const KernelHeader> kernel_headers() noexcept;

}  // namespace kjit::source

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace kjit::source {

/// kjit's headers but those `given` (a CompileRequest's in-memory headers) already names: what a
/// GPU compiler that takes a list of named headers (NVRTC, hipRTC) gets after the caller's.
std::vector<KernelHeader> kernel_headers_besides(
    const std::vector<std::pair<std::string, std::string>>& given);

/// The header name in a GPU compiler's name for a file it was given as a named header: NVRTC's
/// is the name itself; hipRTC's a file in comgr's temporary include folder
/// (".../comgr-XXXXXX/include/<name>"). nullopt for another file of that temporary folder.
std::optional<std::string_view> named_header_of(std::string_view file);

/// How a diagnostic names one of kjit's headers ("<kjit>/cuda_fp16.h"), for a GPU compiler's file
/// name: NVRTC's (the header's own name) or hipRTC's (a file in its temporary include folder);
/// nullopt for any other file, a header of `given` included.
std::optional<std::string> kernel_header_display(
    std::string_view file, const std::vector<std::pair<std::string, std::string>>& given);

}  // namespace kjit::source
