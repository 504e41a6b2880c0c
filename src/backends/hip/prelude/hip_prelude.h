// kjit's prelude for hipRTC, placed before every program. hipRTC's own headers give the CUDA
// names (threadIdx, atomicAdd, __syncthreads, the math functions); this adds what kernels may
// use on the other backends and ROCm 5's hipRTC lacks.
#define __KJIT__ 1
#define __KJIT_HIP__ 1

// What nvcc defines when it compiles device code, so that a CUDA kernel file's `#ifdef
// __CUDA_ARCH__` blocks take their device path here too (700, as on the CPU backend: see
// cpu_prelude.h), and files written for NVRTC (__CUDACC_RTC__) take the same path everywhere.
#define __CUDACC__ 1
#define __NVCC__ 1
#define __CUDACC_RTC__ 1
#define __CUDA_ARCH__ 700

// The spellings of a kernel and of its launch bounds that a specialised variant's kernel uses
// (jit/specialization.cpp), where __global__ and __launch_bounds__ are redefined, its call of the
// kernel it fixes (which the compiler inlines of itself), and blockDim for a fixed block.
#define __KJIT_KERNEL __attribute__((global))
#define __KJIT_INLINE_CALL
#define __KJIT_FIXED_BLOCK(x, y, z) (dim3((x), (y), (z)))
#define __KJIT_LAUNCH_BOUNDS(threads) __attribute__((amdgpu_flat_work_group_size(1, threads)))
// Always: without them the compiler plans for blocks of 1024 and gives each thread fewer VGPRs.
#define __KJIT_BOUNDS_MATTER(threads) 1

// Host functions of kjit's headers and of the program need no mark: hipRTC is Clang, which
// refuses a device function's call to a host function at the call.
#define __KJIT_HOST_ONLY

// A kernel launch in device code, as host_code.cpp rewrites it ("k<<<g, b>>>(args)" becomes
// "k,__KJIT_DEVICE_LAUNCH(g, b),(args)"): an error at the launch's line.
template <class... A>
__attribute__((unavailable(
    "dynamic parallelism (a kernel launch in device code) is not supported by kjit's HIP "
    "backend"))) __device__ int
__kjit_device_launch(A...);
#define __KJIT_DEVICE_LAUNCH __kjit_device_launch

// __managed__ variables, which ROCm 5's hipRTC does not know ("unknown type name"): an error at
// their use that names them. (Managed buffers work: Device::alloc_managed.)
#ifndef __managed__
#define __managed__ \
  __attribute__((unavailable("__managed__ memory is not supported by kjit's HIP backend")))
#endif

// The fixed-width types hipRTC 5.2 leaves out, spelled as Clang's own <stdint.h> spells them, so
// that a hipRTC that has them declares the same types. (Its int64_t is long long.)
typedef __INT8_TYPE__ int8_t;
typedef __INT16_TYPE__ int16_t;
typedef __UINT8_TYPE__ uint8_t;
typedef __UINT16_TYPE__ uint16_t;
typedef __INTPTR_TYPE__ intptr_t;
typedef __UINTPTR_TYPE__ uintptr_t;
typedef __PTRDIFF_TYPE__ ptrdiff_t;

// atomicMin and atomicMax on long long (CUDA has them; ROCm 5's HIP does not). Templates, so
// that a HIP that declares them wins overload resolution over these.
template <class T>
struct __kjit_long_long {};
template <>
struct __kjit_long_long<long long> {
  typedef long long type;
};

/// Stores `value` where it wins (the smaller for a minimum, the larger for a maximum); returns
/// the old value.
__device__ inline long long __kjit_atomic_ll_extreme(long long* address, long long value,
                                                     bool largest) {
  unsigned long long* bits = reinterpret_cast<unsigned long long*>(address);
  long long old = *address;
  while (largest ? value > old : value < old) {
    const long long seen = static_cast<long long>(atomicCAS(
        bits, static_cast<unsigned long long>(old), static_cast<unsigned long long>(value)));
    if (seen == old) {
      break;
    }
    old = seen;
  }
  return old;
}

template <class T>
__device__ inline typename __kjit_long_long<T>::type atomicMin(T* address, T value) {
  return __kjit_atomic_ll_extreme(address, value, false);
}

template <class T>
__device__ inline typename __kjit_long_long<T>::type atomicMax(T* address, T value) {
  return __kjit_atomic_ll_extreme(address, value, true);
}

// clock()'s type, which device code uses without an include (ROCm 5's hipRTC has no <time.h>).
typedef long clock_t;

// CUDA's integer minimum and maximum by name (ROCm 5's HIP has only min and max). Templates, so
// that a HIP that declares them wins overload resolution over these.
#define __KJIT_MIN_MAX(T, MIN, MAX)   \
  template <class U = void>           \
  __device__ inline T MIN(T a, T b) { \
    return a < b ? a : b;             \
  }                                   \
  template <class U = void>           \
  __device__ inline T MAX(T a, T b) { \
    return a > b ? a : b;             \
  }
__KJIT_MIN_MAX(unsigned int, umin, umax)
__KJIT_MIN_MAX(long long, llmin, llmax)
__KJIT_MIN_MAX(unsigned long long, ullmin, ullmax)
#undef __KJIT_MIN_MAX

// assert() without an include, as NVRTC has it (kjit's <assert.h>, among the named headers).
#include <assert.h>
