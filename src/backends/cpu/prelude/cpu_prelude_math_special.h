// kjit CPU prelude, part 4: the rest of CUDA's Math API (included after cpu_prelude_math.h):
// the normal and error-function inverses, the scaled complementary error function, sin and cos
// of pi x, norms, reciprocal roots and the Bessel functions. Each double function keeps CUDA's
// documented error bound (tests/api/math_api_test.cpp checks them); each float one is its double
// counterpart rounded once.

// The float form of a function: its double form, rounded once.
#define __KJIT_VIA_DOUBLE(NAME)          \
  static inline float NAME##f(float x) { \
    return (float)NAME((double)x);       \
  }

// ---- exact products and sums (Dekker, Knuth) ------------------------------------------------
struct __kjit_dd {  // hi + lo, |lo| <= ulp(hi) / 2
  double hi, lo;
};
static inline __kjit_dd __kjit_two_prod(double a, double b) {
  const double p = a * b;
  return {p, __builtin_fma(a, b, -p)};
}
static inline __kjit_dd __kjit_two_sum(double a, double b) {
  const double s = a + b;
  const double v = s - a;
  return {s, (a - (s - v)) + (b - v)};
}
// a^2 + b^2 (+ c^2 + d^2) as a double-double.
static inline __kjit_dd __kjit_sum_squares(const double* v, int n) {
  __kjit_dd s{0.0, 0.0};
  for (int i = 0; i < n; ++i) {
    const __kjit_dd p = __kjit_two_prod(v[i], v[i]);
    const __kjit_dd t = __kjit_two_sum(s.hi, p.hi);
    s = {t.hi, t.lo + s.lo + p.lo};
  }
  return __kjit_two_sum(s.hi, s.lo);
}

// 1 / sqrt(hi + lo): Newton from the rounded estimate, with 1 - r^2 (hi + lo) formed exactly to
// first order, so that only the last rounding remains.
static inline double __kjit_rsqrt_dd(__kjit_dd s) {
  const double r0 = 1.0 / __builtin_sqrt(s.hi);
  const __kjit_dd sq = __kjit_two_prod(r0, r0);
  const __kjit_dd q = __kjit_two_prod(sq.hi, s.hi);
  const double e = (((1.0 - q.hi) - q.lo) - sq.hi * s.lo) - sq.lo * s.hi;
  return __builtin_fma(0.5 * r0, e, r0);
}
static inline double rsqrt(double x) {
  if (!(x > 0.0) || __builtin_isinf(x)) {
    return 1.0 / __builtin_sqrt(x);  // nan, +-0 -> +-inf, inf -> 0
  }
  int e = 0;
  double m = __builtin_frexp(x, &e);  // x = m 2^e, e made even
  if (e & 1) {
    m *= 2.0;
    e -= 1;
  }
  return __builtin_ldexp(__kjit_rsqrt_dd({m, 0.0}), -e / 2);
}
static inline float rsqrtf(float x) {
  return (float)(1.0 / __builtin_sqrt((double)x));
}

// x as m 2^e3 with e3 a multiple of 3 (finite, nonzero x), so that a cube root splits exactly.
static inline double __kjit_split_for_cube_root(double x, int* e3) {
  int e = 0;
  const double m = __builtin_frexp(x, &e);
  const int r = ((e % 3) + 3) % 3;
  *e3 = e - r;
  return __builtin_ldexp(m, r);
}

// cbrt: the C library's, then one Newton step with the cube's residual formed exactly.
static inline double cbrt(double x) {
  if (x == 0.0 || !__builtin_isfinite(x)) {
    return __builtin_cbrt(x);
  }
  int e = 0;
  const double m = __kjit_split_for_cube_root(x, &e);
  const double y = __builtin_cbrt(m);
  const __kjit_dd sq = __kjit_two_prod(y, y);
  const __kjit_dd cube = __kjit_two_prod(sq.hi, y);
  const double residual = (cube.hi - m) + (cube.lo + sq.lo * y);  // y^3 - m
  return __builtin_ldexp(y - residual / (3.0 * sq.hi), e / 3);
}
static inline float cbrtf(float x) {
  return __builtin_cbrtf(x);
}
static inline float cbrt(float x) {
  return __builtin_cbrtf(x);
}

