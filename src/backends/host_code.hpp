// Host code in kernel files. A kernel file from an existing CUDA project holds host code beside
// its kernels: functions that launch them (<<<...>>>), call the CUDA runtime, or are main().
// kjit compiles device code only, so before a backend's compiler sees a file, the bodies of its
// host-only functions are erased (each becomes a declaration marked __KJIT_HOST_ONLY), keeping
// every line where it was. Functions without __host__/__device__ stay: they are compiled for the
// device, as NVRTC's --device-as-default-execution-space does, and dropped when no kernel calls
// them. A kernel that calls a host-only function gets a compile error at the call, from the mark.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace kjit::backend {

/// `source` with the definitions of host-only functions at namespace scope turned into
/// declarations: those marked __host__ without __device__, those whose body launches a kernel
/// (<<<) or calls the CUDA runtime or driver API (cudaMalloc(...), cuLaunchKernel(...)) or the C
/// library's I/O, and main(). The text keeps its lines; a text that cannot be read reliably
/// (unbalanced braces, an unterminated comment) comes back unchanged.
std::string erase_host_functions(std::string_view source);

/// The spelling that marks a host-only function's declaration: each backend's prelude defines
/// __KJIT_HOST_ONLY as a deprecation carrying this text (or as nothing, where the compiler
/// refuses such calls itself).
inline constexpr std::string_view kHostOnlyMark = "__kjit_host_only__";

/// For a compiler's warning about a use of a marked function ("'fprintf' is deprecated:
/// __kjit_host_only__", or NVRTC's `function "fprintf" was declared deprecated
/// ("__kjit_host_only__")`): the function's name.
std::optional<std::string> host_only_callee(std::string_view message);

/// The error for a kernel's call to host function `name`, at the call's place.
std::string host_call_message(std::string_view name);

/// Whether a symbol that device code needs (a demangled name, "launch(float*)" or "fprintf")
/// is the function `callee` names.
bool is_host_callee(std::string_view symbol, std::string_view callee);

}  // namespace kjit::backend
