// CUDA's Math API against a high-precision host reference, with CUDA 13's documented maximum
// errors (stated against the correctly rounded result, so half an ulp more against the exact
// one): every function of the table runs on random arguments of its domain, and its error is
// measured in units in the last place of the exact result (long double references; for the
// inverse error functions, one Newton step in long double from the device's answer). The
// rounding-mode operations and conversions are checked exactly, the integer intrinsics (byte
// permutes, funnel shifts, absolute differences, halving adds, __dp4a and __dp2a) bit for bit.
#include "test_support.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <limits>
#include <random>
#include <string>
#include <string_view>
#include <vector>

namespace kjit::test {
namespace {

using Real = long double;
using Ref = std::function<Real(Real, Real, Real)>;

struct Case {
  std::string expr;  // the device expression, of a, b and c
  bool dbl;          // double precision (else float)
  int arity;
  Real lo, hi;  // the domain of every argument
  double ulps;  // CUDA's documented maximum error; with `absolute`, an absolute error instead
  Ref ref;
  bool absolute = false;
};

constexpr Real kPi = 3.141592653589793238462643383279502884L;
constexpr Real kSqrt2 = 1.414213562373095048801688724209698079L;
// CUDA states its bounds against the correctly rounded result, which is itself up to half an ulp
// from the exact one; the long double reference may be off by 2^-11 ulp of a double.
constexpr double kSlack = 0.5 + 1e-3;
constexpr double kCorrectlyRounded = 0;
constexpr Real kTwoOverSqrtPi = 1.128379167095512573896158903121545172L;

/// sin(pi x) with x reduced exactly to [0, 1/4] first.
Real sinpi_ref(Real x) {
  Real a = std::fmod(std::fabs(x), 2.0L);
  Real sign = x < 0 ? -1 : 1;
  if (a >= 1) {
    a -= 1;
    sign = -sign;
  }
  if (a > 0.5L) {
    a = 1 - a;
  }
  return sign * (a <= 0.25L ? std::sin(kPi * a) : std::cos(kPi * (0.5L - a)));
}
Real cospi_ref(Real x) {
  Real a = std::fmod(std::fabs(x), 2.0L);
  if (a > 1) {
    a = 2 - a;
  }
  Real sign = 1;
  if (a > 0.5L) {
    a = 1 - a;
    sign = -1;
  }
  return sign * (a <= 0.25L ? std::cos(kPi * a) : std::sin(kPi * (0.5L - a)));
}
/// y with erfc(y) = q, refined by Newton from `y` (the device's answer): near zero on erf, in
/// the tails on erfc, so that the residual keeps its relative accuracy.
Real erfcinv_ref(Real q, Real y) {
  for (int i = 0; i < 3; ++i) {
    const Real slope = kTwoOverSqrtPi * std::exp(-y * y);
    y += q < 0.5L || q > 1.5L ? (std::erfc(y) - q) / slope : (std::erf(y) - (1 - q)) / -slope;
  }
  return y;
}

std::vector<Case> cases() {
  using std::exp;
  const auto f1 = [](Real (*f)(Real)) { return Ref([f](Real a, Real, Real) { return f(a); }); };
  const auto f2 = [](Real (*f)(Real, Real)) {
    return Ref([f](Real a, Real b, Real) { return f(a, b); });
  };
  std::
      vector<Case>
          c =
              {
                  // single precision
                  {"sqrtf(a)", false, 1, 0, 1e30L, kCorrectlyRounded, f1(std::sqrt)},
                  {"rsqrtf(a)", false, 1, 1e-30L, 1e30L, 2,
                   [](Real a, Real, Real) { return 1 / std::sqrt(a); }},
                  {"cbrtf(a)", false, 1, -1e30L, 1e30L, 1, f1(std::cbrt)},
                  {"rcbrtf(a)", false, 1, -1e30L, 1e30L, 1,
                   [](Real a, Real, Real) { return 1 / std::cbrt(a); }},
                  {"hypotf(a, b)", false, 2, -1e18L, 1e18L, 3, f2(std::hypot)},
                  {"rhypotf(a, b)", false, 2, -1e18L, 1e18L, 2,
                   [](Real a, Real b, Real) { return 1 / std::hypot(a, b); }},
                  {"norm3df(a, b, c)", false, 3, -1e18L, 1e18L, 2,
                   [](Real a, Real b, Real c) { return std::sqrt(a * a + b * b + c * c); }},
                  {"rnorm3df(a, b, c)", false, 3, -1e18L, 1e18L, 2,
                   [](Real a, Real b, Real c) { return 1 / std::sqrt(a * a + b * b + c * c); }},
                  {"norm4df(a, b, c, a - b)", false, 3, -1e18L, 1e18L, 2,
                   [](Real a, Real b, Real c) {
                     const Real d = static_cast<float>(a - b);
                     return std::sqrt(a * a + b * b + c * c + d * d);
                   }},
                  {"rnorm4df(a, b, c, a - b)", false, 3, -1e18L, 1e18L, 2,
                   [](Real a, Real b, Real c) {
                     const Real d = static_cast<float>(a - b);
                     return 1 / std::sqrt(a * a + b * b + c * c + d * d);
                   }},
                  {"expf(a)", false, 1, -80, 80, 2, f1(std::exp)},
                  {"exp2f(a)", false, 1, -120, 120, 2, f1(std::exp2)},
                  {"exp10f(a)", false, 1, -30, 30, 2,
                   [](Real a, Real, Real) { return std::pow(10.0L, a); }},
                  {"expm1f(a)", false, 1, -20, 20, 1, f1(std::expm1)},
                  {"logf(a)", false, 1, 1e-30L, 1e30L, 1, f1(std::log)},
                  {"log2f(a)", false, 1, 1e-30L, 1e30L, 1, f1(std::log2)},
                  {"log10f(a)", false, 1, 1e-30L, 1e30L, 2, f1(std::log10)},
                  {"log1pf(a)", false, 1, -0.9L, 1e6L, 1, f1(std::log1p)},
                  {"sinf(a)", false, 1, -100, 100, 2, f1(std::sin)},
                  {"cosf(a)", false, 1, -100, 100, 2, f1(std::cos)},
                  {"tanf(a)", false, 1, -1.5L, 1.5L, 4, f1(std::tan)},
                  {"sinpif(a)", false, 1, -100, 100, 1,
                   [](Real a, Real, Real) { return sinpi_ref(a); }},
                  {"cospif(a)", false, 1, -100, 100, 1,
                   [](Real a, Real, Real) { return cospi_ref(a); }},
                  {"asinf(a)", false, 1, -1, 1, 2, f1(std::asin)},
                  {"acosf(a)", false, 1, -1, 1, 2, f1(std::acos)},
                  {"atanf(a)", false, 1, -100, 100, 2, f1(std::atan)},
                  {"atan2f(a, b)", false, 2, -100, 100, 3, f2(std::atan2)},
                  {"sinhf(a)", false, 1, -80, 80, 3, f1(std::sinh)},
                  {"coshf(a)", false, 1, -80, 80, 2, f1(std::cosh)},
                  {"tanhf(a)", false, 1, -20, 20, 2, f1(std::tanh)},
                  {"asinhf(a)", false, 1, -1e10L, 1e10L, 3, f1(std::asinh)},
                  {"acoshf(a)", false, 1, 1, 1e10L, 4, f1(std::acosh)},
                  {"atanhf(a)", false, 1, -0.999L, 0.999L, 3, f1(std::atanh)},
                  {"powf(a, b)", false, 2, 0.1L, 10, 4, f2(std::pow)},
                  {"erff(a)", false, 1, -5, 5, 2, f1(std::erf)},
                  {"erfcf(a)", false, 1, -5, 9, 4, f1(std::erfc)},
                  {"erfcxf(a)", false, 1, -9, 100, 4,
                   [](Real a, Real, Real) { return std::exp(a * a) * std::erfc(a); }},
                  {"normcdff(a)", false, 1, -14, 8, 5,
                   [](Real a, Real, Real) { return std::erfc(-a / kSqrt2) / 2; }},
                  {"lgammaf(a)", false, 1, 2.5L, 1e4L, 6, f1(std::lgamma)},
                  {"tgammaf(a)", false, 1, 0.1L, 30, 5, f1(std::tgamma)},
                  {"fmodf(a, b)", false, 2, -1e6L, 1e6L, 0, f2(std::fmod)},
                  {"remainderf(a, b)", false, 2, -1e6L, 1e6L, 0, f2(std::remainder)},
                  {"fdimf(a, b)", false, 2, -1e6L, 1e6L, kCorrectlyRounded, f2(std::fdim)},
                  {"cyl_bessel_i0f(a)", false, 1, -80, 80, 6,
                   [](Real a, Real, Real) { return std::cyl_bessel_i(0.0L, std::fabs(a)); }},
                  {"cyl_bessel_i1f(a)", false, 1, 0, 80, 6,
                   [](Real a, Real, Real) { return std::cyl_bessel_i(1.0L, a); }},
                  // double precision
                  {"sqrt(a)", true, 1, 0, 1e300L, kCorrectlyRounded, f1(std::sqrt)},
                  {"rsqrt(a)", true, 1, 1e-300L, 1e300L, 1,
                   [](Real a, Real, Real) { return 1 / std::sqrt(a); }},
                  {"cbrt(a)", true, 1, -1e300L, 1e300L, 1, f1(std::cbrt)},
                  {"rcbrt(a)", true, 1, -1e300L, 1e300L, 1,
                   [](Real a, Real, Real) { return 1 / std::cbrt(a); }},
                  {"hypot(a, b)", true, 2, -1e150L, 1e150L, 2, f2(std::hypot)},
                  {"rhypot(a, b)", true, 2, -1e150L, 1e150L, 1,
                   [](Real a, Real b, Real) { return 1 / std::hypot(a, b); }},
                  {"norm3d(a, b, c)", true, 3, -1e150L, 1e150L, 2,
                   [](Real a, Real b, Real c) { return std::sqrt(a * a + b * b + c * c); }},
                  {"rnorm3d(a, b, c)", true, 3, -1e150L, 1e150L, 2,
                   [](Real a, Real b, Real c) { return 1 / std::sqrt(a * a + b * b + c * c); }},
                  {"norm4d(a, b, c, a - b)", true, 3, -1e150L, 1e150L, 2,
                   [](Real a, Real b, Real c) {
                     const Real d = static_cast<double>(a - b);
                     return std::sqrt(a * a + b * b + c * c + d * d);
                   }},
                  {"rnorm4d(a, b, c, a - b)", true, 3, -1e150L, 1e150L, 2,
                   [](Real a, Real b, Real c) {
                     const Real d = static_cast<double>(a - b);
                     return 1 / std::sqrt(a * a + b * b + c * c + d * d);
                   }},
                  {"exp(a)", true, 1, -700, 700, 1, f1(std::exp)},
                  {"exp2(a)", true, 1, -1000, 1000, 1, f1(std::exp2)},
                  {"exp10(a)", true, 1, -300, 300, 1,
                   [](Real a, Real, Real) { return std::pow(10.0L, a); }},
                  {"expm1(a)", true, 1, -30, 30, 1, f1(std::expm1)},
                  {"log(a)", true, 1, 1e-300L, 1e300L, 1, f1(std::log)},
                  {"log2(a)", true, 1, 1e-300L, 1e300L, 1, f1(std::log2)},
                  {"log10(a)", true, 1, 1e-300L, 1e300L, 1, f1(std::log10)},
                  {"log1p(a)", true, 1, -0.9L, 1e10L, 1, f1(std::log1p)},
                  {"sin(a)", true, 1, -100, 100, 2, f1(std::sin)},
                  {"cos(a)", true, 1, -100, 100, 2, f1(std::cos)},
                  {"tan(a)", true, 1, -1.5L, 1.5L, 2, f1(std::tan)},
                  {"sinpi(a)", true, 1, -100, 100, 2,
                   [](Real a, Real, Real) { return sinpi_ref(a); }},
                  {"cospi(a)", true, 1, -100, 100, 2,
                   [](Real a, Real, Real) { return cospi_ref(a); }},
                  {"asin(a)", true, 1, -1, 1, 2, f1(std::asin)},
                  {"acos(a)", true, 1, -1, 1, 2, f1(std::acos)},
                  {"atan(a)", true, 1, -100, 100, 2, f1(std::atan)},
                  {"atan2(a, b)", true, 2, -100, 100, 2, f2(std::atan2)},
                  {"sinh(a)", true, 1, -700, 700, 2, f1(std::sinh)},
                  {"cosh(a)", true, 1, -700, 700, 1, f1(std::cosh)},
                  {"tanh(a)", true, 1, -20, 20, 1, f1(std::tanh)},
                  {"asinh(a)", true, 1, -1e100L, 1e100L, 3, f1(std::asinh)},
                  {"acosh(a)", true, 1, 1, 1e100L, 3, f1(std::acosh)},
                  {"atanh(a)", true, 1, -0.999L, 0.999L, 2, f1(std::atanh)},
                  {"pow(a, b)", true, 2, 0.1L, 10, 2, f2(std::pow)},
                  {"erf(a)", true, 1, -6, 6, 2, f1(std::erf)},
                  {"erfc(a)", true, 1, -6, 26, 5, f1(std::erfc)},
                  {"erfcx(a)", true, 1, -10, 25, 4,
                   [](Real a, Real, Real) { return std::exp(a * a) * std::erfc(a); }},
                  {"normcdf(a)", true, 1, -30, 8, 5,
                   [](Real a, Real, Real) { return std::erfc(-a / kSqrt2) / 2; }},
                  {"lgamma(a)", true, 1, 2.5L, 1e4L, 4, f1(std::lgamma)},
                  {"tgamma(a)", true, 1, 0.1L, 100, 10, f1(std::tgamma)},
                  {"fmod(a, b)", true, 2, -1e6L, 1e6L, 0, f2(std::fmod)},
                  {"remainder(a, b)", true, 2, -1e6L, 1e6L, 0, f2(std::remainder)},
                  {"cyl_bessel_i0(a)", true, 1, -700, 700, 6,
                   [](Real a, Real, Real) { return std::cyl_bessel_i(0.0L, std::fabs(a)); }},
                  {"cyl_bessel_i1(a)", true, 1, 0, 700, 6,
                   [](Real a, Real, Real) { return std::cyl_bessel_i(1.0L, a); }},
                  // Bessel functions of the first and second kind past 8, where CUDA bounds the
                  // absolute error
                  {"j0f(a)", false, 1, 8, 100, 2.2e-6, f1(j0l), true},
                  {"j1f(a)", false, 1, 8, 100, 2.2e-6, f1(j1l), true},
                  {"y0f(a)", false, 1, 8, 100, 2.2e-6, f1(y0l), true},
                  {"y1f(a)", false, 1, 8, 100, 2.2e-6, f1(y1l), true},
                  {"j0(a)", true, 1, 8, 100, 5e-12, f1(j0l), true},
                  {"j1(a)", true, 1, 8, 100, 5e-12, f1(j1l), true},
                  {"y0(a)", true, 1, 8, 100, 5e-12, f1(y0l), true},
                  {"y1(a)", true, 1, 8, 100, 5e-12, f1(y1l), true},
                  // jn and yn: CUDA states the bounds for n = 128 (and for yn where |x| > 1.5 n); n
                  // = 3 here.
                  {"jnf(3, a)", false, 1, 8, 100, 2.2e-6,
                   [](Real a, Real, Real) { return jnl(3, a); }, true},
                  {"ynf(3, a)", false, 1, 8, 100, 2.2e-6,
                   [](Real a, Real, Real) { return ynl(3, a); }, true},
                  {"jn(3, a)", true, 1, 8, 100, 5e-12, [](Real a, Real, Real) { return jnl(3, a); },
                   true},
                  {"yn(3, a)", true, 1, 8, 100, 5e-12, [](Real a, Real, Real) { return ynl(3, a); },
                   true},
              };
  return c;
}

/// The inverse error functions: their references start from the device's answer (`got`).
struct InverseCase {
  std::string expr;
  bool dbl;
  Real lo, hi;
  double ulps;
  std::function<Real(Real, Real)> ref;  // (argument, device answer)
};

std::vector<InverseCase> inverse_cases() {
  const Real inf = std::numeric_limits<Real>::infinity();
  const auto erfinv = [inf](Real x, Real y) {
    if (std::fabs(x) == 1) {
      return std::copysign(inf, x);
    }
    if (std::fabs(x) > 0.5L) {  // in the tails, on erfc of 1 - |x|, which is exact
      return std::copysign(erfcinv_ref(1 - std::fabs(x), std::fabs(y)), x);
    }
    for (int i = 0; i < 3; ++i) {  // near zero, on erf of x itself
      y -= (std::erf(y) - x) / (kTwoOverSqrtPi * std::exp(-y * y));
    }
    return y;
  };
  const auto erfcinv = [inf](Real q, Real y) {
    return q == 0 ? inf : (q == 2 ? -inf : erfcinv_ref(q, y));
  };
  const auto normcdfinv = [inf](Real p, Real y) {
    return p == 0 ? -inf : (p == 1 ? inf : -kSqrt2 * erfcinv_ref(2 * p, -y / kSqrt2));
  };
  return {
      {"erfinvf(a)", false, -1, 1, 2, erfinv},        {"erfcinvf(a)", false, 0, 2, 4, erfcinv},
      {"normcdfinvf(a)", false, 0, 1, 5, normcdfinv}, {"erfinv(a)", true, -1, 1, 5, erfinv},
      {"erfcinv(a)", true, 0, 2, 6, erfcinv},         {"normcdfinv(a)", true, 0, 1, 8, normcdfinv},
  };
}

/// |got - exact| in units in the last place of `exact` in the result's precision (digits bits).
double ulp_error(Real got, Real exact, int digits, int min_exponent) {
  if (std::isnan(exact)) {
    return std::isnan(got) ? 0 : 1e9;
  }
  if (std::isinf(exact) || std::isinf(got)) {
    return got == exact ? 0 : 1e9;
  }
  int e = 0;
  (void)std::frexp(exact, &e);
  const Real ulp = std::ldexp(1.0L, std::max(e, min_exponent) - digits);
  return static_cast<double>(std::fabs(got - exact) / ulp);
}

class MathApi : public DeviceTest {};

/// A kernel per case: out[i] = expr of a[i], b[i], c[i].
std::string kernels_for(const std::vector<std::string>& exprs, const std::vector<bool>& dbl) {
  std::string source;
  for (std::size_t i = 0; i < exprs.size(); ++i) {
    const std::string t = dbl[i] ? "double" : "float";
    source += "__global__ void k" + std::to_string(i) + "(const " + t + "* x, const " + t +
              "* y, const " + t + "* z, " + t +
              "* out, int n) {\n  const int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
              "  if (i >= n) return;\n  const " +
              t + " a = x[i], b = y[i], c = z[i];\n  out[i] = " + exprs[i] + ";\n}\n";
  }
  return source;
}

template <class T>
std::vector<T> arguments(DeviceTest& t, std::size_t n, Real lo, Real hi) {
  // Half uniform, half spread over the binades of the domain (log-uniform), so that small
  // arguments are tried too.
  std::vector<T> v = t.random_vector<T>(n, static_cast<T>(lo), static_cast<T>(hi));
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  for (std::size_t i = 0; i < n; i += 2) {
    const Real top = std::max(std::fabs(lo), std::fabs(hi));
    const Real bottom = std::max<Real>(top * 1e-12L, std::numeric_limits<T>::min());
    const Real mag = std::exp(std::log(bottom) + unit(t.rng) * (std::log(top) - std::log(bottom)));
    const Real candidate = unit(t.rng) < 0.5 ? -mag : mag;
    if (candidate >= lo && candidate <= hi) {
      v[i] = static_cast<T>(candidate);
    }
  }
  return v;
}

template <class T>
void run_case(MathApi& t, const Program& p, std::size_t index, const std::string& expr, int arity,
              Real lo, Real hi, double bound,
              const std::function<Real(Real, Real, Real, Real)>& ref, bool absolute = false) {
  constexpr std::size_t n = 2000;
  const auto a = arguments<T>(t, n, lo, hi);
  const auto b = arity >= 2 ? arguments<T>(t, n, lo, hi) : std::vector<T>(n, T(0));
  const auto c = arity >= 3 ? arguments<T>(t, n, lo, hi) : std::vector<T>(n, T(0));
  auto out = t.poisoned<T>(n);
  p.kernel<const T*, const T*, const T*, T*, int>("k" + std::to_string(index), t.device)
      .launch(LaunchConfig::for_elements(n, 128), t.device.upload(a), t.device.upload(b),
              t.device.upload(c), out, static_cast<int>(n));
  const auto got = out.download();
  double worst = 0;
  std::size_t at = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const Real exact = ref(a[i], b[i], c[i], got[i]);
    const double e = absolute ? static_cast<double>(std::fabs(got[i] - exact))
                              : ulp_error(got[i], exact, std::numeric_limits<T>::digits,
                                          std::numeric_limits<T>::min_exponent);
    if (e > worst) {
      worst = e;
      at = i;
    }
  }
  EXPECT_LE(worst, absolute ? bound : bound + kSlack)
      << expr << " at a=" << static_cast<double>(a[at]) << " b=" << static_cast<double>(b[at])
      << ": " << got[at];
  if (absolute) {
    std::printf("  %-26s worst %.3g absolute (bound %g)\n", expr.c_str(), worst, bound);
  } else {
    std::printf("  %-26s worst %.3f ulp (bound %g)\n", expr.c_str(), worst, bound);
  }
}

TEST_F(MathApi, EveryFunctionWithinCudasErrorBound) {
  KJIT_SEED_TRACE();
  const std::vector<Case> table = cases();
  const std::vector<InverseCase> inverse = inverse_cases();
  std::vector<std::string> exprs;
  std::vector<bool> dbl;
  for (const Case& c : table) {
    exprs.push_back(c.expr);
    dbl.push_back(c.dbl);
  }
  for (const InverseCase& c : inverse) {
    exprs.push_back(c.expr);
    dbl.push_back(c.dbl);
  }
  CompileOptions options;
  for (std::size_t i = 0; i < exprs.size(); ++i) {
    options.kernels.push_back("k" + std::to_string(i));
  }
  const Program p = Program::from_source("math_api.cu", kernels_for(exprs, dbl), options);
  for (std::size_t i = 0; i < table.size(); ++i) {
    const Case& c = table[i];
    const auto ref = [&](Real a, Real b, Real x, Real) { return c.ref(a, b, x); };
    if (c.dbl) {
      run_case<double>(*this, p, i, c.expr, c.arity, c.lo, c.hi, c.ulps, ref, c.absolute);
    } else {
      run_case<float>(*this, p, i, c.expr, c.arity, c.lo, c.hi, c.ulps, ref, c.absolute);
    }
  }
  for (std::size_t j = 0; j < inverse.size(); ++j) {
    const InverseCase& c = inverse[j];
    const auto ref = [&](Real a, Real, Real, Real got) { return c.ref(a, got); };
    if (c.dbl) {
      run_case<double>(*this, p, table.size() + j, c.expr, 1, c.lo, c.hi, c.ulps, ref);
    } else {
      run_case<float>(*this, p, table.size() + j, c.expr, 1, c.lo, c.hi, c.ulps, ref);
    }
  }
}

// ---- rounding modes and conversions, checked exactly ---------------------------------------

using Quad = __float128;  // exact for every product and sum of these arguments

/// Whether `r` is `exact` rounded in `mode` (0 rn, 1 rz, 2 ru, 3 rd) to T.
template <class T>
bool rounded_right(T r, Quad exact, int mode) {
  const T inf = std::numeric_limits<T>::infinity();
  if (std::isinf(r)) {  // overflowed: right in rn beyond the largest value and half its ulp
    const T big = std::numeric_limits<T>::max();
    const Quad edge = Quad(big) + (Quad(big) - Quad(std::nextafter(big, T(0)))) / 2;
    const Quad magnitude = exact < 0 ? -exact : exact;
    const bool same_sign = (r > 0) == (exact > 0);
    return same_sign &&
           (mode == 0 ? magnitude >= edge
                      : (mode == 2 ? r > 0 : (mode == 3 ? r < 0 : false)) && magnitude > Quad(big));
  }
  const Quad q = r;
  const Quad below = std::nextafter(r, -inf);
  const Quad above = std::nextafter(r, inf);
  switch (mode) {
    case 1:
      return exact >= 0 ? (q <= exact && above > exact) : (q >= exact && below < exact);
    case 2:
      return q >= exact && below < exact;
    case 3:
      return q <= exact && above > exact;
    default: {  // nearest: no neighbour is nearer
      const Quad d = q > exact ? q - exact : exact - q;
      const Quad db = below > exact ? below - exact : exact - below;
      const Quad da = above > exact ? above - exact : exact - above;
      return d <= db && d <= da;
    }
  }
}

TEST_F(MathApi, RoundingModesGiveTheExactResultRoundedThatWay) {
  KJIT_SEED_TRACE();
  // For each pair: add, sub, mul, div, fma (a b + c) in rn, rz, ru, rd (float, then double), and
  // sqrt, rcp of a.
  auto k = Program::from_source("rounding.cu", R"(
    #define ALL(T, OUT, A, B, C, P, D)                                                     \
      OUT[0] = P##add_rn(A, B); OUT[1] = P##add_rz(A, B); OUT[2] = P##add_ru(A, B);      \
      OUT[3] = P##add_rd(A, B); OUT[4] = P##sub_rn(A, B); OUT[5] = P##sub_rz(A, B);      \
      OUT[6] = P##sub_ru(A, B); OUT[7] = P##sub_rd(A, B); OUT[8] = P##mul_rn(A, B);      \
      OUT[9] = P##mul_rz(A, B); OUT[10] = P##mul_ru(A, B); OUT[11] = P##mul_rd(A, B);    \
      OUT[12] = P##div_rn(A, B); OUT[13] = P##div_rz(A, B); OUT[14] = P##div_ru(A, B);   \
      OUT[15] = P##div_rd(A, B); OUT[16] = D##_rn(A, B, C); OUT[17] = D##_rz(A, B, C);   \
      OUT[18] = D##_ru(A, B, C); OUT[19] = D##_rd(A, B, C); OUT[20] = P##sqrt_rn(A);     \
      OUT[21] = P##sqrt_rz(A); OUT[22] = P##sqrt_ru(A); OUT[23] = P##sqrt_rd(A);         \
      OUT[24] = P##rcp_rn(A); OUT[25] = P##rcp_rz(A); OUT[26] = P##rcp_ru(A);            \
      OUT[27] = P##rcp_rd(A);
    __global__ void ops(const float* f, const double* d, float* fo, double* dout, int n) {
      const int i = blockIdx.x * blockDim.x + threadIdx.x;
      if (i >= n) return;
      float* o = fo + 28 * i;
      double* p = dout + 28 * i;
      ALL(float, o, f[3 * i], f[3 * i + 1], f[3 * i + 2], __f, __fmaf)
      ALL(double, p, d[3 * i], d[3 * i + 1], d[3 * i + 2], __d, __fma)
    })")
               .kernel<const float*, const double*, float*, double*, int>("ops", device);
  constexpr int n = 3000;
  // Positive arguments of nearby magnitudes (so that every sum and fma is exact in a quad), with
  // a third of the fma addends negative, to cancel.
  auto f = random_vector<float>(3 * n, 0.5f, 4.0f);
  auto d = random_vector<double>(3 * n, 0.5, 4.0);
  for (int i = 0; i < n; i += 3) {
    f[3 * i + 2] = -f[3 * i + 2];
    d[3 * i + 2] = -d[3 * i + 2];
    f[3 * i + 1] = -f[3 * i + 1];
    d[3 * i + 1] = -d[3 * i + 1];
  }
  auto fo = poisoned<float>(28 * n);
  auto dout = poisoned<double>(28 * n);
  k.launch(LaunchConfig::for_elements(n, 128), device.upload(f), device.upload(d), fo, dout, n);
  const auto fr = fo.download();
  const auto dr = dout.download();
  const char* const ops[7] = {"add", "sub", "mul", "div", "fma", "sqrt", "rcp"};
  const auto check = [&](const auto& args, const auto& results, const char* type) {
    for (int i = 0; i < n; ++i) {
      const Quad a = args[3 * i];
      const Quad b = args[3 * i + 1];
      const Quad c = args[3 * i + 2];
      for (int op = 0; op < 7; ++op) {
        for (int mode = 0; mode < 4; ++mode) {
          const auto r = results[28 * i + 4 * op + mode];
          bool ok = false;
          const Quad q = r;
          switch (op) {
            case 0:
              ok = rounded_right(r, a + b, mode);
              break;
            case 1:
              ok = rounded_right(r, a - b, mode);
              break;
            case 2:
              ok = rounded_right(r, a * b, mode);
              break;
            case 4:
              ok = rounded_right(r, a * b + c, mode);
              break;
            case 3:    // r against a / b: compare r b with a, exactly (b may be negative)
            case 6: {  // 1 / a
              const Quad num = op == 3 ? a : Quad(1);
              const Quad den = op == 3 ? b : a;
              const auto inf = std::numeric_limits<decltype(r)>::infinity();
              const Quad lo = std::nextafter(r, -inf);
              const Quad hi = std::nextafter(r, inf);
              // exact quotient x: (q - x) has the sign of (q den - num) / den
              const auto side = [&](Quad v) {
                const Quad t = (v * den - num) * (den > 0 ? 1 : -1);
                return t > 0 ? 1 : (t < 0 ? -1 : 0);
              };
              const int s = side(q);
              if (mode == 0) {  // the nearest: within half the gap to the neighbour on x's side
                const Quad other = s > 0 ? lo : hi;
                const Quad mid = (q + other) / 2;
                ok = s == 0 || side(mid) * s <= 0;
              } else if (mode == 2) {
                ok = s >= 0 && side(lo) < 0;
              } else if (mode == 3) {
                ok = s <= 0 && side(hi) > 0;
              } else {
                const bool positive = (num > 0) == (den > 0);
                ok = positive ? (s <= 0 && side(hi) > 0) : (s >= 0 && side(lo) < 0);
              }
              break;
            }
            case 5: {  // sqrt(a): compare r^2 with a, exactly
              const auto inf = std::numeric_limits<decltype(r)>::infinity();
              const Quad lo = std::nextafter(r, -inf);
              const Quad hi = std::nextafter(r, inf);
              const int s = q * q > a ? 1 : (q * q < a ? -1 : 0);
              if (mode == 0) {
                const Quad other = s > 0 ? lo : hi;
                const Quad mid = (q + other) / 2;
                ok = s == 0 || (mid * mid - a) * s <= 0;
              } else if (mode == 2) {
                ok = s >= 0 && lo * lo < a;
              } else {  // rz and rd agree for a positive root
                ok = s <= 0 && hi * hi > a;
              }
              break;
            }
          }
          ASSERT_TRUE(ok) << type << " " << ops[op] << " in mode " << mode << " of "
                          << static_cast<double>(a) << ", " << static_cast<double>(b) << ", "
                          << static_cast<double>(c) << ": " << r;
        }
      }
    }
  };
  check(f, fr, "float");
  check(d, dr, "double");
}

TEST_F(MathApi, ConversionsRoundAndSaturate) {
  auto k = Program::from_source("conversions.cu", R"(
    __global__ void conv(const float* f, const double* d, const long long* l, int* oi,
                         unsigned* ou, long long* ol, float* of, double* od, int n) {
      const int i = blockIdx.x * blockDim.x + threadIdx.x;
      if (i >= n) return;
      const float x = f[i];
      const double y = d[i];
      const long long z = l[i];
      int* a = oi + 8 * i; unsigned* b = ou + 8 * i; long long* c = ol + 8 * i;
      float* e = of + 12 * i; double* g = od + 4 * i;
      a[0] = __float2int_rn(x); a[1] = __float2int_rz(x); a[2] = __float2int_ru(x);
      a[3] = __float2int_rd(x); a[4] = __double2int_rn(y); a[5] = __double2int_rz(y);
      a[6] = __double2int_ru(y); a[7] = __double2int_rd(y);
      b[0] = __float2uint_rn(x); b[1] = __float2uint_rz(x); b[2] = __float2uint_ru(x);
      b[3] = __float2uint_rd(x); b[4] = __double2uint_rn(y); b[5] = __double2uint_rz(y);
      b[6] = __double2uint_ru(y); b[7] = __double2uint_rd(y);
      c[0] = __float2ll_rn(x); c[1] = __float2ll_rz(x); c[2] = __float2ll_ru(x);
      c[3] = __float2ll_rd(x); c[4] = __double2ll_rn(y); c[5] = __double2ll_rz(y);
      c[6] = __double2ll_ru(y); c[7] = __double2ll_rd(y);
      e[0] = __double2float_rn(y); e[1] = __double2float_rz(y); e[2] = __double2float_ru(y);
      e[3] = __double2float_rd(y); e[4] = __int2float_rn((int)z); e[5] = __int2float_rz((int)z);
      e[6] = __int2float_ru((int)z); e[7] = __int2float_rd((int)z); e[8] = __ll2float_rn(z);
      e[9] = __ll2float_rz(z); e[10] = __ll2float_ru(z); e[11] = __ll2float_rd(z);
      g[0] = __ll2double_rn(z); g[1] = __ll2double_rz(z); g[2] = __ll2double_ru(z);
      g[3] = __ll2double_rd(z);
    })")
               .kernel<const float*, const double*, const long long*, int*, unsigned*, long long*,
                       float*, double*, int>("conv", device);
  constexpr int n = 2000;
  auto f = random_vector<float>(n, -3e9f, 3e9f);
  auto d = random_vector<double>(n, -3e9, 3e9);
  auto l = random_vector<long long>(n, std::numeric_limits<long long>::min(),
                                    std::numeric_limits<long long>::max());
  for (int i = 0; i < n; i += 4) {  // small values, where the rounding modes differ most
    f[i] = f[i] * 1e-9f;
    d[i] = d[i] * 1e-9;
  }
  f[1] = std::numeric_limits<float>::quiet_NaN();
  d[1] = std::numeric_limits<double>::quiet_NaN();
  f[3] = 1e30f;
  d[3] = -1e300;
  auto oi = poisoned<int>(8 * n);
  auto ou = poisoned<unsigned>(8 * n);
  auto ol = poisoned<long long>(8 * n);
  auto of = poisoned<float>(12 * n);
  auto od = poisoned<double>(4 * n);
  k.launch(LaunchConfig::for_elements(n, 128), device.upload(f), device.upload(d), device.upload(l),
           oi, ou, ol, of, od, n);
  const auto ri = oi.download();
  const auto ru = ou.download();
  const auto rl = ol.download();
  const auto rf = of.download();
  const auto rd = od.download();
  // Rounded to an integer in each mode, NaN to 0, then clamped to the type.
  // NaN: 0 from a float to 32 bits, else only the top bit (what an H100 gives).
  const auto to_int = [](auto x, int mode, Real lo, Real hi) -> Real {
    if (std::isnan(x)) {
      return sizeof(x) == 4 && hi < 4294967296.0L ? 0 : (lo < 0 ? lo : (hi + 1) / 2);
    }
    const Real r = mode == 0   ? std::nearbyint(x)
                   : mode == 1 ? std::trunc(x)
                   : mode == 2 ? std::ceil(x)
                               : std::floor(x);
    return std::min(std::max(r, lo), hi);
  };
  const Real kLlMin = static_cast<Real>(std::numeric_limits<long long>::min());  // exact
  const Real kLlMax = static_cast<Real>(std::numeric_limits<long long>::max());
  for (int i = 0; i < n; ++i) {
    for (int m = 0; m < 4; ++m) {
      ASSERT_EQ(ri[8 * i + m], to_int(f[i], m, INT32_MIN, INT32_MAX)) << f[i] << " mode " << m;
      ASSERT_EQ(ri[8 * i + 4 + m], to_int(d[i], m, INT32_MIN, INT32_MAX)) << d[i] << " mode " << m;
      ASSERT_EQ(ru[8 * i + m], to_int(f[i], m, 0, UINT32_MAX)) << f[i] << " mode " << m;
      ASSERT_EQ(ru[8 * i + 4 + m], to_int(d[i], m, 0, UINT32_MAX)) << d[i] << " mode " << m;
      ASSERT_EQ(rl[8 * i + m], to_int(f[i], m, kLlMin, kLlMax)) << f[i] << " mode " << m;
      ASSERT_EQ(rl[8 * i + 4 + m], to_int(d[i], m, kLlMin, kLlMax)) << d[i] << " mode " << m;
      const auto int_value = static_cast<int>(l[i]);
      if (std::isnan(d[i])) {
        ASSERT_TRUE(std::isnan(rf[12 * i + m]));
      } else {
        ASSERT_TRUE(rounded_right(rf[12 * i + m], Quad(d[i]), m)) << d[i] << " mode " << m;
      }
      ASSERT_TRUE(rounded_right(rf[12 * i + 4 + m], Quad(int_value), m))
          << int_value << " mode " << m;
      ASSERT_TRUE(rounded_right(rf[12 * i + 8 + m], Quad(l[i]), m)) << l[i] << " mode " << m;
      ASSERT_TRUE(rounded_right(rd[4 * i + m], Quad(l[i]), m)) << l[i] << " mode " << m;
    }
  }
}

TEST_F(MathApi, IntegerIntrinsicsBitForBit) {
  auto k = Program::from_source("integer.cu", R"(
    __global__ void ints(const unsigned* u, unsigned* o, int n) {
      const int i = blockIdx.x * blockDim.x + threadIdx.x;
      if (i >= n) return;
      const unsigned x = u[3 * i], y = u[3 * i + 1], s = u[3 * i + 2];
      unsigned* r = o + 18 * i;
      r[0] = __byte_perm(x, y, s);
      r[1] = __funnelshift_l(x, y, s);
      r[2] = __funnelshift_lc(x, y, s % 40);
      r[3] = __funnelshift_r(x, y, s);
      r[4] = __funnelshift_rc(x, y, s % 40);
      r[5] = __sad((int)x, (int)y, s);
      r[6] = __usad(x, y, s);
      r[7] = (unsigned)__hadd((int)x, (int)y) ^ (unsigned)__rhadd((int)x, (int)y) * 3u;
      r[8] = __uhadd(x, y) ^ __urhadd(x, y) * 3u;
      __nanosleep(100);
      r[9] = __brev(x) ^ __umulhi(x, y);
      r[10] = (unsigned)__dp4a((int)x, (int)y, (int)s);
      r[11] = __dp4a(x, y, s);
      // x is the low byte of each vector.
      const char4 cx = make_char4(x, x >> 8, x >> 16, x >> 24);
      const char4 cy = make_char4(y, y >> 8, y >> 16, y >> 24);
      const uchar4 ux = make_uchar4(x, x >> 8, x >> 16, x >> 24);
      const uchar4 uy = make_uchar4(y, y >> 8, y >> 16, y >> 24);
      r[16] = (unsigned)__dp4a(cx, cy, (int)s) ^ (unsigned)__dp4a((int)x, (int)y, (int)s);
      r[17] = __dp4a(ux, uy, s) ^ __dp4a(x, y, s);
      r[12] = (unsigned)__dp2a_lo((int)x, (int)y, (int)s);
      r[13] = __dp2a_lo(x, y, s);
      r[14] = (unsigned)__dp2a_hi((int)x, (int)y, (int)s);
      r[15] = __dp2a_hi(x, y, s);
    })")
               .kernel<const unsigned*, unsigned*, int>("ints", device);
  constexpr int n = 5000;
  const auto u = random_vector<unsigned>(3 * n, 0, 0xffffffffU);
  auto out = poisoned<unsigned>(18 * n);
  k.launch(LaunchConfig::for_elements(n, 128), device.upload(u), out, n);
  const auto r = out.download();
  // c plus the products of `pairs` lanes: a's of `width` bits, b's bytes from `first`, signed or
  // not, wrapping as 32-bit integers do.
  const auto dot = [](std::uint32_t a, std::uint32_t b, std::uint32_t c, int pairs, int width,
                      bool is_signed, int first) {
    std::int64_t sum = is_signed ? static_cast<std::int32_t>(c) : std::int64_t{c};
    for (int k = 0; k < pairs; ++k) {
      const std::uint32_t la = (a >> (width * k)) & ((1U << width) - 1);
      const std::uint32_t lb = (b >> (8 * (first + k))) & 0xffU;
      const std::int64_t va = is_signed && (la >> (width - 1)) != 0
                                  ? std::int64_t{la} - (std::int64_t{1} << width)
                                  : la;
      const std::int64_t vb = is_signed && lb >= 0x80 ? std::int64_t{lb} - 0x100 : lb;
      sum += va * vb;
    }
    return static_cast<std::uint32_t>(sum);
  };
  for (int i = 0; i < n; ++i) {
    const std::uint32_t x = u[3 * i];
    const std::uint32_t y = u[3 * i + 1];
    const std::uint32_t s = u[3 * i + 2];
    const std::uint64_t both = (std::uint64_t{y} << 32) | x;
    std::uint32_t perm = 0;
    for (int b = 0; b < 4; ++b) {
      perm |= static_cast<std::uint32_t>((both >> (8 * ((s >> (4 * b)) & 7))) & 0xff) << (8 * b);
    }
    const auto clamp = [](std::uint32_t v) { return std::min<std::uint32_t>(v, 32); };
    const auto sx = static_cast<std::int64_t>(static_cast<std::int32_t>(x));
    const auto sy = static_cast<std::int64_t>(static_cast<std::int32_t>(y));
    std::uint32_t brev = 0;
    for (int b = 0; b < 32; ++b) {
      brev |= ((x >> b) & 1U) << (31 - b);
    }
    const std::uint32_t want[16] = {
        perm,
        static_cast<std::uint32_t>((both << (s & 31)) >> 32),
        static_cast<std::uint32_t>((both << clamp(s % 40)) >> 32),
        static_cast<std::uint32_t>(both >> (s & 31)),
        static_cast<std::uint32_t>(both >> clamp(s % 40)),
        static_cast<std::uint32_t>(std::llabs(sx - sy)) + s,
        (x > y ? x - y : y - x) + s,
        static_cast<std::uint32_t>((sx + sy) >> 1) ^
            static_cast<std::uint32_t>((sx + sy + 1) >> 1) * 3U,
        static_cast<std::uint32_t>((std::uint64_t{x} + y) >> 1) ^
            static_cast<std::uint32_t>((std::uint64_t{x} + y + 1) >> 1) * 3U,
        brev ^ static_cast<std::uint32_t>((std::uint64_t{x} * y) >> 32),
        dot(x, y, s, 4, 8, true, 0),
        dot(x, y, s, 4, 8, false, 0),
        dot(x, y, s, 2, 16, true, 0),
        dot(x, y, s, 2, 16, false, 0),
        dot(x, y, s, 2, 16, true, 2),
        dot(x, y, s, 2, 16, false, 2),
    };
    for (int j = 0; j < 16; ++j) {
      ASSERT_EQ(r[18 * i + j], want[j])
          << "intrinsic " << j << " of " << x << ", " << y << ", " << s;
    }
    // __dp4a on char4 and uchar4 agrees with the int and unsigned forms (zero when xored).
    ASSERT_EQ(r[18 * i + 16], 0U) << "__dp4a(char4) of " << x << ", " << y << ", " << s;
    ASSERT_EQ(r[18 * i + 17], 0U) << "__dp4a(uchar4) of " << x << ", " << y << ", " << s;
  }
}

// ---- DPX functions (CUDA 12) -----------------------------------------------------------------

TEST_F(MathApi, DpxFunctionsBitForBit) {
  auto k = Program::from_source("dpx.cu", R"(
    __global__ void dpx(const unsigned* u, unsigned* r0, int n) {
      const int i = blockIdx.x * blockDim.x + threadIdx.x;
      if (i >= n) return;
      const unsigned x = u[3 * i], y = u[3 * i + 1], z = u[3 * i + 2];
      unsigned* r = r0 + 37 * i;
      r[0] = (unsigned)__vimax3_s32((int)x, (int)y, (int)z);
      r[1] = (unsigned)__vimax3_s16x2((unsigned)x, (unsigned)y, (unsigned)z);
      r[2] = (unsigned)__vimax3_u32((unsigned)x, (unsigned)y, (unsigned)z);
      r[3] = (unsigned)__vimax3_u16x2((unsigned)x, (unsigned)y, (unsigned)z);
      r[4] = (unsigned)__vimin3_s32((int)x, (int)y, (int)z);
      r[5] = (unsigned)__vimin3_s16x2((unsigned)x, (unsigned)y, (unsigned)z);
      r[6] = (unsigned)__vimin3_u32((unsigned)x, (unsigned)y, (unsigned)z);
      r[7] = (unsigned)__vimin3_u16x2((unsigned)x, (unsigned)y, (unsigned)z);
      r[8] = (unsigned)__vimax3_s32_relu((int)x, (int)y, (int)z);
      r[9] = (unsigned)__vimax3_s16x2_relu((unsigned)x, (unsigned)y, (unsigned)z);
      r[10] = (unsigned)__vimin3_s32_relu((int)x, (int)y, (int)z);
      r[11] = (unsigned)__vimin3_s16x2_relu((unsigned)x, (unsigned)y, (unsigned)z);
      r[12] = (unsigned)__vimax_s32_relu((int)x, (int)y);
      r[13] = (unsigned)__vimax_s16x2_relu((unsigned)x, (unsigned)y);
      r[14] = (unsigned)__vimin_s32_relu((int)x, (int)y);
      r[15] = (unsigned)__vimin_s16x2_relu((unsigned)x, (unsigned)y);
      r[16] = (unsigned)__viaddmax_s32((int)x, (int)y, (int)z);
      r[17] = (unsigned)__viaddmax_s16x2((unsigned)x, (unsigned)y, (unsigned)z);
      r[18] = (unsigned)__viaddmax_u32((unsigned)x, (unsigned)y, (unsigned)z);
      r[19] = (unsigned)__viaddmax_u16x2((unsigned)x, (unsigned)y, (unsigned)z);
      r[20] = (unsigned)__viaddmin_s32((int)x, (int)y, (int)z);
      r[21] = (unsigned)__viaddmin_s16x2((unsigned)x, (unsigned)y, (unsigned)z);
      r[22] = (unsigned)__viaddmin_u32((unsigned)x, (unsigned)y, (unsigned)z);
      r[23] = (unsigned)__viaddmin_u16x2((unsigned)x, (unsigned)y, (unsigned)z);
      r[24] = (unsigned)__viaddmax_s32_relu((int)x, (int)y, (int)z);
      r[25] = (unsigned)__viaddmax_s16x2_relu((unsigned)x, (unsigned)y, (unsigned)z);
      r[26] = (unsigned)__viaddmin_s32_relu((int)x, (int)y, (int)z);
      r[27] = (unsigned)__viaddmin_s16x2_relu((unsigned)x, (unsigned)y, (unsigned)z);
      bool p[12];
      r[28] = (unsigned)__vibmax_s32((int)x, (int)y, &p[0]);
      r[29] = __vibmax_u32(x, y, &p[1]);
      r[30] = (unsigned)__vibmin_s32((int)x, (int)y, &p[2]);
      r[31] = __vibmin_u32(x, y, &p[3]);
      r[32] = __vibmax_s16x2(x, y, &p[4], &p[5]);
      r[33] = __vibmax_u16x2(x, y, &p[6], &p[7]);
      r[34] = __vibmin_s16x2(x, y, &p[8], &p[9]);
      r[35] = __vibmin_u16x2(x, y, &p[10], &p[11]);
      unsigned bits = 0;
      for (int b = 0; b < 12; ++b) bits |= (p[b] ? 1u : 0u) << b;
      r[36] = bits;
    })")
               .kernel<const unsigned*, unsigned*, int>("dpx", device);
  constexpr int n = 4000;
  auto u = random_vector<unsigned>(3 * n, 0, 0xffffffffU);
  for (int i = 0; i < n; i += 7) {
    u[3 * i + 1] = u[3 * i];  // ties, where the __vib forms say a won
  }
  auto out = poisoned<unsigned>(37 * n);
  k.launch(LaunchConfig::for_elements(n, 128), device.upload(u), out, n);
  const auto r = out.download();
  // CUDA's definitions, lane by lane: the lane's value as the function reads it (signed or not).
  const auto lane = [](std::uint32_t v, int k, int width, bool is_signed) -> std::int64_t {
    const std::uint32_t x = width == 32 ? v : (v >> (16 * k)) & 0xffffU;
    if (!is_signed) {
      return x;
    }
    return width == 32 ? std::int64_t{static_cast<std::int32_t>(x)}
                       : std::int64_t{static_cast<std::int16_t>(x)};
  };
  struct Dpx {
    int width;
    bool is_signed;
    const char* op;
    bool relu;
  };
  const Dpx table[] = {
      {32, true, "max3", false},    {16, true, "max3", false},    {32, false, "max3", false},
      {16, false, "max3", false},   {32, true, "min3", false},    {16, true, "min3", false},
      {32, false, "min3", false},   {16, false, "min3", false},   {32, true, "max3", true},
      {16, true, "max3", true},     {32, true, "min3", true},     {16, true, "min3", true},
      {32, true, "max2", true},     {16, true, "max2", true},     {32, true, "min2", true},
      {16, true, "min2", true},     {32, true, "addmax", false},  {16, true, "addmax", false},
      {32, false, "addmax", false}, {16, false, "addmax", false}, {32, true, "addmin", false},
      {16, true, "addmin", false},  {32, false, "addmin", false}, {16, false, "addmin", false},
      {32, true, "addmax", true},   {16, true, "addmax", true},   {32, true, "addmin", true},
      {16, true, "addmin", true}};
  for (int i = 0; i < n; ++i) {
    const std::uint32_t x = u[3 * i];
    const std::uint32_t y = u[3 * i + 1];
    const std::uint32_t z = u[3 * i + 2];
    for (std::size_t j = 0; j < std::size(table); ++j) {
      const Dpx& f = table[j];
      std::uint32_t want = 0;
      for (int k = 0; k < 32 / f.width; ++k) {
        const std::int64_t a = lane(x, k, f.width, f.is_signed);
        const std::int64_t b = lane(y, k, f.width, f.is_signed);
        const std::int64_t c = lane(z, k, f.width, f.is_signed);
        const std::string_view op = f.op;
        // The sum as the lane holds it: wrapped to the lane's width.
        const std::uint32_t wrapped = static_cast<std::uint32_t>(a + b)
                                      << (16 * k * (f.width == 16));
        const std::int64_t sum = lane(wrapped, k, f.width, f.is_signed);
        std::int64_t v = op == "max3"     ? std::max({a, b, c})
                         : op == "min3"   ? std::min({a, b, c})
                         : op == "max2"   ? std::max(a, b)
                         : op == "min2"   ? std::min(a, b)
                         : op == "addmax" ? std::max(sum, c)
                                          : std::min(sum, c);
        if (f.relu) {
          v = std::max<std::int64_t>(v, 0);
        }
        const std::uint32_t mask = f.width == 32 ? 0xffffffffU : 0xffffU;
        want |= (static_cast<std::uint32_t>(v) & mask) << (f.width * k);
      }
      ASSERT_EQ(r[37 * i + j], want)
          << "DPX function " << j << " of " << x << ", " << y << ", " << z;
    }
    // The __vib forms: the max or min of two, and whether a won (a >= b, a <= b).
    std::uint32_t bits = 0;
    int bit = 0;
    int slot = 28;
    const struct {
      int width;
      bool is_max;
      bool is_signed;
    } picks[] = {{32, true, true}, {32, true, false}, {32, false, true}, {32, false, false},
                 {16, true, true}, {16, true, false}, {16, false, true}, {16, false, false}};
    for (const auto& p : picks) {
      std::uint32_t want = 0;
      bool won[2] = {false, false};
      for (int k = 0; k < 32 / p.width; ++k) {
        const std::int64_t a = lane(x, k, p.width, p.is_signed);
        const std::int64_t b = lane(y, k, p.width, p.is_signed);
        won[k] = p.is_max ? a >= b : a <= b;
        const std::uint32_t mask = p.width == 32 ? 0xffffffffU : 0xffffU;
        want |= (static_cast<std::uint32_t>(won[k] ? a : b) & mask) << (p.width * k);
      }
      ASSERT_EQ(r[37 * i + slot], want)
          << "__vib function " << slot - 28 << " of " << x << ", " << y;
      if (p.width == 32) {
        bits |= static_cast<std::uint32_t>(won[0]) << bit++;
      } else {  // pred_hi, then pred_lo
        bits |= static_cast<std::uint32_t>(won[1]) << bit++;
        bits |= static_cast<std::uint32_t>(won[0]) << bit++;
      }
      ++slot;
    }
    ASSERT_EQ(r[37 * i + 36], bits) << "__vib predicates of " << x << ", " << y;
  }
}

// ---- SIMD video intrinsics ----------------------------------------------------------------

/// A lane operation of the SIMD intrinsics on the lanes' signed and unsigned values.
using LaneOp = std::function<std::int64_t(std::int64_t sx, std::int64_t sy, std::int64_t ux,
                                          std::int64_t uy, int width)>;

std::int64_t saturate_signed(std::int64_t v, int width) {
  const std::int64_t hi = (std::int64_t{1} << (width - 1)) - 1;
  return std::clamp(v, -hi - 1, hi);
}
std::int64_t saturate_unsigned(std::int64_t v, int width) {
  return std::clamp<std::int64_t>(v, 0, (std::int64_t{1} << width) - 1);
}

/// Each intrinsic's lanes, as CUDA's documentation defines them (the H100 agrees: the test
/// runs there too).
std::vector<std::pair<std::string, LaneOp>> simd_ops() {
  const auto cmp = [](bool c) { return c ? std::int64_t{-1} : 0; };
  return {
      {"__vadd", [](auto, auto, auto ux, auto uy, int) { return ux + uy; }},
      {"__vsub", [](auto, auto, auto ux, auto uy, int) { return ux - uy; }},
      {"__vaddss", [](auto sx, auto sy, auto, auto, int w) { return saturate_signed(sx + sy, w); }},
      {"__vaddus",
       [](auto, auto, auto ux, auto uy, int w) { return saturate_unsigned(ux + uy, w); }},
      {"__vsubss", [](auto sx, auto sy, auto, auto, int w) { return saturate_signed(sx - sy, w); }},
      {"__vsubus",
       [](auto, auto, auto ux, auto uy, int w) { return saturate_unsigned(ux - uy, w); }},
      {"__vabsdiffs", [](auto sx, auto sy, auto, auto, int) { return std::abs(sx - sy); }},
      {"__vabsdiffu", [](auto, auto, auto ux, auto uy, int) { return std::abs(ux - uy); }},
      {"__vavgs",
       [](auto sx, auto sy, auto, auto, int) {
         const std::int64_t sum = sx + sy;
         return (sum + (sum >= 0 ? 1 : 0)) >> 1;
       }},
      {"__vavgu", [](auto, auto, auto ux, auto uy, int) { return (ux + uy + 1) >> 1; }},
      {"__vhaddu", [](auto, auto, auto ux, auto uy, int) { return (ux + uy) >> 1; }},
      {"__vmaxs", [](auto sx, auto sy, auto, auto, int) { return std::max(sx, sy); }},
      {"__vmaxu", [](auto, auto, auto ux, auto uy, int) { return std::max(ux, uy); }},
      {"__vmins", [](auto sx, auto sy, auto, auto, int) { return std::min(sx, sy); }},
      {"__vminu", [](auto, auto, auto ux, auto uy, int) { return std::min(ux, uy); }},
      {"__vcmpeq", [cmp](auto, auto, auto ux, auto uy, int) { return cmp(ux == uy); }},
      {"__vcmpne", [cmp](auto, auto, auto ux, auto uy, int) { return cmp(ux != uy); }},
      {"__vcmpges", [cmp](auto sx, auto sy, auto, auto, int) { return cmp(sx >= sy); }},
      {"__vcmpgeu", [cmp](auto, auto, auto ux, auto uy, int) { return cmp(ux >= uy); }},
      {"__vcmpgts", [cmp](auto sx, auto sy, auto, auto, int) { return cmp(sx > sy); }},
      {"__vcmpgtu", [cmp](auto, auto, auto ux, auto uy, int) { return cmp(ux > uy); }},
      {"__vcmples", [cmp](auto sx, auto sy, auto, auto, int) { return cmp(sx <= sy); }},
      {"__vcmpleu", [cmp](auto, auto, auto ux, auto uy, int) { return cmp(ux <= uy); }},
      {"__vcmplts", [cmp](auto sx, auto sy, auto, auto, int) { return cmp(sx < sy); }},
      {"__vcmpltu", [cmp](auto, auto, auto ux, auto uy, int) { return cmp(ux < uy); }},
      {"__vseteq", [](auto, auto, auto ux, auto uy, int) { return std::int64_t{ux == uy}; }},
      {"__vsetne", [](auto, auto, auto ux, auto uy, int) { return std::int64_t{ux != uy}; }},
      {"__vsetges", [](auto sx, auto sy, auto, auto, int) { return std::int64_t{sx >= sy}; }},
      {"__vsetgeu", [](auto, auto, auto ux, auto uy, int) { return std::int64_t{ux >= uy}; }},
      {"__vsetgts", [](auto sx, auto sy, auto, auto, int) { return std::int64_t{sx > sy}; }},
      {"__vsetgtu", [](auto, auto, auto ux, auto uy, int) { return std::int64_t{ux > uy}; }},
      {"__vsetles", [](auto sx, auto sy, auto, auto, int) { return std::int64_t{sx <= sy}; }},
      {"__vsetleu", [](auto, auto, auto ux, auto uy, int) { return std::int64_t{ux <= uy}; }},
      {"__vsetlts", [](auto sx, auto sy, auto, auto, int) { return std::int64_t{sx < sy}; }},
      {"__vsetltu", [](auto, auto, auto ux, auto uy, int) { return std::int64_t{ux < uy}; }},
  };
}

/// The one-operand intrinsics (b unused) and the sums of absolute differences.
std::vector<std::pair<std::string, LaneOp>> simd_unary_ops() {
  return {
      {"__vabs", [](auto sx, auto, auto, auto, int) { return std::abs(sx); }},
      {"__vneg", [](auto sx, auto, auto, auto, int) { return -sx; }},
      {"__vabsss",
       [](auto sx, auto, auto, auto, int w) { return saturate_signed(std::abs(sx), w); }},
      {"__vnegss", [](auto sx, auto, auto, auto, int w) { return saturate_signed(-sx, w); }},
  };
}

std::uint32_t lanes(std::uint32_t a, std::uint32_t b, int width, const LaneOp& op, bool sum) {
  const std::int64_t mask = (std::int64_t{1} << width) - 1;
  std::uint32_t r = 0;
  std::int64_t total = 0;
  for (int i = 0; i < 32 / width; ++i) {
    const std::int64_t ux = (a >> (width * i)) & mask;
    const std::int64_t uy = (b >> (width * i)) & mask;
    const std::int64_t half = std::int64_t{1} << (width - 1);
    const std::int64_t sx = ux >= half ? ux - 2 * half : ux;
    const std::int64_t sy = uy >= half ? uy - 2 * half : uy;
    const std::int64_t v = op(sx, sy, ux, uy, width);
    r |= static_cast<std::uint32_t>(v & mask) << (width * i);
    total += v & mask;
  }
  return sum ? static_cast<std::uint32_t>(total) : r;
}

TEST_F(MathApi, SimdVideoIntrinsicsBitForBit) {
  const auto binary = simd_ops();
  const auto unary = simd_unary_ops();
  std::string body;
  int slot = 0;
  for (const auto& [name, op] : binary) {
    for (const char* w : {"2", "4"}) {
      body += "  o[" + std::to_string(slot++) + "] = " + name + w + "(a, b);\n";
    }
  }
  for (const auto& [name, op] : unary) {
    for (const char* w : {"2", "4"}) {
      body += "  o[" + std::to_string(slot++) + "] = " + name + w + "(a);\n";
    }
  }
  for (const char* f : {"__vsads2", "__vsads4", "__vsadu2", "__vsadu4"}) {
    body += "  o[" + std::to_string(slot++) + "] = " + std::string(f) + "(a, b);\n";
  }
  const int per = slot;
  auto k = Program::from_source("simd.cu",
                                "__global__ void simd(const unsigned* in, unsigned* out, int n) {\n"
                                "  const int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                                "  if (i >= n) return;\n"
                                "  const unsigned a = in[2 * i], b = in[2 * i + 1];\n"
                                "  unsigned* o = out + " +
                                    std::to_string(per) + " * i;\n" + body + "}\n")
               .kernel<const unsigned*, unsigned*, int>("simd", device);
  constexpr int n = 3000;
  auto in = random_vector<unsigned>(2 * n, 0, 0xffffffffU);
  for (int i = 0; i < 2 * n; i += 6) {  // lanes at their ends, where saturation shows
    in[i] = 0x80007fffU;
    in[i + 2] = 0x7f80ff01U;
  }
  auto out = poisoned<unsigned>(static_cast<std::size_t>(per) * n);
  k.launch(LaunchConfig::for_elements(n, 128), device.upload(in), out, n);
  const auto r = out.download();
  for (int i = 0; i < n; ++i) {
    const std::uint32_t a = in[2 * i];
    const std::uint32_t b = in[2 * i + 1];
    int j = 0;
    const auto check = [&](const std::string& name, std::uint32_t want) {
      ASSERT_EQ(r[static_cast<std::size_t>(per) * i + j], want)
          << name << " of " << std::hex << a << ", " << b;
      ++j;
    };
    for (const auto& [name, op] : binary) {
      check(name + "2", lanes(a, b, 16, op, false));
      check(name + "4", lanes(a, b, 8, op, false));
    }
    for (const auto& [name, op] : unary) {
      check(name + "2", lanes(a, 0, 16, op, false));
      check(name + "4", lanes(a, 0, 8, op, false));
    }
    const LaneOp abs_s = [](auto sx, auto sy, auto, auto, int) { return std::abs(sx - sy); };
    const LaneOp abs_u = [](auto, auto, auto ux, auto uy, int) { return std::abs(ux - uy); };
    check("__vsads2", lanes(a, b, 16, abs_s, true));
    check("__vsads4", lanes(a, b, 8, abs_s, true));
    check("__vsadu2", lanes(a, b, 16, abs_u, true));
    check("__vsadu4", lanes(a, b, 8, abs_u, true));
  }
}
}  // namespace
}  // namespace kjit::test