// tanh: near zero, sinh / cosh from their series (the parts past a and 1 are small, so their
// roundings hardly count) divided in double-double; further out, u / (u + 2) with u = expm1(2x),
// also divided in double-double. The C library's is off by up to 1.7 ulp; CUDA's bound is 1.
static inline double tanh(double x) {
  const double a = __builtin_fabs(x);
  if (__builtin_isnan(x)) {
    return x;
  }
  if (a > 22.0) {
    return __builtin_copysign(1.0, x);
  }
  __kjit_dd num;
  __kjit_dd den;
  if (a < 0.55) {
    const __kjit_dd sq = __kjit_two_prod(a, a);
    const double z = sq.hi;
    double s = 1.0;  // (sinh a - a) / (a^3 / 6)
    double c = 1.0;  // (cosh a - 1) / (a^2 / 2)
    for (int k = 9; k >= 2; --k) {
      s = 1.0 + z / ((2.0 * k) * (2.0 * k + 1.0)) * s;
      c = 1.0 + z / ((2.0 * k - 1.0) * (2.0 * k)) * c;
    }
    num = __kjit_two_sum(a, a * z * (1.0 / 6.0) * s);
    den = __kjit_two_sum(1.0, (sq.hi + sq.lo) * 0.5 * c);
  } else {
    const double u = __builtin_expm1(2.0 * a);
    num = {u, 0.0};
    den = __kjit_two_sum(u, 2.0);
  }
  const double q = num.hi / den.hi;
  const double rem = (__builtin_fma(-q, den.hi, num.hi) + num.lo) - q * den.lo;
  return __builtin_copysign(q + rem / den.hi, x);
}
static inline float tanhf(float x) {
  return (float)tanh((double)x);
}
static inline float tanh(float x) {
  return tanhf(x);
}

// tgamma: the C library's double one for floats too (its float one is off by up to 4 ulp, near
// CUDA's bound of 5).
static inline double tgamma(double x) {
  return __builtin_tgamma(x);
}
static inline float tgammaf(float x) {
  return (float)__builtin_tgamma((double)x);
}
static inline float tgamma(float x) {
  return tgammaf(x);
}

// ---- norms ------------------------------------------------------------------------------------
// sqrt(sum of squares) and its reciprocal, scaled by a power of two so that no square overflows
// or underflows, then corrected by one Newton step on the exact sum.
static inline double __kjit_norm(int n, const double* v, bool reciprocal) {
  double big = 0.0;
  bool nan = false;
  for (int i = 0; i < n; ++i) {
    if (__builtin_isinf(v[i])) {
      return reciprocal ? 0.0 : __builtin_inf();
    }
    nan = nan || __builtin_isnan(v[i]);
    big = __builtin_fmax(big, __builtin_fabs(v[i]));
  }
  if (nan) {
    return __builtin_nan("");
  }
  if (big == 0.0) {
    return reciprocal ? __builtin_inf() : 0.0;
  }
  int e = 0;
  (void)__builtin_frexp(big, &e);
  double scaled[64];
  const int m = n < 64 ? n : 64;
  double rest = 0.0;  // dimensions past 64, summed plainly (CUDA's norm() takes any count)
  for (int i = 0; i < n; ++i) {
    const double x = __builtin_ldexp(v[i], -e);
    if (i < m) {
      scaled[i] = x;
    } else {
      rest = __builtin_fma(x, x, rest);
    }
  }
  __kjit_dd s = __kjit_sum_squares(scaled, m);
  s = __kjit_two_sum(s.hi, s.lo + rest);
  const double r0 = __builtin_sqrt(s.hi);
  // sqrt(S) ~ r0 + (S - r0^2) / (2 r0), with S - r0^2 exact to first order.
  const double root = r0 + (__builtin_fma(-r0, r0, s.hi) + s.lo) / (2.0 * r0);
  if (!reciprocal) {
    return __builtin_ldexp(root, e);
  }
  return __builtin_ldexp(__kjit_rsqrt_dd(s), -e);
}
static inline double norm3d(double a, double b, double c) {
  const double v[3] = {a, b, c};
  return __kjit_norm(3, v, false);
}
static inline double norm4d(double a, double b, double c, double d) {
  const double v[4] = {a, b, c, d};
  return __kjit_norm(4, v, false);
}
static inline double rnorm3d(double a, double b, double c) {
  const double v[3] = {a, b, c};
  return __kjit_norm(3, v, true);
}
static inline double rnorm4d(double a, double b, double c, double d) {
  const double v[4] = {a, b, c, d};
  return __kjit_norm(4, v, true);
}
static inline double rhypot(double a, double b) {
  const double v[2] = {a, b};
  return __kjit_norm(2, v, true);
}
static inline double norm(int n, const double* v) {
  return __kjit_norm(n, v, false);
}
static inline double rnorm(int n, const double* v) {
  return __kjit_norm(n, v, true);
}
static inline float norm3df(float a, float b, float c) {
  return (float)norm3d(a, b, c);
}
static inline float norm4df(float a, float b, float c, float d) {
  return (float)norm4d(a, b, c, d);
}
static inline float rnorm3df(float a, float b, float c) {
  return (float)rnorm3d(a, b, c);
}
static inline float rnorm4df(float a, float b, float c, float d) {
  return (float)rnorm4d(a, b, c, d);
}
static inline float rhypotf(float a, float b) {
  return (float)rhypot(a, b);
}
// A float's square is exact in double, and no sum of them overflows there.
static inline double __kjit_sum_squares_f(int n, const float* v) {
  double s = 0.0;
  for (int i = 0; i < n; ++i) {
    if (__builtin_isinf(v[i])) {
      return __builtin_inf();
    }
    s = __builtin_fma((double)v[i], (double)v[i], s);
  }
  return s;
}
static inline float normf(int n, const float* v) {
  return (float)__builtin_sqrt(__kjit_sum_squares_f(n, v));
}
static inline float rnormf(int n, const float* v) {
  return (float)(1.0 / __builtin_sqrt(__kjit_sum_squares_f(n, v)));
}

