// kjit CPU prelude: maps CUDA's kernel dialect onto kjit's CPU execution model. Included before
// every kernel source the CPU backend compiles (after cpu_abi.h). No system headers: kernels see
// exactly what CUDA device code sees, and nothing of the host's C library but a few functions.
//
// Execution model: blocks run in parallel on worker threads; the threads of a block run as a loop
// (kernels without barriers) or as fibers (kernels that call __syncthreads()). threadIdx and the
// other builtins read a per-thread context that the backend's IR lowering passes to every function
// that needs it; __shared__ variables live in a per-block area.

#define __KJIT__ 1
#define __KJIT_CPU__ 1

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
#define __global__ __attribute__((annotate("kjit.kernel")))
#define __device__
#define __host__
#define __shared__ __attribute__((annotate("kjit.shared")))
#define __constant__
#define __forceinline__ inline __attribute__((always_inline))
#define __noinline__ __attribute__((noinline))
#define __inline__ inline
#define __restrict__ __restrict
#define __align__(n) __attribute__((aligned(n)))
#define __launch_bounds__(...)
#define __grid_constant__

#define __KJIT_UNSUPPORTED(what) \
  __attribute__((unavailable(what " is not supported by kjit's CPU backend")))
#define __KJIT_NO_WARP                                                                  \
  __attribute__((                                                                       \
      unavailable("warp-level intrinsics are not supported by kjit's CPU backend: the " \
                  "threads of a block do not run in lockstep there")))

#define __managed__ __KJIT_UNSUPPORTED("__managed__ memory")

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

// ---- warp-level intrinsics: not available (a clear error, never a wrong answer) ---------------
static const int warpSize __KJIT_NO_WARP = 32;
void __syncwarp(unsigned = 0xffffffffu) __KJIT_NO_WARP;
unsigned __activemask() __KJIT_NO_WARP;
unsigned __ballot_sync(unsigned, int) __KJIT_NO_WARP;
int __any_sync(unsigned, int) __KJIT_NO_WARP;
int __all_sync(unsigned, int) __KJIT_NO_WARP;
unsigned __ballot(int) __KJIT_NO_WARP;
int __any(int) __KJIT_NO_WARP;
int __all(int) __KJIT_NO_WARP;
template <class T>
T __shfl_sync(unsigned, T, int, int = 32) __KJIT_NO_WARP;
template <class T>
T __shfl_up_sync(unsigned, T, unsigned, int = 32) __KJIT_NO_WARP;
template <class T>
T __shfl_down_sync(unsigned, T, unsigned, int = 32) __KJIT_NO_WARP;
template <class T>
T __shfl_xor_sync(unsigned, T, int, int = 32) __KJIT_NO_WARP;
template <class T>
T __shfl(T, int, int = 32) __KJIT_NO_WARP;
template <class T>
T __shfl_up(T, unsigned, int = 32) __KJIT_NO_WARP;
template <class T>
T __shfl_down(T, unsigned, int = 32) __KJIT_NO_WARP;
template <class T>
T __shfl_xor(T, int, int = 32) __KJIT_NO_WARP;
template <class T>
unsigned __match_any_sync(unsigned, T) __KJIT_NO_WARP;
template <class T>
unsigned __match_all_sync(unsigned, T, int*) __KJIT_NO_WARP;
template <class T>
T __reduce_add_sync(unsigned, T) __KJIT_NO_WARP;
template <class T>
T __reduce_min_sync(unsigned, T) __KJIT_NO_WARP;
template <class T>
T __reduce_max_sync(unsigned, T) __KJIT_NO_WARP;

// ---- atomics: relaxed, as CUDA's, and real (blocks run concurrently) -------------------------
#define __KJIT_ATOMIC(NAME, BUILTIN, T)      \
  static inline T NAME(T* p, T v) {          \
    return BUILTIN(p, v, __ATOMIC_RELAXED);  \
  }                                          \
  static inline T NAME##_block(T* p, T v) {  \
    return BUILTIN(p, v, __ATOMIC_RELAXED);  \
  }                                          \
  static inline T NAME##_system(T* p, T v) { \
    return BUILTIN(p, v, __ATOMIC_RELAXED);  \
  }
