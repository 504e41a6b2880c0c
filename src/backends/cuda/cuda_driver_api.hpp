// The CUDA driver API functions kjit calls, listed once, loaded from libcuda.so.1 at run time.
#pragma once

#include "backends/cuda/cuda_types.hpp"

#include <string>

namespace kjit::cuda {

// X(member, exported symbol, older spelling or nullptr, required, return type, parameters)
#define KJIT_CUDA_DRIVER_FUNCTIONS(X)                                                              \
  X(cuInit, "cuInit", nullptr, true, CUresult, (unsigned int flags))                               \
  X(cuDriverGetVersion, "cuDriverGetVersion", nullptr, true, CUresult, (int* version))             \
  X(cuGetErrorName, "cuGetErrorName", nullptr, true, CUresult, (CUresult e, const char** s))       \
  X(cuGetErrorString, "cuGetErrorString", nullptr, true, CUresult, (CUresult e, const char** s))   \
  X(cuDeviceGetCount, "cuDeviceGetCount", nullptr, true, CUresult, (int* count))                   \
  X(cuDeviceGet, "cuDeviceGet", nullptr, true, CUresult, (CUdevice * device, int ordinal))         \
  X(cuDeviceGetName, "cuDeviceGetName", nullptr, true, CUresult,                                   \
    (char* name, int len, CUdevice d))                                                             \
  X(cuDeviceGetAttribute, "cuDeviceGetAttribute", nullptr, true, CUresult,                         \
    (int* value, CUdevice_attribute attribute, CUdevice d))                                        \
  X(cuDeviceTotalMem, "cuDeviceTotalMem_v2", nullptr, true, CUresult,                              \
    (size_t * bytes, CUdevice d))                                                                  \
  X(cuDevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain", nullptr, true, CUresult,                 \
    (CUcontext * context, CUdevice d))                                                             \
  X(cuCtxSetCurrent, "cuCtxSetCurrent", nullptr, true, CUresult, (CUcontext context))              \
  X(cuCtxGetCurrent, "cuCtxGetCurrent", nullptr, true, CUresult, (CUcontext * context))            \
  X(cuCtxSynchronize, "cuCtxSynchronize", nullptr, true, CUresult, ())                             \
  X(cuModuleLoadDataEx, "cuModuleLoadDataEx", nullptr, true, CUresult,                             \
    (CUmodule * module, const void* image, unsigned int count, CUjit_option* options,              \
     void** values))                                                                               \
  X(cuModuleUnload, "cuModuleUnload", nullptr, true, CUresult, (CUmodule module))                  \
  X(cuModuleGetFunction, "cuModuleGetFunction", nullptr, true, CUresult,                           \
    (CUfunction * function, CUmodule module, const char* name))                                    \
  X(cuModuleGetGlobal, "cuModuleGetGlobal_v2", nullptr, true, CUresult,                            \
    (CUdeviceptr * address, size_t * bytes, CUmodule module, const char* name))                    \
  X(cuFuncGetAttribute, "cuFuncGetAttribute", nullptr, true, CUresult,                             \
    (int* value, CUfunction_attribute attribute, CUfunction f))                                    \
  X(cuFuncSetAttribute, "cuFuncSetAttribute", nullptr, true, CUresult,                             \
    (CUfunction f, CUfunction_attribute attribute, int value))                                     \
  X(cuFuncGetParamInfo, "cuFuncGetParamInfo", nullptr, false, CUresult,                            \
    (CUfunction f, size_t index, size_t * offset, size_t * size))                                  \
  X(cuLaunchKernel, "cuLaunchKernel", nullptr, true, CUresult,                                     \
    (CUfunction f, unsigned int gx, unsigned int gy, unsigned int gz, unsigned int bx,             \
     unsigned int by, unsigned int bz, unsigned int shared, CUstream stream, void** params,        \
     void** extra))                                                                                \
  X(cuMemAlloc, "cuMemAlloc_v2", nullptr, true, CUresult, (CUdeviceptr * address, size_t bytes))   \
  X(cuMemFree, "cuMemFree_v2", nullptr, true, CUresult, (CUdeviceptr address))                     \
  X(cuMemAllocHost, "cuMemAllocHost_v2", nullptr, true, CUresult, (void** pointer, size_t bytes))  \
  X(cuMemFreeHost, "cuMemFreeHost", nullptr, true, CUresult, (void* pointer))                      \
  X(cuStreamBeginCapture, "cuStreamBeginCapture_v2", nullptr, false, CUresult,                     \
    (CUstream stream, CUstreamCaptureMode mode))                                                   \
  X(cuStreamEndCapture, "cuStreamEndCapture", nullptr, false, CUresult,                            \
    (CUstream stream, CUgraph * graph))                                                            \
  X(cuGraphInstantiate, "cuGraphInstantiateWithFlags", nullptr, false, CUresult,                   \
    (CUgraphExec * exec, CUgraph graph, unsigned long long flags))                                 \
  X(cuGraphLaunch, "cuGraphLaunch", nullptr, false, CUresult, (CUgraphExec exec, CUstream stream)) \
  X(cuGraphExecDestroy, "cuGraphExecDestroy", nullptr, false, CUresult, (CUgraphExec exec))        \
  X(cuGraphDestroy, "cuGraphDestroy", nullptr, false, CUresult, (CUgraph graph))                   \
  X(cuGraphGetNodes, "cuGraphGetNodes", nullptr, false, CUresult,                                  \
    (CUgraph graph, CUgraphNode * nodes, size_t * count))                                          \
  X(cuStreamGetCaptureInfo, "cuStreamGetCaptureInfo_v2", nullptr, false, CUresult,                 \
    (CUstream stream, CUstreamCaptureStatus * status, unsigned long long* id, CUgraph* graph,      \
     const CUgraphNode** dependencies, size_t* count))                                             \
  X(cuGraphKernelNodeGetParams, "cuGraphKernelNodeGetParams_v2", nullptr, false, CUresult,         \
    (CUgraphNode node, CUDA_KERNEL_NODE_PARAMS * params))                                          \
  X(cuGraphExecKernelNodeSetParams, "cuGraphExecKernelNodeSetParams_v2", nullptr, false, CUresult, \
    (CUgraphExec exec, CUgraphNode node, const CUDA_KERNEL_NODE_PARAMS* params))                   \
  X(cuMemAllocManaged, "cuMemAllocManaged", nullptr, false, CUresult,                              \
    (CUdeviceptr * address, size_t bytes, unsigned int flags))                                     \
  X(cuMemPrefetchAsync, "cuMemPrefetchAsync_v2", nullptr, false, CUresult,                         \
    (CUdeviceptr address, size_t bytes, CUmemLocation to, unsigned int flags, CUstream stream))    \
  X(cuMemAdvise, "cuMemAdvise_v2", nullptr, false, CUresult,                                       \
    (CUdeviceptr address, size_t bytes, CUmem_advise advice, CUmemLocation location))              \
  X(cuMemHostAlloc, "cuMemHostAlloc", nullptr, true, CUresult,                                     \
    (void** pointer, size_t bytes, unsigned int flags))                                            \
  X(cuPointerGetAttribute, "cuPointerGetAttribute", nullptr, true, CUresult,                       \
    (void* data, CUpointer_attribute attribute, CUdeviceptr pointer))                              \
  X(cuMemcpyHtoDAsync, "cuMemcpyHtoDAsync_v2", nullptr, true, CUresult,                            \
    (CUdeviceptr dst, const void* src, size_t bytes, CUstream stream))                             \
  X(cuMemcpyDtoHAsync, "cuMemcpyDtoHAsync_v2", nullptr, true, CUresult,                            \
    (void* dst, CUdeviceptr src, size_t bytes, CUstream stream))                                   \
  X(cuMemcpyDtoDAsync, "cuMemcpyDtoDAsync_v2", nullptr, true, CUresult,                            \
    (CUdeviceptr dst, CUdeviceptr src, size_t bytes, CUstream stream))                             \
  X(cuStreamCreate, "cuStreamCreate", nullptr, true, CUresult,                                     \
    (CUstream * stream, unsigned int f))                                                           \
  X(cuStreamDestroy, "cuStreamDestroy_v2", nullptr, true, CUresult, (CUstream stream))             \
  X(cuStreamSynchronize, "cuStreamSynchronize", nullptr, true, CUresult, (CUstream stream))        \
  X(cuStreamWaitEvent, "cuStreamWaitEvent", nullptr, true, CUresult,                               \
    (CUstream stream, CUevent event, unsigned int flags))                                          \
  X(cuEventCreate, "cuEventCreate", nullptr, true, CUresult, (CUevent * event, unsigned int f))    \
  X(cuEventDestroy, "cuEventDestroy_v2", nullptr, true, CUresult, (CUevent event))                 \
  X(cuEventRecord, "cuEventRecord", nullptr, true, CUresult, (CUevent event, CUstream stream))     \
  X(cuEventSynchronize, "cuEventSynchronize", nullptr, true, CUresult, (CUevent event))            \
  X(cuEventQuery, "cuEventQuery", nullptr, true, CUresult, (CUevent event))                        \
  X(cuEventElapsedTime, "cuEventElapsedTime_v2", "cuEventElapsedTime", true, CUresult,             \
    (float* ms, CUevent start, CUevent end))

/// The driver's functions. Those marked optional may be null (cuFuncGetParamInfo needs a
/// driver of CUDA 12.4 or later).
struct DriverApi {
#define KJIT_CUDA_DRIVER_MEMBER(member, symbol, fallback, required, result, params) \
  result(*member) params = nullptr;  // NOLINT(bugprone-macro-parentheses): a declarator
  KJIT_CUDA_DRIVER_FUNCTIONS(KJIT_CUDA_DRIVER_MEMBER)
#undef KJIT_CUDA_DRIVER_MEMBER
};

/// The driver, opened once per process. Null when it cannot be used; `why` then says why (no
/// libcuda.so.1, a missing symbol).
const DriverApi* driver_api(std::string& why);

}  // namespace kjit::cuda