// ---- reciprocal cube root ---------------------------------------------------------------------
static inline double rcbrt(double x) {
  if (x == 0.0 || __builtin_isinf(x) || __builtin_isnan(x)) {
    return 1.0 / __builtin_cbrt(x);  // +-inf, +-0, nan as CUDA gives them
  }
  int e = 0;
  const double m = __kjit_split_for_cube_root(x, &e);
  const double r0 = 1.0 / __builtin_cbrt(m);
  // Newton for r = m^(-1/3): r + r (1 - m r^3) / 3, with m r^3 from exact products.
  const __kjit_dd sq = __kjit_two_prod(r0, r0);
  const __kjit_dd cube = __kjit_two_prod(sq.hi, r0);
  const double cube_lo = __builtin_fma(sq.lo, r0, cube.lo);
  const __kjit_dd mc = __kjit_two_prod(m, cube.hi);
  const double residual = ((1.0 - mc.hi) - mc.lo) - m * cube_lo;
  return __builtin_ldexp(__builtin_fma(r0 * (1.0 / 3.0), residual, r0), -e / 3);
}
static inline float rcbrtf(float x) {
  return (float)(1.0 / __builtin_cbrt((double)x));
}

// ---- sin and cos of pi x ----------------------------------------------------------------------
// x is reduced exactly to a in [0, 1/4] (fmod and subtractions of nearby values are exact), and
// pi a is formed in double-double, so the only errors are those of sin and cos near zero.
static inline __kjit_dd __kjit_pi_times(double a) {  // pi a as hi + lo
  const double pi_hi = 3.141592653589793116;
  const double pi_lo = 1.2246467991473532e-16;
  const double t = pi_hi * a;
  return {t, __builtin_fma(pi_hi, a, -t) + pi_lo * a};
}
static inline double __kjit_sin_pi_small(double a) {  // a in [0, 1/4]
  const __kjit_dd t = __kjit_pi_times(a);
  return __builtin_fma(__builtin_cos(t.hi), t.lo, __builtin_sin(t.hi));
}
static inline double __kjit_cos_pi_small(double a) {  // a in [0, 1/4]
  const __kjit_dd t = __kjit_pi_times(a);
  return __builtin_fma(-__builtin_sin(t.hi), t.lo, __builtin_cos(t.hi));
}
static inline double sinpi(double x) {
  if (!__builtin_isfinite(x)) {
    return x - x;  // nan
  }
  double a = __builtin_fmod(__builtin_fabs(x), 2.0);
  double sign = x < 0 ? -1.0 : 1.0;
  if (a >= 1.0) {
    a -= 1.0;
    sign = -sign;
  }
  if (a > 0.5) {
    a = 1.0 - a;
  }
  const double s = a <= 0.25 ? __kjit_sin_pi_small(a) : __kjit_cos_pi_small(0.5 - a);
  return s == 0.0 ? __builtin_copysign(0.0, x) : sign * s;
}
static inline double cospi(double x) {
  if (!__builtin_isfinite(x)) {
    return x - x;
  }
  double a = __builtin_fmod(__builtin_fabs(x), 2.0);
  if (a > 1.0) {
    a = 2.0 - a;
  }
  double sign = 1.0;
  if (a > 0.5) {
    a = 1.0 - a;
    sign = -1.0;
  }
  if (a == 0.5) {
    return 0.0;
  }
  return sign * (a <= 0.25 ? __kjit_cos_pi_small(a) : __kjit_sin_pi_small(0.5 - a));
}
static inline void sincospi(double x, double* s, double* c) {
  *s = sinpi(x);
  *c = cospi(x);
}
__KJIT_VIA_DOUBLE(sinpi)
__KJIT_VIA_DOUBLE(cospi)
static inline void sincospif(float x, float* s, float* c) {
  *s = sinpif(x);
  *c = cospif(x);
}

