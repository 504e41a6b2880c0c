// kjit CPU prelude: maps CUDA's kernel dialect onto kjit's CPU execution model. Included before
// every kernel source the CPU backend compiles (after cpu_abi.h), with its other parts after it:
// cpu_prelude_atomics.h, _entries.h, _intrinsics.h, _math.h, _math_special.h, _memory.h,
// _rounding.h and _warp.h. No system headers: kernels see
// exactly what CUDA device code sees, and nothing of the host's C library but a few functions;
// the headers kernels include are kjit's own (src/backends/kernel_headers).
//
// Execution model: blocks run in parallel on worker threads; the threads of a block run as a loop
// (kernels without barriers) or as fibers (kernels that call __syncthreads()). threadIdx and the
// other builtins read a per-thread context that the backend's IR lowering passes to every function
// that needs it; __shared__ variables live in a per-block area.

#define __KJIT__ 1
#define __KJIT_CPU__ 1

// What nvcc defines when it compiles device code, so that `#ifdef __CUDA_ARCH__` blocks take their
// device path. __CUDA_ARCH__ is 700: the CPU's threads have Volta's independent scheduling (no
// lockstep: warp-level code needs the _sync intrinsics, cpu_prelude_warp.h), and kernels written
// for sm_70 use nothing the CPU backend lacks. __CUDACC_RTC__ as under NVRTC: kjit compiles at run
// time, and files written for NVRTC take the same path on every backend.
#define __CUDACC__ 1
#define __NVCC__ 1
#define __CUDACC_RTC__ 1
#define __CUDA_ARCH__ 700
#define __CUDACC_VER_MAJOR__ 12
#define __CUDACC_VER_MINOR__ 0
#define __CUDACC_VER_BUILD__ 0

// Host functions kernels cannot call: those of kjit's C library and CUDA runtime headers, and the
// host functions of a kernel file (kept as declarations: see backends/host_code.hpp). Host code
// may name them; when device code still calls one after optimisation, the compile fails at the
// call this mark's warning located.
#define __KJIT_HOST_ONLY __attribute__((deprecated("__kjit_host_only__")))

// ---- fixed-width types (CUDA device code has them without includes) ------------------------
typedef __SIZE_TYPE__ size_t;
typedef __PTRDIFF_TYPE__ ptrdiff_t;
typedef __INTPTR_TYPE__ intptr_t;
typedef __UINTPTR_TYPE__ uintptr_t;
typedef __INT8_TYPE__ int8_t;
typedef __INT16_TYPE__ int16_t;
typedef __INT32_TYPE__ int32_t;
typedef __INT64_TYPE__ int64_t;
typedef __UINT8_TYPE__ uint8_t;
typedef __UINT16_TYPE__ uint16_t;
typedef __UINT32_TYPE__ uint32_t;
typedef __UINT64_TYPE__ uint64_t;

// ---- function and variable qualifiers --------------------------------------------------------
#define __global__ __KJIT_KERNEL
// The spellings of a kernel and of its launch bounds that a specialised variant's kernel uses
// (core/specialization.cpp), where __global__ and __launch_bounds__ are redefined, and its call of
// the kernel it fixes.
#define __KJIT_KERNEL __attribute__((annotate("kjit.kernel")))
#define __KJIT_LAUNCH_BOUNDS(threads)
// A variant of a kernel that declares its bounds keeps them (enforced at launch as the kernel's).
#define __KJIT_DECLARED_BOUNDS(...) __KJIT_MAX_THREADS(__VA_ARGS__)
#define __KJIT_BOUNDS_MATTER(threads) 0
// Marks that call (its kernel lowering inlines it first: cpu_kernel_lowering.cpp).
#define __KJIT_INLINE_CALL [[clang::always_inline]]
#define __device__
#define __host__
#define __shared__ __attribute__((annotate("kjit.shared")))
#define __constant__
#define __forceinline__ inline __attribute__((always_inline))
#define __noinline__ __attribute__((noinline))
#define __inline__ inline
#define __restrict__ __restrict
#define __align__(n) __attribute__((aligned(n)))
// Launch bounds are kept (and enforced at launch, as a GPU does); their other arguments
// (minimum blocks per multiprocessor, maximum blocks per cluster) mean nothing on a CPU.
#define __launch_bounds__(...) __KJIT_MAX_THREADS(__VA_ARGS__)
#define __KJIT_MAX_THREADS(threads, ...) __attribute__((annotate("kjit.max_threads", (threads))))
#define __grid_constant__

#define __KJIT_UNSUPPORTED(what) \
  __attribute__((unavailable(what " is not supported by kjit's CPU backend")))

#define __managed__ __KJIT_UNSUPPORTED("__managed__ memory")

// A kernel launch in device code, as host_code.cpp rewrites it: "k<<<g, b>>>(args)" becomes
// "k,__KJIT_DEVICE_LAUNCH(g, b),(args)", an error at the launch's line.
template <class... A>
__KJIT_UNSUPPORTED("dynamic parallelism (a kernel launch in device code)")
int __kjit_device_launch(A...);
#define __KJIT_DEVICE_LAUNCH __kjit_device_launch

