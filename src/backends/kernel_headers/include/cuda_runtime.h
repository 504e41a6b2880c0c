// kjit's <cuda_runtime.h> for kernels: what a kernel file that includes it expects to see. The
// device side (threadIdx, __syncthreads, atomics, math, vector types) needs no include on any
// backend; this adds the runtime's types and its host functions as declarations (see
// cuda_runtime_api.h), and CUDA's headers that cuda_runtime.h includes.
#ifndef __KJIT_CUDA_RUNTIME_H
#define __KJIT_CUDA_RUNTIME_H
#include <cuda_runtime_api.h>
#include <device_launch_parameters.h>
#include <driver_types.h>
#include <vector_functions.h>
#include <vector_types.h>

// The C++ forms of the runtime's host functions.
template <class T>
cudaError_t cudaMalloc(T** pointer, size_t bytes) __KJIT_HOST_ONLY;
template <class T>
cudaError_t cudaMallocHost(T** pointer, size_t bytes) __KJIT_HOST_ONLY;
template <class T>
cudaError_t cudaMallocManaged(T** pointer, size_t bytes,
                              unsigned int flags = cudaMemAttachGlobal) __KJIT_HOST_ONLY;
template <class T>
cudaError_t cudaMemcpyToSymbol(const T& symbol, const void* source, size_t bytes, size_t offset = 0,
                               enum cudaMemcpyKind kind = cudaMemcpyHostToDevice) __KJIT_HOST_ONLY;
template <class T>
cudaError_t cudaMemcpyFromSymbol(
    void* destination, const T& symbol, size_t bytes, size_t offset = 0,
    enum cudaMemcpyKind kind = cudaMemcpyDeviceToHost) __KJIT_HOST_ONLY;

#endif