#define __KJIT_ATOMIC_INTS(NAME, BUILTIN)    \
  __KJIT_ATOMIC(NAME, BUILTIN, int)          \
  __KJIT_ATOMIC(NAME, BUILTIN, unsigned int) \
  __KJIT_ATOMIC(NAME, BUILTIN, unsigned long long)
__KJIT_ATOMIC_INTS(atomicAdd, __atomic_fetch_add)
__KJIT_ATOMIC(atomicAdd, __atomic_fetch_add, float)
__KJIT_ATOMIC(atomicAdd, __atomic_fetch_add, double)
__KJIT_ATOMIC(atomicSub, __atomic_fetch_sub, int)
__KJIT_ATOMIC(atomicSub, __atomic_fetch_sub, unsigned int)
__KJIT_ATOMIC_INTS(atomicExch, __atomic_exchange_n)
__KJIT_ATOMIC_INTS(atomicMin, __atomic_fetch_min)
__KJIT_ATOMIC(atomicMin, __atomic_fetch_min, long long)
__KJIT_ATOMIC_INTS(atomicMax, __atomic_fetch_max)
__KJIT_ATOMIC(atomicMax, __atomic_fetch_max, long long)
__KJIT_ATOMIC_INTS(atomicAnd, __atomic_fetch_and)
__KJIT_ATOMIC_INTS(atomicOr, __atomic_fetch_or)
__KJIT_ATOMIC_INTS(atomicXor, __atomic_fetch_xor)
#undef __KJIT_ATOMIC_INTS
#undef __KJIT_ATOMIC
static inline float atomicExch(float* p, float v) {
  return __builtin_bit_cast(
      float, __atomic_exchange_n(reinterpret_cast<unsigned int*>(p),
                                 __builtin_bit_cast(unsigned int, v), __ATOMIC_RELAXED));
}

#define __KJIT_ATOMIC_CAS(T)                                                                    \
  static inline T atomicCAS(T* p, T compare, T value) {                                         \
    __atomic_compare_exchange_n(p, &compare, value, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED); \
    return compare;                                                                             \
  }                                                                                             \
  static inline T atomicCAS_block(T* p, T compare, T value) {                                   \
    return atomicCAS(p, compare, value);                                                        \
  }                                                                                             \
  static inline T atomicCAS_system(T* p, T compare, T value) {                                  \
    return atomicCAS(p, compare, value);                                                        \
  }
__KJIT_ATOMIC_CAS(int)
__KJIT_ATOMIC_CAS(unsigned int)
__KJIT_ATOMIC_CAS(unsigned long long)
__KJIT_ATOMIC_CAS(unsigned short)
#undef __KJIT_ATOMIC_CAS

// ((old >= limit) ? 0 : old + 1), and ((old == 0 || old > limit) ? limit : old - 1), atomically.
static inline unsigned int atomicInc(unsigned int* p, unsigned int limit) {
  unsigned int old = __atomic_load_n(p, __ATOMIC_RELAXED);
  while (!__atomic_compare_exchange_n(p, &old, old >= limit ? 0u : old + 1u, true, __ATOMIC_RELAXED,
                                      __ATOMIC_RELAXED)) {
  }
  return old;
}
static inline unsigned int atomicDec(unsigned int* p, unsigned int limit) {
  unsigned int old = __atomic_load_n(p, __ATOMIC_RELAXED);
  while (!__atomic_compare_exchange_n(p, &old, (old == 0u || old > limit) ? limit : old - 1u, true,
                                      __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
  }
  return old;
}

// ---- math -----------------------------------------------------------------------------------
// Each maps to a compiler builtin: an LLVM intrinsic where one exists, else the C library's
// function, resolved when the kernel is loaded.
#define __KJIT_MATH1(NAME)               \
  static inline float NAME##f(float x) { \
    return __builtin_##NAME##f(x);       \
  }                                      \
  static inline float NAME(float x) {    \
    return __builtin_##NAME##f(x);       \
  }                                      \
  static inline double NAME(double x) {  \
    return __builtin_##NAME(x);          \
  }
