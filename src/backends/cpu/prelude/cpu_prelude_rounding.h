// kjit CPU prelude, part 5: CUDA's operations in a chosen rounding mode (_rn to nearest even,
// _rz toward zero, _ru up, _rd down): arithmetic, square roots, reciprocals, fused multiply-adds
// and conversions. The host's rounding mode is never changed: each result is the nearest one,
// moved to its neighbour when the exact error of the operation (an error-free transformation)
// says the exact value lies on the other side. Conversions to integers saturate, and give for NaN
// what an H100 gives.

namespace __kjit_round {
enum mode { rn, rz, ru, rd };

static inline float next(float r, float to) {
  return __builtin_nextafterf(r, to);
}
static inline double next(double r, double to) {
  return __builtin_nextafter(r, to);
}
template <class T>
static inline int sign(T x) {
  return x > 0 ? 1 : (x < 0 ? -1 : 0);
}

// The result in `m` of an exact value on `side` of the nearest result r (+1 above, -1 below, 0
// r itself); `overflowed` when r is an infinity that finite operands rounded to.
template <class T>
static inline T directed(T r, int side, mode m, bool overflowed) {
  if (m == rn || __builtin_isnan(r)) {
    return r;
  }
  const T inf = __builtin_inf();
  if (__builtin_isinf(r)) {
    const T big = next(inf, T(0));  // the largest finite value
    const bool keep = !overflowed || (m == ru && r > 0) || (m == rd && r < 0);
    return keep ? r : (r > 0 ? big : -big);
  }
  if (side == 0) {
    return r;
  }
  if (m == ru) {
    return side > 0 ? next(r, inf) : r;
  }
  if (m == rd) {
    return side > 0 ? r : next(r, -inf);
  }
  // rz: toward zero when the exact value is nearer zero than r
  const bool shrink = (r > 0 && side < 0) || (r < 0 && side > 0);
  return shrink ? next(r, T(0)) : r;
}

static inline bool finite_all(double a, double b) {
  return __builtin_isfinite(a) && __builtin_isfinite(b);
}

#pragma float_control(precise, on, push)
template <class T>
static inline T add(T a, T b, mode m) {
  const T s = a + b;
  const T v = s - a;
  const T err = (a - (s - v)) + (b - v);  // TwoSum: a + b = s + err exactly
  return directed(s, __builtin_isinf(s) ? 0 : sign(err), m, __builtin_isinf(s) && finite_all(a, b));
}
template <class T>
static inline T mul(T a, T b, mode m) {
  const T p = a * b;
  if (!__builtin_isfinite(p)) {
    return directed(p, 0, m, __builtin_isinf(p) && finite_all(a, b));
  }
  if (p == 0) {  // exact, or underflowed: the exact value has the operands' signs
    return directed(p, a == 0 || b == 0 ? 0 : sign(a) * sign(b), m, false);
  }
  return directed(p, sign(__builtin_fma((double)a, (double)b, -(double)p)), m, false);
}
template <class T>
static inline T div(T a, T b, mode m) {
  const T q = a / b;
  if (!__builtin_isfinite(q) || !__builtin_isfinite(a) || b == 0 || __builtin_isinf(b)) {
    return directed(q, 0, m, __builtin_isinf(q) && finite_all(a, b) && b != 0);
  }
  const double rem = __builtin_fma(-(double)q, (double)b, (double)a);  // a - q b, exact
  return directed(q, sign(rem) * sign(b), m, false);
}
static inline float root(float x) {
  return __builtin_sqrtf(x);
}
static inline double root(double x) {
  return __builtin_sqrt(x);
}
template <class T>
static inline T sqrt(T x, mode m) {
  const T s = root(x);
  if (!__builtin_isfinite(s) || s == 0) {
    return s;
  }
  return directed(s, sign(__builtin_fma(-(double)s, (double)s, (double)x)), m, false);
}
// a b + c: the exact error of an fma as two values (Boldo and Muller's ErrFma), whose sign the
// first gives unless it is zero.
static inline double fma(double a, double b, double c, mode m) {
  const double r = __builtin_fma(a, b, c);
  if (!__builtin_isfinite(r) || !__builtin_isfinite(a * b)) {
    return directed(r, 0, m, __builtin_isinf(r) && finite_all(a, b) && __builtin_isfinite(c));
  }
  const double u1 = a * b;
  const double u2 = __builtin_fma(a, b, -u1);
  const double alpha1 = c + u2;  // TwoSum(c, u2)
  const double av = alpha1 - c;
  const double z = (c - (alpha1 - av)) + (u2 - av);
  const double beta1 = u1 + alpha1;  // TwoSum(u1, alpha1)
  const double bv = beta1 - u1;
  const double beta2 = (u1 - (beta1 - bv)) + (alpha1 - bv);
  const double gamma = (beta1 - r) + beta2;
  const double r2 = gamma + z;  // FastTwoSum(gamma, z)
  const double r3 = z - (r2 - gamma);
  return directed(r, r2 != 0 ? sign(r2) : sign(r3), m, false);
}
static inline float fma(float a, float b, float c, mode m) {
  // a b is exact in double; the double sum's own error completes it.
  const double p = (double)a * (double)b;
  const double s = p + (double)c;
  const double v = s - p;
  const double e = (p - (s - v)) + ((double)c - v);
  const float r = (float)s;
  const int side = __builtin_isfinite(r) ? (s != (double)r ? sign(s - (double)r) : sign(e)) : 0;
  return directed(r, side, m, __builtin_isinf(r) && finite_all(a, b) && __builtin_isfinite(c));
}
// x to the float in `m`: the nearest, then the side from the exact difference.
static inline float narrow(double x, mode m) {
  const float r = (float)x;
  return directed(r, __builtin_isfinite(r) ? sign(x - (double)r) : 0, m,
                  __builtin_isinf(r) && __builtin_isfinite(x));
}
// An integer to floating point in `m`: the nearest, compared back as an integer (it is one, and
// in range unless it rounded up past the type's largest value).
template <class T, class I>
static inline T from_int(I i, mode m) {
  const T r = (T)i;
  constexpr bool is_signed = (I)-1 < (I)0;
  const T end = is_signed ? (T)(1ULL << (sizeof(I) * 8 - 1)) : (T)2 * (T)(1ULL << 63);
  if (sizeof(I) == 8 && r >= end) {
    return directed(r, -1, m, false);  // i is below 2^63 (2^64), which r is
  }
  const I back = (I)r;
  return directed(r, i > back ? 1 : (i < back ? -1 : 0), m, false);
}
#pragma float_control(pop)

// Floating point to an integer: rounded in `m`, saturated at the type's ends. NaN gives what an
// H100 gives: 0 from a float to 32 bits, else the value with only the top bit set.
template <class I, class T>
static inline I to_int(T x, mode m) {
  if (__builtin_isnan(x)) {
    return sizeof(T) == 4 && sizeof(I) == 4 ? (I)0 : (I)(1ULL << (sizeof(I) * 8 - 1));
  }
  const T r = m == rn   ? __builtin_rint(x)
              : m == rz ? __builtin_trunc(x)
              : m == ru ? __builtin_ceil(x)
                        : __builtin_floor(x);
  constexpr bool is_signed = (I)-1 < (I)0;
  constexpr I hi = is_signed ? (I)((1ULL << (sizeof(I) * 8 - 1)) - 1) : (I) ~(I)0;
  constexpr I lo = is_signed ? (I)(-hi - 1) : (I)0;
  if (r <= (T)lo) {
    return lo;
  }
  if (r >= (T)hi) {  // (T)hi rounds up to a power of two, which is already out of range
    return hi;
  }
  return (I)r;
}
}  // namespace __kjit_round