// ---- the error function's relatives -----------------------------------------------------------
// erfcx(x) = exp(x^2) erfc(x): below 2, exp of the exact square (hi + lo) times erfc; from 2 on,
// Laplace's continued fraction, evaluated from its tail (150 terms reach double precision there),
// which needs no exp and no erfc that would underflow.
static inline double erfcx(double x) {
  if (__builtin_isnan(x)) {
    return x;
  }
  if (x >= 2.0) {
    if (x > 1e9) {
      return 0.56418958354775628695 / x;  // 1 / (sqrt(pi) x); the fraction's tail is below ulp
    }
    double f = x;
    for (int k = 150; k >= 1; --k) {
      f = x + (0.5 * k) / f;
    }
    return 0.56418958354775628695 / f;  // 1 / sqrt(pi)
  }
  const __kjit_dd sq = __kjit_two_prod(x, x);
  return __builtin_exp(sq.hi) * __builtin_exp(sq.lo) * __builtin_erfc(x);
}
__KJIT_VIA_DOUBLE(erfcx)

// normcdf(x) = erfc(-x / sqrt 2) / 2, with the argument's rounding error corrected to first order
// (it would cost up to ~2 x^2 ulps far in the tail).
static inline double normcdf(double x) {
  if (!__builtin_isfinite(x)) {
    return __builtin_isnan(x) ? x : (x > 0 ? 1.0 : 0.0);
  }
  const double s_hi = 0.70710678118654757;  // 1 / sqrt 2, rounded
  const double s_lo = -4.8336466567264567e-17;
  const double t = -x * s_hi;
  const double t_lo = __builtin_fma(-x, s_hi, -t) - x * s_lo;
  const double e = __builtin_erfc(t);
  // erfc(t + d) = erfc(t) - 2/sqrt(pi) exp(-t^2) d
  return 0.5 * __builtin_fma(-1.1283791670955126 * __builtin_exp(-t * t), t_lo, e);
}
static inline float normcdff(float x) {
  return (float)(0.5 * __builtin_erfc(-(double)x * 0.70710678118654752440));
}