#define __KJIT_MATH2(NAME)                        \
  static inline float NAME##f(float x, float y) { \
    return __builtin_##NAME##f(x, y);             \
  }                                               \
  static inline float NAME(float x, float y) {    \
    return __builtin_##NAME##f(x, y);             \
  }                                               \
  static inline double NAME(double x, double y) { \
    return __builtin_##NAME(x, y);                \
  }
__KJIT_MATH1(sqrt)
__KJIT_MATH1(cbrt)
__KJIT_MATH1(exp)
__KJIT_MATH1(exp2)
__KJIT_MATH1(expm1)
__KJIT_MATH1(log)
__KJIT_MATH1(log2)
__KJIT_MATH1(log10)
__KJIT_MATH1(log1p)
__KJIT_MATH1(sin)
__KJIT_MATH1(cos)
__KJIT_MATH1(tan)
__KJIT_MATH1(asin)
__KJIT_MATH1(acos)
__KJIT_MATH1(atan)
__KJIT_MATH1(sinh)
__KJIT_MATH1(cosh)
__KJIT_MATH1(tanh)
__KJIT_MATH1(asinh)
__KJIT_MATH1(acosh)
__KJIT_MATH1(atanh)
__KJIT_MATH1(erf)
__KJIT_MATH1(erfc)
__KJIT_MATH1(tgamma)
__KJIT_MATH1(lgamma)
__KJIT_MATH1(fabs)
__KJIT_MATH1(floor)
__KJIT_MATH1(ceil)
__KJIT_MATH1(trunc)
__KJIT_MATH1(round)
__KJIT_MATH1(rint)
__KJIT_MATH1(nearbyint)
__KJIT_MATH2(pow)
__KJIT_MATH2(atan2)
__KJIT_MATH2(fmod)
__KJIT_MATH2(remainder)
__KJIT_MATH2(fmin)
__KJIT_MATH2(fmax)
__KJIT_MATH2(fdim)
__KJIT_MATH2(hypot)
__KJIT_MATH2(copysign)
#undef __KJIT_MATH1
#undef __KJIT_MATH2

static inline float fmaf(float x, float y, float z) {
  return __builtin_fmaf(x, y, z);
}
static inline float fma(float x, float y, float z) {
  return __builtin_fmaf(x, y, z);
}
static inline double fma(double x, double y, double z) {
  return __builtin_fma(x, y, z);
}
static inline float rsqrtf(float x) {
  return 1.0f / __builtin_sqrtf(x);
}
static inline double rsqrt(double x) {
  return 1.0 / __builtin_sqrt(x);
}
static inline float exp10f(float x) {
  return __builtin_powf(10.0f, x);
}
static inline double exp10(double x) {
  return __builtin_pow(10.0, x);
}
static inline void sincosf(float x, float* s, float* c) {
  *s = __builtin_sinf(x);
  *c = __builtin_cosf(x);
}
static inline void sincos(double x, double* s, double* c) {
  *s = __builtin_sin(x);
  *c = __builtin_cos(x);
}
static inline float ldexpf(float x, int e) {
  return __builtin_ldexpf(x, e);
}
static inline double ldexp(double x, int e) {
  return __builtin_ldexp(x, e);
}
static inline float frexpf(float x, int* e) {
  return __builtin_frexpf(x, e);
}
static inline double frexp(double x, int* e) {
  return __builtin_frexp(x, e);
}
static inline long lrintf(float x) {
  return __builtin_lrintf(x);
}
static inline long long llrintf(float x) {
  return __builtin_llrintf(x);
}
static inline long lroundf(float x) {
  return __builtin_lroundf(x);
}

