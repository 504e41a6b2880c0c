// kjit's <cuda_runtime_api.h>: the CUDA runtime's host functions, declared so that host code in a
// kernel file or a shared header compiles; a kernel that calls one is a compile error (kjit
// compiles only device code: a program's host side uses kjit's API instead). Declarations only:
// no definition a kernel could call. Every backend's prelude includes it (through
// <cuda_runtime.h>), as nvcc does for every .cu file.
#ifndef __KJIT_CUDA_RUNTIME_API_H
#define __KJIT_CUDA_RUNTIME_API_H
#include <driver_types.h>
#include "__kjit_headers.h"

#if !defined(__KJIT_CUDA__)
#define CUDART_VERSION 12000
#endif

// The runtime's callback type (NVRTC declares the runtime's other types, not this one).
typedef void (*cudaStreamCallback_t)(cudaStream_t stream, cudaError_t status, void* userData);

#define __KJIT_RT(ret, name, ...) extern "C" ret name(__VA_ARGS__) __KJIT_HOST_ONLY;
// Host functions that NVRTC does not declare for device code.
__KJIT_RT(cudaError_t, cudaMemcpy, void*, const void*, size_t, enum cudaMemcpyKind)
__KJIT_RT(cudaError_t, cudaMemcpy2D, void*, size_t, const void*, size_t, size_t, size_t,
          enum cudaMemcpyKind)
__KJIT_RT(cudaError_t, cudaMemcpyPeer, void*, int, const void*, int, size_t)
__KJIT_RT(cudaError_t, cudaMemcpyPeerAsync, void*, int, const void*, int, size_t, cudaStream_t)
__KJIT_RT(cudaError_t, cudaMemset, void*, int, size_t)
__KJIT_RT(cudaError_t, cudaMemset2D, void*, size_t, int, size_t, size_t)
__KJIT_RT(cudaError_t, cudaMallocHost, void**, size_t)
__KJIT_RT(cudaError_t, cudaHostAlloc, void**, size_t, unsigned int)
__KJIT_RT(cudaError_t, cudaFreeHost, void*)
__KJIT_RT(cudaError_t, cudaHostRegister, void*, size_t, unsigned int)
__KJIT_RT(cudaError_t, cudaHostUnregister, void*)
__KJIT_RT(cudaError_t, cudaHostGetDevicePointer, void**, void*, unsigned int)
__KJIT_RT(cudaError_t, cudaMallocPitch, void**, size_t*, size_t, size_t)
__KJIT_RT(cudaError_t, cudaMalloc3D, struct cudaPitchedPtr*, struct cudaExtent)
__KJIT_RT(cudaError_t, cudaMallocManaged, void**, size_t, unsigned int)
__KJIT_RT(cudaError_t, cudaMallocAsync, void**, size_t, cudaStream_t)
__KJIT_RT(cudaError_t, cudaFreeAsync, void*, cudaStream_t)
__KJIT_RT(cudaError_t, cudaMemGetInfo, size_t*, size_t*)
__KJIT_RT(cudaError_t, cudaPointerGetAttributes, struct cudaPointerAttributes*, const void*)
__KJIT_RT(cudaError_t, cudaDeviceReset, void)
__KJIT_RT(cudaError_t, cudaThreadSynchronize, void)
__KJIT_RT(cudaError_t, cudaSetDevice, int)
__KJIT_RT(cudaError_t, cudaSetDeviceFlags, unsigned int)
__KJIT_RT(cudaError_t, cudaGetDeviceProperties, struct cudaDeviceProp*, int)
__KJIT_RT(cudaError_t, cudaDeviceSetCacheConfig, enum cudaFuncCache)
__KJIT_RT(cudaError_t, cudaDeviceSetLimit, enum cudaLimit, size_t)
__KJIT_RT(cudaError_t, cudaDeviceGetStreamPriorityRange, int*, int*)
__KJIT_RT(cudaError_t, cudaDeviceCanAccessPeer, int*, int, int)
__KJIT_RT(cudaError_t, cudaDeviceEnablePeerAccess, int, unsigned int)
__KJIT_RT(cudaError_t, cudaDeviceDisablePeerAccess, int)
__KJIT_RT(cudaError_t, cudaDriverGetVersion, int*)
__KJIT_RT(cudaError_t, cudaStreamCreate, cudaStream_t*)
__KJIT_RT(cudaError_t, cudaStreamCreateWithPriority, cudaStream_t*, unsigned int, int)
__KJIT_RT(cudaError_t, cudaStreamSynchronize, cudaStream_t)
__KJIT_RT(cudaError_t, cudaStreamQuery, cudaStream_t)
__KJIT_RT(cudaError_t, cudaStreamAddCallback, cudaStream_t, cudaStreamCallback_t, void*,
          unsigned int)