// erfinv and erfcinv: a starting guess (Giles' single-precision approximation), then Newton on
// erf near zero and on log(erfc) elsewhere, whose residual keeps its relative accuracy however
// small erfc gets.
static inline double __kjit_erfinv_guess(double x) {
  double w = -__builtin_log((1.0 - x) * (1.0 + x));
  double p;
  if (w < 5.0) {
    w -= 2.5;
    p = 2.81022636e-08;
    p = 3.43273939e-07 + p * w;
    p = -3.5233877e-06 + p * w;
    p = -4.39150654e-06 + p * w;
    p = 0.00021858087 + p * w;
    p = -0.00125372503 + p * w;
    p = -0.00417768164 + p * w;
    p = 0.246640727 + p * w;
    p = 1.50140941 + p * w;
  } else {
    w = __builtin_sqrt(w) - 3.0;
    p = -0.000200214257;
    p = 0.000100950558 + p * w;
    p = 0.00134934322 + p * w;
    p = -0.00367342844 + p * w;
    p = 0.00573950773 + p * w;
    p = -0.0076224613 + p * w;
    p = 0.00943887047 + p * w;
    p = 1.00167406 + p * w;
    p = 2.83297682 + p * w;
  }
  return p * x;
}
// y >= 0 with erfc(y) = q, q in (0, 1/2].
static inline double __kjit_erfcinv_tail(double q) {
  double y = q < 1e-300 ? __builtin_sqrt(-__builtin_log(q)) : __kjit_erfinv_guess(1.0 - q);
  const double log_q = __builtin_log(q);
  for (int i = 0; i < 6; ++i) {
    // f(y) = log erfcx(y) - y^2 - log q; f'(y) = -2 / (sqrt(pi) erfcx(y)) (+ 2y - 2y).
    const double ex = erfcx(y);
    const __kjit_dd sq = __kjit_two_prod(y, y);
    const double f = ((__builtin_log(ex) - log_q) - sq.hi) - sq.lo;
    const double step = f * ex * 0.88622692545275801365;  // sqrt(pi) / 2
    y += step;
    if (__builtin_fabs(step) <= 1e-17 * y) {
      break;
    }
  }
  return y;
}
// |x| <= 1/2: Newton on erf, whose derivative is near 2/sqrt(pi) there.
static inline double __kjit_erfinv_center(double x) {
  double y = __kjit_erfinv_guess(x);
  for (int i = 0; i < 3; ++i) {
    y -= (__builtin_erf(y) - x) * 0.88622692545275801365 * __builtin_exp(y * y);
  }
  return y;
}
static inline double erfinv(double x) {
  const double a = __builtin_fabs(x);
  if (__builtin_isnan(x) || a > 1.0) {
    return __builtin_nan("");
  }
  if (a == 1.0) {
    return __builtin_copysign(__builtin_inf(), x);
  }
  if (a <= 0.5) {
    return __kjit_erfinv_center(x);
  }
  return __builtin_copysign(__kjit_erfcinv_tail(1.0 - a), x);  // 1 - a is exact
}
static inline double erfcinv(double q) {
  if (__builtin_isnan(q) || q < 0.0 || q > 2.0) {
    return __builtin_nan("");
  }
  if (q == 0.0) {
    return __builtin_inf();
  }
  if (q == 2.0) {
    return -__builtin_inf();
  }
  if (q >= 0.5 && q <= 1.5) {
    return __kjit_erfinv_center(1.0 - q);  // exact
  }
  return q < 0.5 ? __kjit_erfcinv_tail(q) : -__kjit_erfcinv_tail(2.0 - q);
}
static inline double normcdfinv(double p) {
  return -1.4142135623730951 * erfcinv(2.0 * p);
}
__KJIT_VIA_DOUBLE(erfinv)
__KJIT_VIA_DOUBLE(erfcinv)
__KJIT_VIA_DOUBLE(normcdfinv)

// ---- from the C library: Bessel functions, lgamma -------------------------------------------
// glibc's, resolved when the kernel is loaded; an asm label names each, so that these wrappers can
// take the C names.
#define __KJIT_LIBM(R, NAME, PARAMS, ARGS)    \
  R __kjit_libm_##NAME PARAMS __asm__(#NAME); \
  static inline R NAME PARAMS {               \
    return __kjit_libm_##NAME ARGS;           \
  }
__KJIT_LIBM(double, j0, (double x), (x))
__KJIT_LIBM(double, j1, (double x), (x))
__KJIT_LIBM(double, jn, (int n, double x), (n, x))
__KJIT_LIBM(double, y0, (double x), (x))
__KJIT_LIBM(double, y1, (double x), (x))
__KJIT_LIBM(double, yn, (int n, double x), (n, x))
// lgamma: the reentrant form, since the plain one writes the sign to the global signgam, which
// the threads of a block would race on.
__KJIT_LIBM(double, lgamma_r, (double x, int* sign), (x, sign))
__KJIT_LIBM(float, lgammaf_r, (float x, int* sign), (x, sign))
#undef __KJIT_LIBM
static inline double lgamma(double x) {
  int sign = 0;
  return lgamma_r(x, &sign);
}
static inline float lgammaf(float x) {
  int sign = 0;
  return lgammaf_r(x, &sign);
}
static inline float lgamma(float x) {
  return lgammaf(x);
}
__KJIT_VIA_DOUBLE(j0)
__KJIT_VIA_DOUBLE(j1)
__KJIT_VIA_DOUBLE(y0)
__KJIT_VIA_DOUBLE(y1)
static inline float jnf(int n, float x) {
  return (float)jn(n, x);
}
static inline float ynf(int n, float x) {
  return (float)yn(n, x);
}