// ---- the operations, each in its modes -----------------------------------------------------
// NAME_<mode> PARAMS returning EXPR, in which m is the mode; __KJIT_DIRECTED defines _rz, _ru and
// _rd (CUDA's _rn operations are the plain ones, in cpu_prelude_math.h), __KJIT_ALL_MODES _rn too.
#define __KJIT_MODE(R, NAME, M, PARAMS, EXPR)     \
  static inline R NAME##_##M PARAMS {             \
    const __kjit_round::mode m = __kjit_round::M; \
    return EXPR;                                  \
  }
#define __KJIT_DIRECTED(R, NAME, PARAMS, EXPR) \
  __KJIT_MODE(R, NAME, rz, PARAMS, EXPR)       \
  __KJIT_MODE(R, NAME, ru, PARAMS, EXPR)       \
  __KJIT_MODE(R, NAME, rd, PARAMS, EXPR)
#define __KJIT_ALL_MODES(R, NAME, PARAMS, EXPR) \
  __KJIT_MODE(R, NAME, rn, PARAMS, EXPR)        \
  __KJIT_DIRECTED(R, NAME, PARAMS, EXPR)

__KJIT_DIRECTED(float, __fadd, (float x, float y), __kjit_round::add(x, y, m))
__KJIT_DIRECTED(float, __fsub, (float x, float y), __kjit_round::add(x, -y, m))
__KJIT_DIRECTED(float, __fmul, (float x, float y), __kjit_round::mul(x, y, m))
__KJIT_DIRECTED(float, __fdiv, (float x, float y), __kjit_round::div(x, y, m))
__KJIT_DIRECTED(double, __dadd, (double x, double y), __kjit_round::add(x, y, m))
__KJIT_DIRECTED(double, __dsub, (double x, double y), __kjit_round::add(x, -y, m))
__KJIT_DIRECTED(double, __dmul, (double x, double y), __kjit_round::mul(x, y, m))
__KJIT_DIRECTED(double, __ddiv, (double x, double y), __kjit_round::div(x, y, m))
__KJIT_DIRECTED(float, __fmaf, (float x, float y, float z), __kjit_round::fma(x, y, z, m))
__KJIT_DIRECTED(double, __fma, (double x, double y, double z), __kjit_round::fma(x, y, z, m))
__KJIT_ALL_MODES(float, __fsqrt, (float x), __kjit_round::sqrt(x, m))
__KJIT_ALL_MODES(double, __dsqrt, (double x), __kjit_round::sqrt(x, m))
__KJIT_ALL_MODES(float, __frcp, (float x), __kjit_round::div(1.0f, x, m))
__KJIT_ALL_MODES(double, __drcp, (double x), __kjit_round::div(1.0, x, m))
static inline float __frsqrt_rn(float x) {
  return rsqrtf(x);  // computed in double, rounded once to float
}