// The fast intrinsics: exact versions on the CPU (CUDA's are allowed to be less accurate).
static inline float __fdividef(float x, float y) {
  return x / y;
}
static inline float __expf(float x) {
  return __builtin_expf(x);
}
static inline float __exp10f(float x) {
  return __builtin_powf(10.0f, x);
}
static inline float __logf(float x) {
  return __builtin_logf(x);
}
static inline float __log2f(float x) {
  return __builtin_log2f(x);
}
static inline float __log10f(float x) {
  return __builtin_log10f(x);
}
static inline float __sinf(float x) {
  return __builtin_sinf(x);
}
static inline float __cosf(float x) {
  return __builtin_cosf(x);
}
static inline float __tanf(float x) {
  return __builtin_tanf(x);
}
static inline float __powf(float x, float y) {
  return __builtin_powf(x, y);
}
static inline void __sincosf(float x, float* s, float* c) {
  sincosf(x, s, c);
}
static inline float __saturatef(float x) {
  return x < 0.0f ? 0.0f : (x > 1.0f ? 1.0f : x);
}
static inline float __fmaf_rn(float x, float y, float z) {
  return __builtin_fmaf(x, y, z);
}
static inline double __fma_rn(double x, double y, double z) {
  return __builtin_fma(x, y, z);
}
// Explicitly rounded operations are never fused with their neighbours.
#define __KJIT_ROUNDED(T, NAME, OP)                  \
  static inline T NAME(T x, T y) {                   \
    _Pragma("clang fp contract(off)") return x OP y; \
  }
__KJIT_ROUNDED(float, __fadd_rn, +)
__KJIT_ROUNDED(float, __fsub_rn, -)
__KJIT_ROUNDED(float, __fmul_rn, *)
__KJIT_ROUNDED(float, __fdiv_rn, /)
__KJIT_ROUNDED(double, __dadd_rn, +)
__KJIT_ROUNDED(double, __dsub_rn, -)
__KJIT_ROUNDED(double, __dmul_rn, *)
__KJIT_ROUNDED(double, __ddiv_rn, /)
#undef __KJIT_ROUNDED

static inline bool isnan(float x) {
  return __builtin_isnan(x);
}
static inline bool isnan(double x) {
  return __builtin_isnan(x);
}
static inline bool isinf(float x) {
  return __builtin_isinf(x);
}
static inline bool isinf(double x) {
  return __builtin_isinf(x);
}
static inline bool isfinite(float x) {
  return __builtin_isfinite(x);
}
static inline bool isfinite(double x) {
  return __builtin_isfinite(x);
}
static inline bool signbit(float x) {
  return __builtin_signbit(x);
}
static inline bool signbit(double x) {
  return __builtin_signbit(x);
}

static inline int abs(int x) {
  return x < 0 ? -x : x;
}
static inline long labs(long x) {
  return x < 0 ? -x : x;
}
static inline long long llabs(long long x) {
  return x < 0 ? -x : x;
}
static inline float abs(float x) {
  return __builtin_fabsf(x);
}
static inline double abs(double x) {
  return __builtin_fabs(x);
}

#define __KJIT_MINMAX(A, B, R)        \
  static inline R min(A a, B b) {     \
    return (R)a < (R)b ? (R)a : (R)b; \
  }                                   \
  static inline R max(A a, B b) {     \
    return (R)a > (R)b ? (R)a : (R)b; \
  }
__KJIT_MINMAX(int, int, int)
__KJIT_MINMAX(unsigned int, unsigned int, unsigned int)
__KJIT_MINMAX(int, unsigned int, unsigned int)
__KJIT_MINMAX(unsigned int, int, unsigned int)
__KJIT_MINMAX(long, long, long)
__KJIT_MINMAX(unsigned long, unsigned long, unsigned long)
__KJIT_MINMAX(long long, long long, long long)
__KJIT_MINMAX(unsigned long long, unsigned long long, unsigned long long)
#undef __KJIT_MINMAX
static inline float min(float a, float b) {
  return __builtin_fminf(a, b);
}
static inline float max(float a, float b) {
  return __builtin_fmaxf(a, b);
}
static inline double min(double a, double b) {
  return __builtin_fmin(a, b);
}
static inline double max(double a, double b) {
  return __builtin_fmax(a, b);
}
static inline unsigned int umin(unsigned int a, unsigned int b) {
  return a < b ? a : b;
}
static inline unsigned int umax(unsigned int a, unsigned int b) {
  return a > b ? a : b;
}
static inline long long llmin(long long a, long long b) {
  return a < b ? a : b;
}
static inline long long llmax(long long a, long long b) {
  return a > b ? a : b;
}