__KJIT_RT(cudaError_t, cudaStreamBeginCapture, cudaStream_t, enum cudaStreamCaptureMode)
__KJIT_RT(cudaError_t, cudaStreamEndCapture, cudaStream_t, cudaGraph_t*)
__KJIT_RT(cudaError_t, cudaLaunchHostFunc, cudaStream_t, cudaHostFn_t, void*)
__KJIT_RT(cudaError_t, cudaEventCreate, cudaEvent_t*)
__KJIT_RT(cudaError_t, cudaEventSynchronize, cudaEvent_t)
__KJIT_RT(cudaError_t, cudaEventQuery, cudaEvent_t)
__KJIT_RT(cudaError_t, cudaEventElapsedTime, float*, cudaEvent_t, cudaEvent_t)
__KJIT_RT(cudaError_t, cudaGraphInstantiate, cudaGraphExec_t*, cudaGraph_t, unsigned long long)
__KJIT_RT(cudaError_t, cudaGraphExecDestroy, cudaGraphExec_t)
__KJIT_RT(cudaError_t, cudaGraphDestroy, cudaGraph_t)
__KJIT_RT(cudaError_t, cudaFuncSetCacheConfig, const void*, enum cudaFuncCache)
__KJIT_RT(cudaError_t, cudaFuncSetAttribute, const void*, enum cudaFuncAttribute, int)
__KJIT_RT(cudaError_t, cudaLaunchKernel, const void*, dim3, dim3, void**, size_t, cudaStream_t)
__KJIT_RT(cudaError_t, cudaLaunchCooperativeKernel, const void*, dim3, dim3, void**, size_t,
          cudaStream_t)
__KJIT_RT(cudaError_t, cudaGetSymbolAddress, void**, const void*)
__KJIT_RT(cudaError_t, cudaGetSymbolSize, size_t*, const void*)
#if !defined(__KJIT_CUDA__) || !defined(__CUDACC_RDC__)
// Those NVRTC declares for device code (the device runtime) when it compiles relocatable code
// (-rdc, which kjit does not ask for); host functions elsewhere.
__KJIT_RT(cudaError_t, cudaMalloc, void**, size_t)
__KJIT_RT(cudaError_t, cudaFree, void*)
__KJIT_RT(cudaError_t, cudaMemcpyAsync, void*, const void*, size_t, enum cudaMemcpyKind,
          cudaStream_t)
__KJIT_RT(cudaError_t, cudaMemcpy2DAsync, void*, size_t, const void*, size_t, size_t, size_t,
          enum cudaMemcpyKind, cudaStream_t)
__KJIT_RT(cudaError_t, cudaMemsetAsync, void*, int, size_t, cudaStream_t)
__KJIT_RT(cudaError_t, cudaMemset2DAsync, void*, size_t, int, size_t, size_t, cudaStream_t)
__KJIT_RT(cudaError_t, cudaDeviceSynchronize, void)
__KJIT_RT(cudaError_t, cudaDeviceGetAttribute, int*, enum cudaDeviceAttr, int)
__KJIT_RT(cudaError_t, cudaDeviceGetLimit, size_t*, enum cudaLimit)
__KJIT_RT(cudaError_t, cudaDeviceGetCacheConfig, enum cudaFuncCache*)
__KJIT_RT(cudaError_t, cudaGetDevice, int*)
__KJIT_RT(cudaError_t, cudaGetDeviceCount, int*)
__KJIT_RT(cudaError_t, cudaGetLastError, void)
__KJIT_RT(cudaError_t, cudaPeekAtLastError, void)
__KJIT_RT(const char*, cudaGetErrorString, cudaError_t)
__KJIT_RT(const char*, cudaGetErrorName, cudaError_t)
__KJIT_RT(cudaError_t, cudaRuntimeGetVersion, int*)
__KJIT_RT(cudaError_t, cudaStreamCreateWithFlags, cudaStream_t*, unsigned int)
__KJIT_RT(cudaError_t, cudaStreamDestroy, cudaStream_t)
__KJIT_RT(cudaError_t, cudaStreamWaitEvent, cudaStream_t, cudaEvent_t, unsigned int)
__KJIT_RT(cudaError_t, cudaEventCreateWithFlags, cudaEvent_t*, unsigned int)
__KJIT_RT(cudaError_t, cudaEventRecord, cudaEvent_t, cudaStream_t)
__KJIT_RT(cudaError_t, cudaEventDestroy, cudaEvent_t)
__KJIT_RT(cudaError_t, cudaFuncGetAttributes, struct cudaFuncAttributes*, const void*)
__KJIT_RT(cudaError_t, cudaGraphLaunch, cudaGraphExec_t, cudaStream_t)
__KJIT_RT(cudaError_t, cudaOccupancyMaxActiveBlocksPerMultiprocessor, int*, const void*, int,
          size_t)
#endif
__KJIT_RT(cudaError_t, cudaMemcpyToSymbol, const void*, const void*, size_t, size_t,
          enum cudaMemcpyKind)
__KJIT_RT(cudaError_t, cudaMemcpyFromSymbol, void*, const void*, size_t, size_t,
          enum cudaMemcpyKind)
__KJIT_RT(cudaError_t, cudaMemcpyToSymbolAsync, const void*, const void*, size_t, size_t,
          enum cudaMemcpyKind, cudaStream_t)
__KJIT_RT(cudaError_t, cudaMemcpyFromSymbolAsync, void*, const void*, size_t, size_t,
          enum cudaMemcpyKind, cudaStream_t)
#undef __KJIT_RT

#endif