// Modified Bessel functions of order 0 and 1: below 25 the power series (all terms of one sign),
// summed in double-double so that its many roundings do not add up; above, the asymptotic series
// of e^x / sqrt(2 pi x), with e^x in two halves so that it overflows only where the result does.
static inline __kjit_dd __kjit_dd_normal(double hi, double lo) {
  const double s = hi + lo;
  return {s, lo - (s - hi)};
}
static inline double __kjit_bessel_i(int order, double x) {
  const double a = __builtin_fabs(x);
  if (__builtin_isnan(x)) {
    return x;
  }
  double result;
  if (a < 25.0) {
    const __kjit_dd sq = __kjit_two_prod(a, a);
    const double qh = 0.25 * sq.hi;  // x^2 / 4, exactly, as qh + ql
    const double ql = 0.25 * sq.lo;
    __kjit_dd term{order == 0 ? 1.0 : 0.5 * a, 0.0};
    __kjit_dd sum = term;
    for (int k = 1; k < 200 && term.hi > 1e-34 * sum.hi; ++k) {
      const __kjit_dd p = __kjit_two_prod(term.hi, qh);  // term * q
      term = __kjit_dd_normal(p.hi, p.lo + term.hi * ql + term.lo * qh);
      const double d = (double)k * (double)(k + order);  // / d
      const double h = term.hi / d;
      const double rem = __builtin_fma(-h, d, term.hi);
      term = __kjit_dd_normal(h, (rem + term.lo) / d);
      const __kjit_dd t = __kjit_two_sum(sum.hi, term.hi);
      sum = __kjit_dd_normal(t.hi, t.lo + sum.lo + term.lo);
    }
    result = sum.hi + sum.lo;
  } else {
    const double mu = 4.0 * order * order;
    const double eight_x = 8.0 * a;
    double term = 1.0;
    double tail = 0.0;  // the terms after the first, summed apart: each would round onto 1
    for (int k = 1; k <= 60; ++k) {
      term *= -(mu - (2.0 * k - 1.0) * (2.0 * k - 1.0)) / (k * eight_x);
      tail += term;
      if (__builtin_fabs(term) < 1e-20) {
        break;
      }
    }
    const __kjit_dd total = __kjit_two_sum(1.0, tail);
    const double sum = total.hi;
    // e^x sum / sqrt(2 pi x), with 1 / sqrt(2 pi) and 1 / sqrt(x) in double-double.
    const double c_hi = 0.3989422804014327;  // 1 / sqrt(2 pi)
    const double c_lo = -2.4923272022777254e-17;
    const double r = __kjit_rsqrt_dd({a, 0.0});
    const __kjit_dd cr = __kjit_two_prod(c_hi, r);
    const __kjit_dd scale = __kjit_two_prod(cr.hi, sum);
    const double scale_lo = scale.lo + (cr.lo + c_lo * r) * sum + cr.hi * total.lo;
    if (a < 709.0) {
      const double e = __builtin_exp(a);
      result = __builtin_fma(e, scale.hi, e * scale_lo);
    } else {  // e^x overflows before the result does: in two halves
      const double half = __builtin_exp(0.5 * a);
      result = half * __builtin_fma(half, scale.hi, half * scale_lo);
    }
  }
  return order == 1 && x < 0 ? -result : result;
}
static inline double cyl_bessel_i0(double x) {
  return __kjit_bessel_i(0, x);
}
static inline double cyl_bessel_i1(double x) {
  return __kjit_bessel_i(1, x);
}
__KJIT_VIA_DOUBLE(cyl_bessel_i0)
__KJIT_VIA_DOUBLE(cyl_bessel_i1)

static inline float fdividef(float x, float y) {
  return x / y;
}
#undef __KJIT_VIA_DOUBLE

// CUDA's float overloads of sincos and sincospi, and its fast tanh (CUDA 12.8), here tanhf.
static inline void sincos(float x, float* s, float* c) {
  sincosf(x, s, c);
}
static inline void sincospi(float x, float* s, float* c) {
  sincospif(x, s, c);
}
static inline float __tanhf(float x) {
  return tanhf(x);
}
