// kjit's <math.h> for kernels. The functions of CUDA's Math API need no include on any backend
// (each prelude or compiler provides them); this adds the C library's constants and macros, and
// the classification functions NVRTC leaves out. As libstdc++'s, it brings <cmath> (std::sqrt,
// std::size_t ...) with it.
#ifndef __KJIT_MATH_H
#define __KJIT_MATH_H
#include "__kjit_headers.h"

#define M_E 2.7182818284590452354
#define M_LOG2E 1.4426950408889634074
#define M_LOG10E 0.43429448190325182765
#define M_LN2 0.69314718055994530942
#define M_LN10 2.30258509299404568402
#define M_PI 3.14159265358979323846
#define M_PI_2 1.57079632679489661923
#define M_PI_4 0.78539816339744830962
#define M_1_PI 0.31830988618379067154
#define M_2_PI 0.63661977236758134308
#define M_2_SQRTPI 1.12837916709551257390
#define M_SQRT2 1.41421356237309504880
#define M_SQRT1_2 0.70710678118654752440

#define HUGE_VALF __builtin_bit_cast(float, 0x7f800000U)
#define HUGE_VAL __builtin_bit_cast(double, 0x7ff0000000000000ULL)
#define INFINITY HUGE_VALF
#define NAN __builtin_bit_cast(float, 0x7fc00000U)

#define FP_NAN 0
#define FP_INFINITE 1
#define FP_ZERO 2
#define FP_SUBNORMAL 3
#define FP_NORMAL 4
#define FP_ILOGB0 (-2147483647 - 1)
#define FP_ILOGBNAN (-2147483647 - 1)
#define MATH_ERRNO 1
#define MATH_ERREXCEPT 2
#define math_errhandling 0

#if defined(__KJIT_CUDA__)
// NVRTC's Math API has no classification or comparison functions of C99's <math.h>.
#define __KJIT_CLASSIFY(T, MIN, MAX)         \
  __KJIT_HD bool isnormal(T x) {             \
    return fabs(x) >= MIN && fabs(x) <= MAX; \
  }                                          \
  __KJIT_HD int fpclassify(T x) {            \
    return isnan(x)      ? FP_NAN            \
           : isinf(x)    ? FP_INFINITE       \
           : x == T(0)   ? FP_ZERO           \
           : isnormal(x) ? FP_NORMAL         \
                         : FP_SUBNORMAL;     \
  }                                          \
  __KJIT_HD bool isunordered(T x, T y) {     \
    return isnan(x) || isnan(y);             \
  }                                          \
  __KJIT_HD bool isgreater(T x, T y) {       \
    return !isunordered(x, y) && x > y;      \
  }                                          \
  __KJIT_HD bool isgreaterequal(T x, T y) {  \
    return !isunordered(x, y) && x >= y;     \
  }                                          \
  __KJIT_HD bool isless(T x, T y) {          \
    return !isunordered(x, y) && x < y;      \
  }                                          \
  __KJIT_HD bool islessequal(T x, T y) {     \
    return !isunordered(x, y) && x <= y;     \
  }                                          \
  __KJIT_HD bool islessgreater(T x, T y) {   \
    return !isunordered(x, y) && x != y;     \
  }
__KJIT_CLASSIFY(float, 0x1p-126F, 0x1.fffffep+127F)
__KJIT_CLASSIFY(double, 0x1p-1022, 0x1.fffffffffffffp+1023)
#undef __KJIT_CLASSIFY
#endif

#if !defined(__KJIT_HIP__)
// Mixed argument types, as C's macros and C++'s templates take them (HIP has its own).
#define __KJIT_MIXED(NAME)                                       \
  template <class A, class B>                                    \
  __KJIT_HD bool NAME(A x, B y) {                                \
    return NAME(static_cast<double>(x), static_cast<double>(y)); \
  }
__KJIT_MIXED(isunordered)
__KJIT_MIXED(isgreater)
__KJIT_MIXED(isgreaterequal)
__KJIT_MIXED(isless)
__KJIT_MIXED(islessequal)
__KJIT_MIXED(islessgreater)
#undef __KJIT_MIXED
#endif

#if defined(__KJIT_HIP__)
// HIP's has every other one.
__KJIT_HD int fpclassify(float x) {
  return __builtin_fpclassify(FP_NAN, FP_INFINITE, FP_NORMAL, FP_SUBNORMAL, FP_ZERO, x);
}
__KJIT_HD int fpclassify(double x) {
  return __builtin_fpclassify(FP_NAN, FP_INFINITE, FP_NORMAL, FP_SUBNORMAL, FP_ZERO, x);
}
#endif

#include <cmath>

#endif