// ---- integer and bit intrinsics ---------------------------------------------------------------
static inline int __popc(unsigned int x) {
  return __builtin_popcount(x);
}
static inline int __popcll(unsigned long long x) {
  return __builtin_popcountll(x);
}
static inline int __clz(int x) {
  return x == 0 ? 32 : __builtin_clz((unsigned int)x);
}
static inline int __clzll(long long x) {
  return x == 0 ? 64 : __builtin_clzll((unsigned long long)x);
}
static inline int __ffs(int x) {
  return __builtin_ffs(x);
}
static inline int __ffsll(long long x) {
  return __builtin_ffsll(x);
}
static inline unsigned int __brev(unsigned int x) {
  return __builtin_bitreverse32(x);
}
static inline unsigned long long __brevll(unsigned long long x) {
  return __builtin_bitreverse64(x);
}
static inline int __mul24(int x, int y) {
  return (int)(((long long)(x << 8) >> 8) * ((long long)(y << 8) >> 8));
}
static inline unsigned int __umul24(unsigned int x, unsigned int y) {
  return (x & 0xffffffu) * (y & 0xffffffu);
}
static inline int __mulhi(int x, int y) {
  return (int)(((long long)x * y) >> 32);
}
static inline unsigned int __umulhi(unsigned int x, unsigned int y) {
  return (unsigned int)(((unsigned long long)x * y) >> 32);
}
static inline long long __mul64hi(long long x, long long y) {
  return (long long)(((__int128)x * y) >> 64);
}
static inline unsigned long long __umul64hi(unsigned long long x, unsigned long long y) {
  return (unsigned long long)(((unsigned __int128)x * y) >> 64);
}

static inline int __float_as_int(float x) {
  return __builtin_bit_cast(int, x);
}
static inline unsigned int __float_as_uint(float x) {
  return __builtin_bit_cast(unsigned int, x);
}
static inline float __int_as_float(int x) {
  return __builtin_bit_cast(float, x);
}
static inline float __uint_as_float(unsigned int x) {
  return __builtin_bit_cast(float, x);
}
static inline long long __double_as_longlong(double x) {
  return __builtin_bit_cast(long long, x);
}
static inline double __longlong_as_double(long long x) {
  return __builtin_bit_cast(double, x);
}
static inline int __float2int_rn(float x) {
  return (int)__builtin_rintf(x);
}
static inline int __float2int_rz(float x) {
  return (int)x;
}
static inline int __float2int_rd(float x) {
  return (int)__builtin_floorf(x);
}
static inline int __float2int_ru(float x) {
  return (int)__builtin_ceilf(x);
}
static inline unsigned int __float2uint_rn(float x) {
  return (unsigned int)__builtin_rintf(x);
}
static inline unsigned int __float2uint_rz(float x) {
  return (unsigned int)x;
}
static inline float __int2float_rn(int x) {
  return (float)x;
}
static inline float __uint2float_rn(unsigned int x) {
  return (float)x;
}
static inline int __double2int_rn(double x) {
  return (int)__builtin_rint(x);
}
static inline int __double2int_rz(double x) {
  return (int)x;
}
static inline float __double2float_rn(double x) {
  return (float)x;
}

template <class T>
static inline T __ldg(const T* p) {
  return *p;
}
template <class T>
static inline T __ldcg(const T* p) {
  return *p;
}
template <class T>
static inline T __ldca(const T* p) {
  return *p;
}
template <class T>
static inline T __ldcs(const T* p) {
  return *p;
}

static inline long long clock64() {
  return (long long)__builtin_readcyclecounter();
}
static inline long clock() {
  return (long)__builtin_readcyclecounter();
}
static inline void __trap() {
  __builtin_trap();
}
static inline void __brkpt() {
  __builtin_debugtrap();
}

