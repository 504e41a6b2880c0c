// kjit's <cuda_runtime_api.h>: the CUDA runtime's host functions, declared so that host code in a
// kernel file or a shared header compiles; a kernel that calls one is a compile error (kjit
// compiles only device code: a program's host side uses kjit's API instead).
#ifndef __KJIT_CUDA_RUNTIME_API_H
#define __KJIT_CUDA_RUNTIME_API_H
#include <driver_types.h>
#include "__kjit_headers.h"

#if !defined(__KJIT_CUDA__)
#define CUDART_VERSION 12000
#endif

#define __KJIT_RT(ret, name, ...) extern "C" ret name(__VA_ARGS__) __KJIT_HOST_ONLY;
// Host functions that NVRTC does not declare for device code.
__KJIT_RT(cudaError_t, cudaMemcpy, void*, const void*, size_t, enum cudaMemcpyKind)
__KJIT_RT(cudaError_t, cudaMemcpy2D, void*, size_t, const void*, size_t, size_t, size_t,
          enum cudaMemcpyKind)
__KJIT_RT(cudaError_t, cudaMemset, void*, int, size_t)
__KJIT_RT(cudaError_t, cudaMallocHost, void**, size_t)
__KJIT_RT(cudaError_t, cudaHostAlloc, void**, size_t, unsigned int)
__KJIT_RT(cudaError_t, cudaFreeHost, void*)
__KJIT_RT(cudaError_t, cudaMallocPitch, void**, size_t*, size_t, size_t)
__KJIT_RT(cudaError_t, cudaMallocManaged, void**, size_t, unsigned int)
__KJIT_RT(cudaError_t, cudaMemGetInfo, size_t*, size_t*)
__KJIT_RT(cudaError_t, cudaDeviceReset, void)
__KJIT_RT(cudaError_t, cudaThreadSynchronize, void)
__KJIT_RT(cudaError_t, cudaSetDevice, int)
__KJIT_RT(cudaError_t, cudaSetDeviceFlags, unsigned int)
__KJIT_RT(cudaError_t, cudaGetDeviceProperties, struct cudaDeviceProp*, int)
__KJIT_RT(cudaError_t, cudaDeviceSetCacheConfig, enum cudaFuncCache)
__KJIT_RT(cudaError_t, cudaStreamCreate, cudaStream_t*)
__KJIT_RT(cudaError_t, cudaStreamSynchronize, cudaStream_t)
__KJIT_RT(cudaError_t, cudaEventCreate, cudaEvent_t*)
__KJIT_RT(cudaError_t, cudaEventSynchronize, cudaEvent_t)
__KJIT_RT(cudaError_t, cudaEventElapsedTime, float*, cudaEvent_t, cudaEvent_t)
__KJIT_RT(cudaError_t, cudaFuncSetCacheConfig, const void*, enum cudaFuncCache)
__KJIT_RT(cudaError_t, cudaLaunchKernel, const void*, dim3, dim3, void**, size_t, cudaStream_t)
#if !defined(__KJIT_CUDA__)
// Those NVRTC declares for device code (the device runtime), host functions elsewhere.
__KJIT_RT(cudaError_t, cudaMalloc, void**, size_t)
__KJIT_RT(cudaError_t, cudaFree, void*)
__KJIT_RT(cudaError_t, cudaMemcpyAsync, void*, const void*, size_t, enum cudaMemcpyKind,
          cudaStream_t)
__KJIT_RT(cudaError_t, cudaMemsetAsync, void*, int, size_t, cudaStream_t)
__KJIT_RT(cudaError_t, cudaDeviceSynchronize, void)
__KJIT_RT(cudaError_t, cudaGetDevice, int*)
__KJIT_RT(cudaError_t, cudaGetDeviceCount, int*)
__KJIT_RT(cudaError_t, cudaGetLastError, void)
__KJIT_RT(cudaError_t, cudaPeekAtLastError, void)
__KJIT_RT(const char*, cudaGetErrorString, cudaError_t)
__KJIT_RT(const char*, cudaGetErrorName, cudaError_t)
__KJIT_RT(cudaError_t, cudaStreamCreateWithFlags, cudaStream_t*, unsigned int)
__KJIT_RT(cudaError_t, cudaStreamDestroy, cudaStream_t)
__KJIT_RT(cudaError_t, cudaEventCreateWithFlags, cudaEvent_t*, unsigned int)
__KJIT_RT(cudaError_t, cudaEventRecord, cudaEvent_t, cudaStream_t)
__KJIT_RT(cudaError_t, cudaEventDestroy, cudaEvent_t)
__KJIT_RT(cudaError_t, cudaFuncGetAttributes, struct cudaFuncAttributes*, const void*)
#endif
__KJIT_RT(cudaError_t, cudaMemcpyToSymbol, const void*, const void*, size_t, size_t,
          enum cudaMemcpyKind)
__KJIT_RT(cudaError_t, cudaMemcpyFromSymbol, void*, const void*, size_t, size_t,
          enum cudaMemcpyKind)
#undef __KJIT_RT

#endif
