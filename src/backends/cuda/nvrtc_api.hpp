// The NVRTC functions kjit calls, listed once, loaded from libnvrtc.so.13 (or .12) at run time.
#pragma once

#include "backends/cuda/cuda_types.hpp"

#include <filesystem>
#include <string>
#include <vector>

namespace kjit::cuda {

// X(member, exported symbol, required, return type, parameters)
#define KJIT_NVRTC_FUNCTIONS(X)                                                                \
  X(nvrtcVersion, true, nvrtcResult, (int* major, int* minor))                                 \
  X(nvrtcGetErrorString, true, const char*, (nvrtcResult result))                              \
  X(nvrtcGetNumSupportedArchs, true, nvrtcResult, (int* count))                                \
  X(nvrtcGetSupportedArchs, true, nvrtcResult, (int* archs))                                   \
  X(nvrtcCreateProgram, true, nvrtcResult,                                                     \
    (nvrtcProgram * program, const char* source, const char* name, int header_count,           \
     const char* const* headers, const char* const* include_names))                            \
  X(nvrtcDestroyProgram, true, nvrtcResult, (nvrtcProgram * program))                          \
  X(nvrtcCompileProgram, true, nvrtcResult,                                                    \
    (nvrtcProgram program, int option_count, const char* const* options))                      \
  X(nvrtcGetProgramLogSize, true, nvrtcResult, (nvrtcProgram program, size_t * size))          \
  X(nvrtcGetProgramLog, true, nvrtcResult, (nvrtcProgram program, char* log))                  \
  X(nvrtcGetPTXSize, true, nvrtcResult, (nvrtcProgram program, size_t * size))                 \
  X(nvrtcGetPTX, true, nvrtcResult, (nvrtcProgram program, char* ptx))                         \
  X(nvrtcGetCUBINSize, true, nvrtcResult, (nvrtcProgram program, size_t * size))               \
  X(nvrtcGetCUBIN, true, nvrtcResult, (nvrtcProgram program, char* cubin))                     \
  X(nvrtcAddNameExpression, true, nvrtcResult, (nvrtcProgram program, const char* expression)) \
  X(nvrtcGetLoweredName, true, nvrtcResult,                                                    \
    (nvrtcProgram program, const char* expression, const char** lowered))

struct NvrtcApi {
#define KJIT_NVRTC_MEMBER(member, required, result, params) \
  result(*member) params = nullptr;  // NOLINT(bugprone-macro-parentheses): a declarator
  KJIT_NVRTC_FUNCTIONS(KJIT_NVRTC_MEMBER)
#undef KJIT_NVRTC_MEMBER
  int major = 0;
  int minor = 0;
  std::string library;         // which file was opened
  std::string build;           // DynamicLibrary::file_identity() of it
  std::filesystem::path file;  // DynamicLibrary::checked_file() of it
};

/// The names NVRTC's library is opened by, newest first.
const std::vector<std::string>& nvrtc_library_names();

/// NVRTC, opened once per process. Null when it cannot be used; `why` then says why.
const NvrtcApi* nvrtc_api(std::string& why);

}  // namespace kjit::cuda