// Textures and surfaces: declared (as nvcc declares them for every .cu file) so that a kernel
// that uses one gets an error naming the feature at its line, not an undeclared name.
enum cudaTextureReadMode { cudaReadModeElementType, cudaReadModeNormalizedFloat };
template <class T, int dim = 1, cudaTextureReadMode mode = cudaReadModeElementType>
struct __KJIT_UNSUPPORTED("a texture reference") texture {};
template <class T, int dim = 1>
struct __KJIT_UNSUPPORTED("a surface reference") surface {};
typedef __KJIT_UNSUPPORTED("a texture object") unsigned long long cudaTextureObject_t;
typedef __KJIT_UNSUPPORTED("a surface object") unsigned long long cudaSurfaceObject_t;
#define __KJIT_TEXTURE_FUNCTION(name)                           \
  template <class T = float, class... A>                        \
  __KJIT_UNSUPPORTED("the texture and surface function " #name) \
  T name(A...);
__KJIT_TEXTURE_FUNCTION(tex1Dfetch)
__KJIT_TEXTURE_FUNCTION(tex1D)
__KJIT_TEXTURE_FUNCTION(tex2D)
__KJIT_TEXTURE_FUNCTION(tex3D)
__KJIT_TEXTURE_FUNCTION(tex1DLayered)
__KJIT_TEXTURE_FUNCTION(tex2DLayered)
__KJIT_TEXTURE_FUNCTION(texCubemap)
__KJIT_TEXTURE_FUNCTION(tex1DLod)
__KJIT_TEXTURE_FUNCTION(tex2DLod)
__KJIT_TEXTURE_FUNCTION(tex3DLod)
__KJIT_TEXTURE_FUNCTION(tex2Dgather)
__KJIT_TEXTURE_FUNCTION(surf1Dread)
__KJIT_TEXTURE_FUNCTION(surf2Dread)
__KJIT_TEXTURE_FUNCTION(surf3Dread)
__KJIT_TEXTURE_FUNCTION(surf1Dwrite)
__KJIT_TEXTURE_FUNCTION(surf2Dwrite)
__KJIT_TEXTURE_FUNCTION(surf3Dwrite)
#undef __KJIT_TEXTURE_FUNCTION

// ---- vector types ---------------------------------------------------------------------------
#define __KJIT_VEC(T, N)                                                          \
  struct T##1 {                                                                   \
    N x;                                                                          \
  };                                                                              \
  struct __attribute__((aligned(2 * sizeof(N)))) T##2 {                           \
    N x, y;                                                                       \
  };                                                                              \
  struct T##3 {                                                                   \
    N x, y, z;                                                                    \
  };                                                                              \
  struct __attribute__((aligned(4 * sizeof(N) > 16 ? 16 : 4 * sizeof(N)))) T##4 { \
    N x, y, z, w;                                                                 \
  };                                                                              \
  static inline T##1 make_##T##1(N x) {                                           \
    return {x};                                                                   \
  }                                                                               \
  static inline T##2 make_##T##2(N x, N y) {                                      \
    return {x, y};                                                                \
  }                                                                               \
  static inline T##3 make_##T##3(N x, N y, N z) {                                 \
    return {x, y, z};                                                             \
  }                                                                               \
  static inline T##4 make_##T##4(N x, N y, N z, N w) {                            \
    return {x, y, z, w};                                                          \
  }
__KJIT_VEC(char, signed char)
__KJIT_VEC(uchar, unsigned char)
__KJIT_VEC(short, short)
__KJIT_VEC(ushort, unsigned short)
__KJIT_VEC(int, int)
__KJIT_VEC(uint, unsigned int)
__KJIT_VEC(long, long)
__KJIT_VEC(ulong, unsigned long)
__KJIT_VEC(longlong, long long)
__KJIT_VEC(ulonglong, unsigned long long)
__KJIT_VEC(float, float)
__KJIT_VEC(double, double)
#undef __KJIT_VEC

struct dim3 {
  unsigned int x, y, z;
  constexpr dim3(unsigned int vx = 1, unsigned int vy = 1, unsigned int vz = 1)
      : x(vx), y(vy), z(vz) {}
  constexpr dim3(uint3 v) : x(v.x), y(v.y), z(v.z) {}
  constexpr operator uint3() const { return {x, y, z}; }
};

// ---- threadIdx, blockIdx, blockDim, gridDim ---------------------------------------------------
// Replaced by the IR lowering with the thread context of the running thread.
extern "C" kjit_cpu_thread* __kjit_ctx(void);
// Marks where an entry binds its thread context (see __kjit::run_block).
extern "C" void __kjit_bind_ctx(kjit_cpu_thread*);
// Provided by the runtime.
extern "C" void __kjit_barrier_wait(const kjit_cpu_thread*);
extern "C" [[noreturn]] void __kjit_assert_failed(const char* expression, const char* file,
                                                  unsigned line, const char* function, unsigned tx,
                                                  unsigned ty, unsigned tz, unsigned bx,
                                                  unsigned by, unsigned bz);

