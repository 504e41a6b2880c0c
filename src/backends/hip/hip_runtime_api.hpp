// The HIP runtime functions kjit calls, listed once, loaded from libamdhip64.so at run time.
#pragma once

#include "backends/hip/hip_types.hpp"

#include <string>

namespace kjit::hip {

// X(member, exported symbol, required, return type, parameters)
#define KJIT_HIP_FUNCTIONS(X)                                                                     \
  X(hipInit, "hipInit", true, hipError_t, (unsigned int flags))                                   \
  X(hipRuntimeGetVersion, "hipRuntimeGetVersion", true, hipError_t, (int* version))               \
  X(hipGetErrorName, "hipGetErrorName", true, const char*, (hipError_t e))                        \
  X(hipGetErrorString, "hipGetErrorString", true, const char*, (hipError_t e))                    \
  X(hipGetDeviceCount, "hipGetDeviceCount", true, hipError_t, (int* count))                       \
  X(hipDeviceGet, "hipDeviceGet", true, hipError_t, (hipDevice_t * device, int ordinal))          \
  X(hipDeviceGetName, "hipDeviceGetName", true, hipError_t, (char* name, int len, hipDevice_t d)) \
  X(hipDeviceGetAttribute, "hipDeviceGetAttribute", true, hipError_t,                             \
    (int* value, hipDeviceAttribute_t attribute, int ordinal))                                    \
  X(hipDeviceTotalMem, "hipDeviceTotalMem", true, hipError_t, (size_t * bytes, hipDevice_t d))    \
  X(hipGetDeviceProperties, "hipGetDeviceProperties", false, hipError_t,                          \
    (void* properties, int ordinal))                                                              \
  X(hipGetDevicePropertiesR0600, "hipGetDevicePropertiesR0600", false, hipError_t,                \
    (void* properties, int ordinal))                                                              \
  X(hipSetDevice, "hipSetDevice", true, hipError_t, (int ordinal))                                \
  X(hipGetDevice, "hipGetDevice", true, hipError_t, (int* ordinal))                               \
  X(hipDeviceSynchronize, "hipDeviceSynchronize", true, hipError_t, ())                           \
  X(hipModuleLoadData, "hipModuleLoadData", true, hipError_t,                                     \
    (hipModule_t * module, const void* image))                                                    \
  X(hipModuleUnload, "hipModuleUnload", true, hipError_t, (hipModule_t module))                   \
  X(hipModuleGetFunction, "hipModuleGetFunction", true, hipError_t,                               \
    (hipFunction_t * function, hipModule_t module, const char* name))                             \
  X(hipModuleGetGlobal, "hipModuleGetGlobal", true, hipError_t,                                   \
    (hipDeviceptr_t * address, size_t * bytes, hipModule_t module, const char* name))             \
  X(hipModuleLaunchKernel, "hipModuleLaunchKernel", true, hipError_t,                             \
    (hipFunction_t f, unsigned int gx, unsigned int gy, unsigned int gz, unsigned int bx,         \
     unsigned int by, unsigned int bz, unsigned int shared, hipStream_t stream, void** params,    \
     void** extra))                                                                               \
  X(hipMalloc, "hipMalloc", true, hipError_t, (void** address, size_t bytes))                     \
  X(hipFree, "hipFree", true, hipError_t, (void* address))                                        \
  X(hipStreamBeginCapture, "hipStreamBeginCapture", false, hipError_t,                            \
    (hipStream_t stream, int mode))                                                               \
  X(hipStreamEndCapture, "hipStreamEndCapture", false, hipError_t,                                \
    (hipStream_t stream, hipGraph_t * graph))                                                     \
  X(hipGraphInstantiate, "hipGraphInstantiate", false, hipError_t,                                \
    (hipGraphExec_t * exec, hipGraph_t graph, hipGraphNode_t * error_node, char* log,             \
     size_t log_bytes))                                                                           \
  X(hipGraphLaunch, "hipGraphLaunch", false, hipError_t, (hipGraphExec_t exec, hipStream_t s))    \
  X(hipGraphExecDestroy, "hipGraphExecDestroy", false, hipError_t, (hipGraphExec_t exec))         \
  X(hipGraphDestroy, "hipGraphDestroy", false, hipError_t, (hipGraph_t graph))                    \
  X(hipGraphGetNodes, "hipGraphGetNodes", false, hipError_t,                                      \
    (hipGraph_t graph, hipGraphNode_t * nodes, size_t * count))                                   \
  X(hipStreamGetCaptureInfo, "hipStreamGetCaptureInfo_v2", false, hipError_t,                     \
    (hipStream_t stream, int* status, unsigned long long* id, hipGraph_t* graph,                  \
     const hipGraphNode_t** dependencies, size_t* count))                                         \
  X(hipGraphKernelNodeGetParams, "hipGraphKernelNodeGetParams", false, hipError_t,                \
    (hipGraphNode_t node, hipKernelNodeParams * params))                                          \
  X(hipGraphExecKernelNodeSetParams, "hipGraphExecKernelNodeSetParams", false, hipError_t,        \
    (hipGraphExec_t exec, hipGraphNode_t node, const hipKernelNodeParams* params))                \
  X(hipMallocManaged, "hipMallocManaged", false, hipError_t,                                      \
    (void** address, size_t bytes, unsigned int flags))                                           \
  X(hipMemPrefetchAsync, "hipMemPrefetchAsync", false, hipError_t,                                \
    (const void* address, size_t bytes, int device, hipStream_t stream))                          \
  X(hipMemAdvise, "hipMemAdvise", false, hipError_t,                                              \
    (const void* address, size_t bytes, int advice, int device))                                  \
  X(hipHostMalloc, "hipHostMalloc", true, hipError_t,                                             \
    (void** pointer, size_t bytes, unsigned int flags))                                           \
  X(hipHostFree, "hipHostFree", true, hipError_t, (void* pointer))                                \
  X(hipMemcpyHtoDAsync, "hipMemcpyHtoDAsync", true, hipError_t,                                   \
    (hipDeviceptr_t dst, void* src, size_t bytes, hipStream_t stream))                            \
  X(hipMemcpyDtoHAsync, "hipMemcpyDtoHAsync", true, hipError_t,                                   \
    (void* dst, hipDeviceptr_t src, size_t bytes, hipStream_t stream))                            \
  X(hipMemcpyDtoDAsync, "hipMemcpyDtoDAsync", true, hipError_t,                                   \
    (hipDeviceptr_t dst, hipDeviceptr_t src, size_t bytes, hipStream_t stream))                   \
  X(hipStreamCreateWithFlags, "hipStreamCreateWithFlags", true, hipError_t,                       \
    (hipStream_t * stream, unsigned int flags))                                                   \
  X(hipStreamDestroy, "hipStreamDestroy", true, hipError_t, (hipStream_t stream))                 \
  X(hipStreamSynchronize, "hipStreamSynchronize", true, hipError_t, (hipStream_t stream))         \
  X(hipStreamWaitEvent, "hipStreamWaitEvent", true, hipError_t,                                   \
    (hipStream_t stream, hipEvent_t event, unsigned int flags))                                   \
  X(hipEventCreateWithFlags, "hipEventCreateWithFlags", true, hipError_t,                         \
    (hipEvent_t * event, unsigned int flags))                                                     \
  X(hipEventDestroy, "hipEventDestroy", true, hipError_t, (hipEvent_t event))                     \
  X(hipEventRecord, "hipEventRecord", true, hipError_t, (hipEvent_t event, hipStream_t stream))   \
  X(hipEventSynchronize, "hipEventSynchronize", true, hipError_t, (hipEvent_t event))             \
  X(hipEventQuery, "hipEventQuery", true, hipError_t, (hipEvent_t event))                         \
  X(hipEventElapsedTime, "hipEventElapsedTime", true, hipError_t,                                 \
    (float* ms, hipEvent_t start, hipEvent_t end))

/// The HIP runtime's functions. hipGetDeviceProperties is the layout of ROCm 5 (R0000),
/// hipGetDevicePropertiesR0600 that of ROCm 6 and later; at least one of them must be present.
struct HipApi {
#define KJIT_HIP_MEMBER(member, symbol, required, result, params) \
  result(*member) params = nullptr;  // NOLINT(bugprone-macro-parentheses): a declarator
  KJIT_HIP_FUNCTIONS(KJIT_HIP_MEMBER)
#undef KJIT_HIP_MEMBER
  std::string library;  // which file was opened
};

/// The candidates, newest first: ROCm 7, 6 and 5.
inline constexpr const char* kHipLibraries[] = {"libamdhip64.so.7", "libamdhip64.so.6",
                                                "libamdhip64.so.5", "libamdhip64.so"};

/// The HIP runtime, opened once per process. Null when it cannot be used; `why` then says why
/// (every file tried, or the missing symbol).
const HipApi* hip_api(std::string& why);

}  // namespace kjit::hip