// ---- the few C library functions device code may call ----------------------------------------
extern "C" int printf(const char* format, ...);
extern "C" void* memcpy(void* dst, const void* src, size_t n);
extern "C" void* memset(void* dst, int c, size_t n);
extern "C" void* malloc(size_t n);
extern "C" void free(void* p);

// ---- kernel entries -------------------------------------------------------------------------
// The backend appends one __KJIT_KERNEL_ENTRY(N, address of the kernel) per kernel asked for; it
// instantiates the entries of cpu_abi.h for that kernel. The IR lowering then threads the thread
// context through.
namespace __kjit {

template <class T, T... I>
struct int_seq {};

template <class... P>
struct param_table {
  unsigned long long count = sizeof...(P);
  unsigned long long sizes_then_alignments[2 * sizeof...(P) + 1] = {sizeof(P)..., alignof(P)..., 0};
};

template <auto F>
struct kernel_traits;  // only kernels (functions returning void) have traits
template <class... P, void (*F)(P...)>
struct kernel_traits<F> {
  using params = param_table<P...>;
  using indices = __make_integer_seq<int_seq, unsigned long, sizeof...(P)>;
  template <unsigned long I, class T>
  struct slot {
    T value;
  };
  template <class Seq>
  struct args_of;
  template <unsigned long... I>
  struct args_of<int_seq<unsigned long, I...>> : slot<I, P>... {
    // Copies the arguments out of the launch's argument block into locals, which the optimiser
    // keeps in registers across the thread loop.
    __attribute__((always_inline)) explicit args_of(void* const* a)
        : slot<I, P>{*static_cast<const P*>(a[I])}... {}
    __attribute__((always_inline)) void call() const {
      F(static_cast<const slot<I, P>&>(*this).value...);
    }
  };
  using args = args_of<indices>;
};

// All threads of one block in a loop (kernels without barriers). The block's coordinates are
// copied into locals so that the optimiser sees them as loop-invariant values, and the thread
// index becomes the loop's induction variable.
template <auto F>
void run_block(void* const* a, const kjit_cpu_block* b) {
  const kjit_cpu_block block = *b;
  kjit_cpu_thread t{};
  t.block = &block;
  __kjit_bind_ctx(&t);
  const typename kernel_traits<F>::args args(a);
  for (unsigned z = 0; z < block.block_dim[2]; ++z) {
    for (unsigned y = 0; y < block.block_dim[1]; ++y) {
      for (unsigned x = 0; x < block.block_dim[0]; ++x) {
        t.thread_idx[0] = x;
        t.thread_idx[1] = y;
        t.thread_idx[2] = z;
        args.call();
      }
    }
  }
}

// One thread, on its own fiber (kernels that call __syncthreads()).
template <auto F>
void run_thread(void* const* a, const kjit_cpu_block* b, unsigned x, unsigned y, unsigned z) {
  const kjit_cpu_block block = *b;
  kjit_cpu_thread t{};
  t.block = &block;
  t.thread_idx[0] = x;
  t.thread_idx[1] = y;
  t.thread_idx[2] = z;
  __kjit_bind_ctx(&t);
  const typename kernel_traits<F>::args args(a);
  args.call();
}

}  // namespace __kjit

#define __KJIT_KERNEL_ENTRY(N, ...)                                                        \
  static constexpr auto __kjit_kernel_##N = __VA_ARGS__;                                   \
  extern "C" void __kjit_block_##N(void* const* a, const kjit_cpu_block* b) {              \
    ::__kjit::run_block<__kjit_kernel_##N>(a, b);                                          \
  }                                                                                        \
  extern "C" void __kjit_thread_##N(void* const* a, const kjit_cpu_block* b, unsigned x,   \
                                    unsigned y, unsigned z) {                              \
    ::__kjit::run_thread<__kjit_kernel_##N>(a, b, x, y, z);                                \
  }                                                                                        \
  extern "C" const ::__kjit::kernel_traits<__kjit_kernel_##N>::params __kjit_params_##N{}; \
  extern "C" void (*const __kjit_fn_##N)() = reinterpret_cast<void (*)()>(__kjit_kernel_##N);