#define __KJIT_BUILTIN(NAME, TYPE, EXPR)                                    \
  struct __kjit_##NAME##_t {                                                \
    static unsigned int __get_x() { return __kjit_ctx()->EXPR[0]; }         \
    static unsigned int __get_y() { return __kjit_ctx()->EXPR[1]; }         \
    static unsigned int __get_z() { return __kjit_ctx()->EXPR[2]; }         \
    __declspec(property(get = __get_x)) unsigned int x;                     \
    __declspec(property(get = __get_y)) unsigned int y;                     \
    __declspec(property(get = __get_z)) unsigned int z;                     \
    operator TYPE() const { return TYPE{__get_x(), __get_y(), __get_z()}; } \
  };                                                                        \
  static constexpr __kjit_##NAME##_t NAME{};
__KJIT_BUILTIN(threadIdx, uint3, thread_idx)
__KJIT_BUILTIN(blockIdx, uint3, block->block_idx)
__KJIT_BUILTIN(blockDim, dim3, block->block_dim)
__KJIT_BUILTIN(gridDim, dim3, block->grid_dim)
#undef __KJIT_BUILTIN

// blockDim in a specialised variant with a fixed block (core/specialization.cpp): the block
// record's value as ever, marked with the one the variant was compiled for. The lowering folds the
// fixed value in kernels that synchronise, and keeps the read in the others, whose threads may
// then run as ranges (those recognise the read: cpu_thread_ranges.hpp).
extern "C" unsigned int __kjit_fixed_dim(unsigned int read, unsigned int fixed);
template <unsigned int X, unsigned int Y, unsigned int Z>
struct __kjit_fixed_block_t {
  static unsigned int __get_x() { return __kjit_fixed_dim(__kjit_ctx()->block->block_dim[0], X); }
  static unsigned int __get_y() { return __kjit_fixed_dim(__kjit_ctx()->block->block_dim[1], Y); }
  static unsigned int __get_z() { return __kjit_fixed_dim(__kjit_ctx()->block->block_dim[2], Z); }
  __declspec(property(get = __get_x)) unsigned int x;
  __declspec(property(get = __get_y)) unsigned int y;
  __declspec(property(get = __get_z)) unsigned int z;
  operator dim3() const { return dim3{__get_x(), __get_y(), __get_z()}; }
};
#define __KJIT_FIXED_BLOCK(x, y, z) (__kjit_fixed_block_t<x, y, z>{})

// assert() (kjit's <assert.h>): stops the launch, naming this thread and block.
static inline void __kjit_assert_fail(const char* expression, const char* file, unsigned line,
                                      const char* function) {
  __kjit_assert_failed(expression, file, line, function, threadIdx.x, threadIdx.y, threadIdx.z,
                       blockIdx.x, blockIdx.y, blockIdx.z);
}

// ---- synchronisation ------------------------------------------------------------------------
static inline void __syncthreads() {
  __kjit_barrier_wait(__kjit_ctx());
}
static inline void __threadfence() {
  __atomic_thread_fence(__ATOMIC_SEQ_CST);
}
static inline void __threadfence_block() {
  __atomic_thread_fence(__ATOMIC_SEQ_CST);
}
static inline void __threadfence_system() {
  __atomic_thread_fence(__ATOMIC_SEQ_CST);
}
int __syncthreads_count(int) __KJIT_UNSUPPORTED("__syncthreads_count");
int __syncthreads_and(int) __KJIT_UNSUPPORTED("__syncthreads_and");
int __syncthreads_or(int) __KJIT_UNSUPPORTED("__syncthreads_or");
void __barrier_sync(unsigned) __KJIT_UNSUPPORTED("__barrier_sync (a named barrier)");
void __barrier_sync_count(unsigned, unsigned)
    __KJIT_UNSUPPORTED("__barrier_sync_count (a named barrier)");

// ---- the other parts ------------------------------------------------------------------------
// In process they follow this text (one embedded text); a compiler that reads this file from disk
// (bitcode made ahead of time: docs/bitcode.md) includes them here.
#ifndef __KJIT_CPU_PRELUDE_ONE_TEXT
#include "cpu_prelude_atomics.h"
#include "cpu_prelude_entries.h"
#include "cpu_prelude_intrinsics.h"
#include "cpu_prelude_math.h"
#include "cpu_prelude_math_special.h"
#include "cpu_prelude_memory.h"
#include "cpu_prelude_rounding.h"
#include "cpu_prelude_warp.h"
#endif

// assert() without an include, as NVRTC has it (kjit's <assert.h>, where the headers are).
#if __has_include(<assert.h>)
#include <assert.h>
#endif

// What nvcc's implicit <cuda_runtime.h> makes visible in every .cu file: the runtime's types and
// host functions (declarations), and the C library's names that come with it (M_PI, INFINITY,
// uint, std::size_t ...). After every part: here from disk, at the end of the last part
// (cpu_prelude_entries.h) in the one embedded text.
#if !defined(__KJIT_CPU_PRELUDE_ONE_TEXT) && __has_include(<cuda_runtime.h>)
#include <cuda_runtime.h>
#endif
