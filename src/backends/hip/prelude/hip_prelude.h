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
// (core/specialization.cpp), where __global__ and __launch_bounds__ are redefined, its call of the
// kernel it fixes (which the compiler inlines of itself), and blockDim for a fixed block.
#define __KJIT_KERNEL __attribute__((global))
#define __KJIT_INLINE_CALL
#define __KJIT_FIXED_BLOCK(x, y, z) (dim3((x), (y), (z)))
#define __KJIT_LAUNCH_BOUNDS(threads) __attribute__((amdgpu_flat_work_group_size(1, threads)))
// A variant of a kernel that declares its bounds keeps their threads (their minimum of blocks is
// left to the compiler).
#define __KJIT_DECLARED_BOUNDS(threads, ...) __KJIT_LAUNCH_BOUNDS(threads)
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

// CUDA's loads and stores with a cache hint, which ROCm 5's HIP lacks but for __ldg of most
// types (and __ldcs of __half): each is a plain access of its type, any type (CUDA overloads them
// for char ... double, the vector types, __half and __nv_bfloat16). __ldcv, __ldlu and __stwt,
// CUDA's "fetch again", "last use" and "write through", are volatile accesses, so that a loop that
// waits for another block's write sees it. Templates, so that a HIP that declares them wins
// overload resolution over these.
template <class T>
struct __kjit_same_type {
  typedef T type;
};
#define __KJIT_LOAD(NAME)                      \
  template <class T>                           \
  __device__ inline T NAME(const T* address) { \
    return *address;                           \
  }
__KJIT_LOAD(__ldg)
__KJIT_LOAD(__ldca)
__KJIT_LOAD(__ldcg)
__KJIT_LOAD(__ldcs)
#undef __KJIT_LOAD
template <class T>
__device__ inline T __kjit_load_volatile(const T* address) {
  if constexpr (__is_scalar(T)) {
    return *reinterpret_cast<const volatile T*>(address);
  } else {
    unsigned char bytes[sizeof(T)];
    for (unsigned i = 0; i < sizeof(T); ++i) {
      bytes[i] = reinterpret_cast<const volatile unsigned char*>(address)[i];
    }
    T value;
    __builtin_memcpy(&value, bytes, sizeof(T));
    return value;
  }
}
template <class T>
__device__ inline T __ldlu(const T* address) {
  return __kjit_load_volatile(address);
}
template <class T>
__device__ inline T __ldcv(const T* address) {
  return __kjit_load_volatile(address);
}
#define __KJIT_STORE(NAME)                                                            \
  template <class T>                                                                  \
  __device__ inline void NAME(T* address, typename __kjit_same_type<T>::type value) { \
    *address = value;                                                                 \
  }
__KJIT_STORE(__stcg)
__KJIT_STORE(__stcs)
__KJIT_STORE(__stwb)
#undef __KJIT_STORE
template <class T>
__device__ inline void __stwt(T* address, typename __kjit_same_type<T>::type value) {
  if constexpr (__is_scalar(T)) {
    *reinterpret_cast<volatile T*>(address) = value;
  } else {
    unsigned char bytes[sizeof(T)];
    __builtin_memcpy(bytes, &value, sizeof(T));
    for (unsigned i = 0; i < sizeof(T); ++i) {
      reinterpret_cast<volatile unsigned char*>(address)[i] = bytes[i];
    }
  }
}

// The block-scope atomics (ROCm 5's HIP has the device- and system-scope ones): a device-scope
// atomic is one for the block too.
#define __KJIT_ATOMIC_BLOCK(NAME)                                 \
  template <class T, class... A>                                  \
  __device__ inline auto NAME##_block(T* address, A... arguments) \
      ->decltype(NAME(address, arguments...)) {                   \
    return NAME(address, arguments...);                           \
  }
__KJIT_ATOMIC_BLOCK(atomicAdd)
__KJIT_ATOMIC_BLOCK(atomicSub)
__KJIT_ATOMIC_BLOCK(atomicExch)
__KJIT_ATOMIC_BLOCK(atomicMin)
__KJIT_ATOMIC_BLOCK(atomicMax)
__KJIT_ATOMIC_BLOCK(atomicAnd)
__KJIT_ATOMIC_BLOCK(atomicOr)
__KJIT_ATOMIC_BLOCK(atomicXor)
__KJIT_ATOMIC_BLOCK(atomicCAS)
__KJIT_ATOMIC_BLOCK(atomicInc)
__KJIT_ATOMIC_BLOCK(atomicDec)
#undef __KJIT_ATOMIC_BLOCK
// atomicInc and atomicDec at system scope, through HIP's atomicCAS_system.
template <class U = void>
__device__ inline unsigned int atomicInc_system(unsigned int* address, unsigned int limit) {
  unsigned int old = *address;
  for (;;) {
    const unsigned int seen = atomicCAS_system(address, old, old >= limit ? 0u : old + 1u);
    if (seen == old) {
      return old;
    }
    old = seen;
  }
}
template <class U = void>
__device__ inline unsigned int atomicDec_system(unsigned int* address, unsigned int limit) {
  unsigned int old = *address;
  for (;;) {
    const unsigned int seen =
        atomicCAS_system(address, old, (old == 0u || old > limit) ? limit : old - 1u);
    if (seen == old) {
      return old;
    }
    old = seen;
  }
}

// Intrinsics ROCm 5's HIP lacks that need nothing of a warp. Templates, as above.
template <class U = void>
__device__ inline void __nanosleep(unsigned int) {}  // CUDA allows any sleep from 0 to twice it
template <class U = void>
__device__ inline void __prof_trigger(int) {}
template <class U = void>
__device__ inline void __trap() {
  __builtin_trap();
}
template <class U = void>
__device__ inline float __tanhf(float x) {
  return tanhf(x);
}
template <class U = void>
__device__ inline float __fmaf_ieee_rn(float x, float y, float z) {
  return __builtin_fmaf(x, y, z);
}
// The position of the n-th set bit of mask from bit base, upwards for n > 0 and downwards for
// n < 0 (n == 0: base itself, if set); 0xffffffff when there is none (PTX's fns).
template <class U = void>
__device__ inline unsigned int __fns(unsigned int mask, unsigned int base, int offset) {
  if (offset == 0) {
    return base < 32 && (mask >> base & 1u) != 0 ? base : 0xffffffffu;
  }
  int count = offset > 0 ? offset - 1 : -offset - 1;
  const int step = offset > 0 ? 1 : -1;
  for (int pos = (int)base; pos >= 0 && pos < 32; pos += step) {
    if ((mask >> pos & 1u) != 0) {
      if (count == 0) {
        return (unsigned int)pos;
      }
      --count;
    }
  }
  return 0xffffffffu;
}

// assert() without an include, as NVRTC has it (kjit's <assert.h>, among the named headers), and
// what nvcc's implicit <cuda_runtime.h> makes visible in every .cu file: the runtime's types and
// host functions (declarations), and the C library's names that come with it (M_PI, INFINITY,
// std::size_t ...).
#include <assert.h>
#include <cuda_runtime.h>
