// kjit CPU prelude, part 2: CUDA's atomics (included after cpu_prelude.h).

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
// A floating-point add is a compare-and-swap loop on x86, which reads the line before it swaps:
// asked for the line to write at once (prefetchw), a line that other cores' blocks also add to
// (one sum of a whole grid) moves between caches once per add, not twice.
#define __KJIT_ATOMIC_ADD_FP(T)                        \
  static inline T __kjit_atomic_add(T* p, T v) {       \
    __builtin_prefetch(p, 1, 3);                       \
    return __atomic_fetch_add(p, v, __ATOMIC_RELAXED); \
  }                                                    \
  static inline T atomicAdd(T* p, T v) {               \
    return __kjit_atomic_add(p, v);                    \
  }                                                    \
  static inline T atomicAdd_block(T* p, T v) {         \
    return __kjit_atomic_add(p, v);                    \
  }                                                    \
  static inline T atomicAdd_system(T* p, T v) {        \
    return __kjit_atomic_add(p, v);                    \
  }
__KJIT_ATOMIC_ADD_FP(float)
__KJIT_ATOMIC_ADD_FP(double)
#undef __KJIT_ATOMIC_ADD_FP
__KJIT_ATOMIC(atomicSub, __atomic_fetch_sub, int)
__KJIT_ATOMIC(atomicSub, __atomic_fetch_sub, unsigned int)
__KJIT_ATOMIC_INTS(atomicExch, __atomic_exchange_n)
__KJIT_ATOMIC_INTS(atomicMin, __atomic_fetch_min)
__KJIT_ATOMIC(atomicMin, __atomic_fetch_min, long long)
__KJIT_ATOMIC_INTS(atomicMax, __atomic_fetch_max)
__KJIT_ATOMIC(atomicMax, __atomic_fetch_max, long long)
__KJIT_ATOMIC_INTS(atomicAnd, __atomic_fetch_and)
__KJIT_ATOMIC(atomicAnd, __atomic_fetch_and, long long)
__KJIT_ATOMIC_INTS(atomicOr, __atomic_fetch_or)
__KJIT_ATOMIC(atomicOr, __atomic_fetch_or, long long)
__KJIT_ATOMIC_INTS(atomicXor, __atomic_fetch_xor)
__KJIT_ATOMIC(atomicXor, __atomic_fetch_xor, long long)
#undef __KJIT_ATOMIC_INTS
#undef __KJIT_ATOMIC
static inline float atomicExch(float* p, float v) {
  return __builtin_bit_cast(
      float, __atomic_exchange_n(reinterpret_cast<unsigned int*>(p),
                                 __builtin_bit_cast(unsigned int, v), __ATOMIC_RELAXED));
}
static inline float atomicExch_block(float* p, float v) {
  return atomicExch(p, v);
}
static inline float atomicExch_system(float* p, float v) {
  return atomicExch(p, v);
}

// The vector adds of sm_90 (float2, float4): each element atomically, as CUDA guarantees them
// (not the vector as a whole); the old value.
#define __KJIT_ATOMIC_ADD_VECTOR(NAME)                                     \
  static inline float2 NAME(float2* p, float2 v) {                         \
    return {__kjit_atomic_add(&p->x, v.x), __kjit_atomic_add(&p->y, v.y)}; \
  }                                                                        \
  static inline float4 NAME(float4* p, float4 v) {                         \
    return {__kjit_atomic_add(&p->x, v.x), __kjit_atomic_add(&p->y, v.y),  \
            __kjit_atomic_add(&p->z, v.z), __kjit_atomic_add(&p->w, v.w)}; \
  }
__KJIT_ATOMIC_ADD_VECTOR(atomicAdd)
__KJIT_ATOMIC_ADD_VECTOR(atomicAdd_block)
__KJIT_ATOMIC_ADD_VECTOR(atomicAdd_system)
#undef __KJIT_ATOMIC_ADD_VECTOR

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
static inline unsigned int atomicInc_block(unsigned int* p, unsigned int limit) {
  return atomicInc(p, limit);
}
static inline unsigned int atomicInc_system(unsigned int* p, unsigned int limit) {
  return atomicInc(p, limit);
}
static inline unsigned int atomicDec_block(unsigned int* p, unsigned int limit) {
  return atomicDec(p, limit);
}
static inline unsigned int atomicDec_system(unsigned int* p, unsigned int limit) {
  return atomicDec(p, limit);
}