// ---- conversions ----------------------------------------------------------------------------
__KJIT_ALL_MODES(int, __float2int, (float x), (__kjit_round::to_int<int>(x, m)))
__KJIT_ALL_MODES(unsigned int, __float2uint, (float x), (__kjit_round::to_int<unsigned int>(x, m)))
__KJIT_ALL_MODES(long long, __float2ll, (float x), (__kjit_round::to_int<long long>(x, m)))
__KJIT_ALL_MODES(unsigned long long, __float2ull, (float x),
                 (__kjit_round::to_int<unsigned long long>(x, m)))
__KJIT_ALL_MODES(int, __double2int, (double x), (__kjit_round::to_int<int>(x, m)))
__KJIT_ALL_MODES(unsigned int, __double2uint, (double x),
                 (__kjit_round::to_int<unsigned int>(x, m)))
__KJIT_ALL_MODES(long long, __double2ll, (double x), (__kjit_round::to_int<long long>(x, m)))
__KJIT_ALL_MODES(unsigned long long, __double2ull, (double x),
                 (__kjit_round::to_int<unsigned long long>(x, m)))
__KJIT_ALL_MODES(float, __double2float, (double x), (__kjit_round::narrow(x, m)))
__KJIT_ALL_MODES(float, __int2float, (int x), (__kjit_round::from_int<float>(x, m)))
__KJIT_ALL_MODES(float, __uint2float, (unsigned int x), (__kjit_round::from_int<float>(x, m)))
__KJIT_ALL_MODES(float, __ll2float, (long long x), (__kjit_round::from_int<float>(x, m)))
__KJIT_ALL_MODES(float, __ull2float, (unsigned long long x), (__kjit_round::from_int<float>(x, m)))
__KJIT_ALL_MODES(double, __ll2double, (long long x), (__kjit_round::from_int<double>(x, m)))
__KJIT_ALL_MODES(double, __ull2double, (unsigned long long x),
                 (__kjit_round::from_int<double>(x, m)))
// __fmaf_ieee_*: __fmaf_* that never flushes denormals, which a CPU does not anyway.
__KJIT_DIRECTED(float, __fmaf_ieee, (float x, float y, float z), __kjit_round::fma(x, y, z, m))
#undef __KJIT_ALL_MODES
#undef __KJIT_DIRECTED
#undef __KJIT_MODE
static inline float __fmaf_ieee_rn(float x, float y, float z) {
  return __builtin_fmaf(x, y, z);
}
// The float2 forms (sm_100): each element in the mode.
#define __KJIT_FLOAT2(M)                                           \
  static inline float2 __fadd2_##M(float2 a, float2 b) {           \
    return {__fadd_##M(a.x, b.x), __fadd_##M(a.y, b.y)};           \
  }                                                                \
  static inline float2 __fmul2_##M(float2 a, float2 b) {           \
    return {__fmul_##M(a.x, b.x), __fmul_##M(a.y, b.y)};           \
  }                                                                \
  static inline float2 __ffma2_##M(float2 a, float2 b, float2 c) { \
    return {__fmaf_##M(a.x, b.x, c.x), __fmaf_##M(a.y, b.y, c.y)}; \
  }
__KJIT_FLOAT2(rn)
__KJIT_FLOAT2(rz)
__KJIT_FLOAT2(ru)
__KJIT_FLOAT2(rd)
#undef __KJIT_FLOAT2
static inline double __int2double_rn(int x) {
  return (double)x;  // exact
}
static inline double __uint2double_rn(unsigned int x) {
  return (double)x;
}
static inline int __double2hiint(double x) {
  return (int)(__builtin_bit_cast(unsigned long long, x) >> 32);
}
static inline int __double2loint(double x) {
  return (int)(unsigned int)__builtin_bit_cast(unsigned long long, x);
}
static inline double __hiloint2double(int hi, int lo) {
  return __builtin_bit_cast(
      double, ((unsigned long long)(unsigned int)hi << 32) | (unsigned long long)(unsigned int)lo);
}
