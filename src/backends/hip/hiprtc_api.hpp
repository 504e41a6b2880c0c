// The hipRTC functions kjit calls, and the two comgr functions that say which AMD GPUs the
// installed compiler knows. Both are opened at run time.
#pragma once

#include "backends/hip/hip_types.hpp"

#include <filesystem>
#include <string>
#include <vector>

namespace kjit::hip {

// X(member, required, return type, parameters)
#define KJIT_HIPRTC_FUNCTIONS(X)                                                         \
  X(hiprtcVersion, true, hiprtcResult, (int* major, int* minor))                         \
  X(hiprtcGetErrorString, true, const char*, (hiprtcResult result))                      \
  X(hiprtcCreateProgram, true, hiprtcResult,                                             \
    (hiprtcProgram * program, const char* source, const char* name, int header_count,    \
     const char* const* headers, const char* const* include_names))                      \
  X(hiprtcDestroyProgram, true, hiprtcResult, (hiprtcProgram * program))                 \
  X(hiprtcCompileProgram, true, hiprtcResult,                                            \
    (hiprtcProgram program, int option_count, const char* const* options))               \
  X(hiprtcGetProgramLogSize, true, hiprtcResult, (hiprtcProgram program, size_t * size)) \
  X(hiprtcGetProgramLog, true, hiprtcResult, (hiprtcProgram program, char* log))         \
  X(hiprtcGetCodeSize, true, hiprtcResult, (hiprtcProgram program, size_t * size))       \
  X(hiprtcGetCode, true, hiprtcResult, (hiprtcProgram program, char* code))

struct HiprtcApi {
#define KJIT_HIPRTC_MEMBER(member, required, result, params) \
  result(*member) params = nullptr;  // NOLINT(bugprone-macro-parentheses): a declarator
  KJIT_HIPRTC_FUNCTIONS(KJIT_HIPRTC_MEMBER)
#undef KJIT_HIPRTC_MEMBER
  int major = 0;
  int minor = 0;
  std::string library;  // which file was opened
  std::string build;    // DynamicLibrary::file_identity() of it
  /// What comgr (the compiler under hipRTC) can compile for: "gfx90a", "gfx1030" ... An arch
  /// outside this list aborts the process inside hiprtcCompileProgram (ROCm 5.2), so nothing
  /// reaches hipRTC unless it is here.
  std::vector<std::string> isas;
  /// The real paths of the hipRTC and comgr libraries loaded, when known.
  std::vector<std::filesystem::path> files;
  std::string comgr;  // "libamd_comgr.so.2 2.4"
};

/// hipRTC: libhiprtc.so (ROCm 6 and later) or, before that, inside libamdhip64.so.5; with the
/// comgr it uses. Opened once per process; null when it cannot be used, and `why` says why.
const HiprtcApi* hiprtc_api(std::string& why);

/// The names hipRTC's library, and comgr's, are opened by, newest first.
const std::vector<std::string>& hiprtc_library_names();
const std::vector<std::string>& comgr_library_names();

}  // namespace kjit::hip
