// kjit's <cuda_runtime.h> for kernels: what a kernel file that includes it expects to see. The
// device side (threadIdx, __syncthreads, atomics, math, vector types) needs no include on any
// backend; this adds the runtime's types and its host functions as declarations (see
// cuda_runtime_api.h), CUDA's headers that cuda_runtime.h includes, and the C library's headers
// that nvcc's includes with them (M_PI, INFINITY, UINT_MAX, uint, std::size_t, printf, memcpy,
// placement new ...).
// nvcc includes cuda_runtime.h into every .cu file; so does each backend's prelude.
#ifndef __KJIT_CUDA_RUNTIME_H
#define __KJIT_CUDA_RUNTIME_H
#include <cuda_runtime_api.h>
#include <device_launch_parameters.h>
#include <driver_types.h>
#include <vector_functions.h>
#include <vector_types.h>

#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <new>
// Not <utility> and <functional>, which CUDA's includes (std::numeric_limits, std::min, std::swap
// ... come with them in libstdc++): kjit's <limits> and <type_traits> would put their static
// members into every CUBIN as device variables.

// The C++ forms of the runtime's host functions.
#if !defined(__KJIT_CUDA__) || !defined(__CUDACC_RDC__)  // see cuda_runtime_api.h
template <class T>
cudaError_t cudaMalloc(T** pointer, size_t bytes) __KJIT_HOST_ONLY;
template <class T>
cudaError_t cudaFuncGetAttributes(struct cudaFuncAttributes* attributes,
                                  T* kernel) __KJIT_HOST_ONLY;
template <class T>
cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int* blocks, T kernel, int block_size,
                                                          size_t shared_bytes) __KJIT_HOST_ONLY;
#endif
template <class T>
cudaError_t cudaMallocHost(T** pointer, size_t bytes) __KJIT_HOST_ONLY;
cudaError_t cudaMallocHost(void** pointer, size_t bytes, unsigned int flags) __KJIT_HOST_ONLY;
cudaError_t cudaEventCreate(cudaEvent_t* event, unsigned int flags) __KJIT_HOST_ONLY;
template <class T>
cudaError_t cudaFuncSetAttribute(T* kernel, enum cudaFuncAttribute attribute,
                                 int value) __KJIT_HOST_ONLY;
template <class T>
cudaError_t cudaLaunchKernel(T* kernel, dim3 grid, dim3 block, void** arguments,
                             size_t shared_bytes = 0, cudaStream_t stream = 0) __KJIT_HOST_ONLY;
template <class T>
cudaError_t cudaOccupancyMaxPotentialBlockSize(int* min_grid_size, int* block_size, T kernel,
                                               size_t shared_bytes = 0,
                                               int block_size_limit = 0) __KJIT_HOST_ONLY;
template <class T>
cudaError_t cudaGetSymbolAddress(void** address, const T& symbol) __KJIT_HOST_ONLY;
template <class T>
cudaError_t cudaGetSymbolSize(size_t* bytes, const T& symbol) __KJIT_HOST_ONLY;
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
