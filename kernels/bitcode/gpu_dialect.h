// The part of kjit's CUDA dialect that kernels compiled to GPU bitcode with plain clang need:
// qualifiers, threadIdx & co., __syncthreads() and atomicAdd, from compiler builtins alone. No
// CUDA or ROCm headers or device libraries are involved, so one recipe makes bitcode for any
// NVIDIA or AMD processor that clang knows (make-bitcode.sh). Kernels that call CUDA's math
// library need the vendor's headers and device libraries instead (docs/bitcode.md).
#pragma once

#define __global__ __attribute__((global))
#define __device__ __attribute__((device))
#define __host__ __attribute__((host))
#define __shared__ __attribute__((shared))

#if defined(__NVPTX__)

#include <__clang_cuda_builtin_vars.h>  // clang's own threadIdx, blockIdx, blockDim, gridDim

#elif defined(__AMDGCN__)

#define KJIT_DIM3_(NAME, X, Y, Z)                                 \
  struct NAME##_t {                                               \
    __declspec(property(get = get_x)) unsigned int x;             \
    __declspec(property(get = get_y)) unsigned int y;             \
    __declspec(property(get = get_z)) unsigned int z;             \
    static __device__ unsigned int get_x() { return X; }          \
    static __device__ unsigned int get_y() { return Y; }          \
    static __device__ unsigned int get_z() { return Z; }          \
  };                                                              \
  extern const __device__ __attribute__((weak)) NAME##_t NAME;

KJIT_DIM3_(threadIdx, __builtin_amdgcn_workitem_id_x(), __builtin_amdgcn_workitem_id_y(),
           __builtin_amdgcn_workitem_id_z())
KJIT_DIM3_(blockIdx, __builtin_amdgcn_workgroup_id_x(), __builtin_amdgcn_workgroup_id_y(),
           __builtin_amdgcn_workgroup_id_z())
KJIT_DIM3_(blockDim, __builtin_amdgcn_workgroup_size_x(), __builtin_amdgcn_workgroup_size_y(),
           __builtin_amdgcn_workgroup_size_z())
KJIT_DIM3_(gridDim, __builtin_amdgcn_grid_size_x() / __builtin_amdgcn_workgroup_size_x(),
           __builtin_amdgcn_grid_size_y() / __builtin_amdgcn_workgroup_size_y(),
           __builtin_amdgcn_grid_size_z() / __builtin_amdgcn_workgroup_size_z())
#undef KJIT_DIM3_

static __device__ inline void __syncthreads() {
  __builtin_amdgcn_fence(__ATOMIC_RELEASE, "workgroup");
  __builtin_amdgcn_s_barrier();
  __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "workgroup");
}

#else
#error "gpu_dialect.h is for device compiles (clang -x cuda or -x hip --cuda-device-only)"
#endif

template <typename T>
static __device__ inline T atomicAdd(T* address, T value) {
  return __atomic_fetch_add(address, value, __ATOMIC_RELAXED);
}
