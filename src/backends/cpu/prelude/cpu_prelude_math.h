// kjit CPU prelude, part 3: CUDA's Math API (included after cpu_prelude_atomics.h).

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
__KJIT_MATH1(asinh)
__KJIT_MATH1(acosh)
__KJIT_MATH1(atanh)
__KJIT_MATH1(erf)
__KJIT_MATH1(erfc)
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
// rsqrt, cbrt, tanh, tgamma and lgamma: cpu_prelude_math_special.h.
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
static inline long lrint(double x) {
  return __builtin_lrint(x);
}
static inline long long llrint(double x) {
  return __builtin_llrint(x);
}
static inline long lround(double x) {
  return __builtin_lround(x);
}
static inline long long llroundf(float x) {
  return __builtin_llroundf(x);
}
static inline long long llround(double x) {
  return __builtin_llround(x);
}
static inline long lrint(float x) {
  return __builtin_lrintf(x);
}
static inline long long llrint(float x) {
  return __builtin_llrintf(x);
}
static inline long lround(float x) {
  return __builtin_lroundf(x);
}
static inline long long llround(float x) {
  return __builtin_llroundf(x);
}

// ---- the rest of C99's <math.h> ----
#define __KJIT_MATH_FLOAT(R, NAME, PARAMS_F, ARGS) \
  static inline R NAME##f PARAMS_F {               \
    return __builtin_##NAME##f ARGS;               \
  }                                                \
  static inline R NAME PARAMS_F {                  \
    return __builtin_##NAME##f ARGS;               \
  }
__KJIT_MATH_FLOAT(float, logb, (float x), (x))
__KJIT_MATH_FLOAT(float, nextafter, (float x, float y), (x, y))
__KJIT_MATH_FLOAT(float, scalbn, (float x, int n), (x, n))
__KJIT_MATH_FLOAT(float, scalbln, (float x, long n), (x, n))
__KJIT_MATH_FLOAT(float, remquo, (float x, float y, int* q), (x, y, q))
__KJIT_MATH_FLOAT(float, modf, (float x, float* i), (x, i))
__KJIT_MATH_FLOAT(int, ilogb, (float x), (x))
#undef __KJIT_MATH_FLOAT
static inline double logb(double x) {
  return __builtin_logb(x);
}
static inline double nextafter(double x, double y) {
  return __builtin_nextafter(x, y);
}
static inline double scalbn(double x, int n) {
  return __builtin_scalbn(x, n);
}
static inline double scalbln(double x, long n) {
  return __builtin_scalbln(x, n);
}
static inline double remquo(double x, double y, int* q) {
  return __builtin_remquo(x, y, q);
}
static inline double modf(double x, double* i) {
  return __builtin_modf(x, i);
}
static inline int ilogb(double x) {
  return __builtin_ilogb(x);
}
static inline float nanf(const char* tag) {
  return __builtin_nanf(tag);
}
static inline double nan(const char* tag) {
  return __builtin_nan(tag);
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
#define __KJIT_CLASSIFY(T)                                                        \
  static inline bool isnormal(T x) {                                              \
    return __builtin_isnormal(x);                                                 \
  }                                                                               \
  static inline int fpclassify(T x) {                                             \
    return __builtin_fpclassify(0 /*FP_NAN*/, 1 /*FP_INFINITE*/, 4 /*FP_NORMAL*/, \
                                3 /*FP_SUBNORMAL*/, 2 /*FP_ZERO*/, x);            \
  }                                                                               \
  static inline bool isunordered(T x, T y) {                                      \
    return __builtin_isunordered(x, y);                                           \
  }                                                                               \
  static inline bool isgreater(T x, T y) {                                        \
    return __builtin_isgreater(x, y);                                             \
  }                                                                               \
  static inline bool isgreaterequal(T x, T y) {                                   \
    return __builtin_isgreaterequal(x, y);                                        \
  }                                                                               \
  static inline bool isless(T x, T y) {                                           \
    return __builtin_isless(x, y);                                                \
  }                                                                               \
  static inline bool islessequal(T x, T y) {                                      \
    return __builtin_islessequal(x, y);                                           \
  }                                                                               \
  static inline bool islessgreater(T x, T y) {                                    \
    return __builtin_islessgreater(x, y);                                         \
  }
__KJIT_CLASSIFY(float)
__KJIT_CLASSIFY(double)
#undef __KJIT_CLASSIFY

static inline int abs(int x) {
  return x < 0 ? -x : x;
}
static inline long abs(long x) {
  return x < 0 ? -x : x;
}
static inline long long abs(long long x) {
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
__KJIT_MINMAX(long, unsigned long, unsigned long)
__KJIT_MINMAX(unsigned long, long, unsigned long)
__KJIT_MINMAX(long long, long long, long long)
__KJIT_MINMAX(unsigned long long, unsigned long long, unsigned long long)
__KJIT_MINMAX(long long, unsigned long long, unsigned long long)
__KJIT_MINMAX(unsigned long long, long long, unsigned long long)
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
// Mixed float and double, in double, as CUDA's.
static inline double min(float a, double b) {
  return __builtin_fmin((double)a, b);
}
static inline double min(double a, float b) {
  return __builtin_fmin(a, (double)b);
}
static inline double max(float a, double b) {
  return __builtin_fmax((double)a, b);
}
static inline double max(double a, float b) {
  return __builtin_fmax(a, (double)b);
}
static inline double copysign(float a, double b) {
  return __builtin_copysign((double)a, b);
}
static inline double copysign(double a, float b) {
  return __builtin_copysign(a, (double)b);
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
static inline unsigned long long ullmin(unsigned long long a, unsigned long long b) {
  return a < b ? a : b;
}
static inline unsigned long long ullmax(unsigned long long a, unsigned long long b) {
  return a > b ? a : b;
}

// The C library's classification functions by their internal names, which CUDA's device code
// has too.
#define __KJIT_CLASSIFY_NAMED(T, NAN, INF, FINITE, SIGNBIT) \
  static inline int NAN(T x) {                              \
    return __builtin_isnan(x);                              \
  }                                                         \
  static inline int INF(T x) {                              \
    return __builtin_isinf(x);                              \
  }                                                         \
  static inline int FINITE(T x) {                           \
    return __builtin_isfinite(x);                           \
  }                                                         \
  static inline int SIGNBIT(T x) {                          \
    return __builtin_signbit(x);                            \
  }
__KJIT_CLASSIFY_NAMED(float, __isnanf, __isinff, __finitef, __signbitf)
__KJIT_CLASSIFY_NAMED(double, __isnan, __isinf, __finite, __signbit)
#undef __KJIT_CLASSIFY_NAMED
