// kjit's <cuComplex.h>: CUDA's single- and double-precision complex numbers for kernels and host
// code on every backend, as CUDA declares them (cuFloatComplex is a float2, cuDoubleComplex a
// double2). Division and absolute value scale their operands first, so that they do not
// overflow or underflow where the result is representable.
#ifndef __KJIT_CU_COMPLEX_H
#define __KJIT_CU_COMPLEX_H
#include "__kjit_headers.h"
#include <math.h>

typedef float2 cuFloatComplex;
typedef double2 cuDoubleComplex;
typedef cuFloatComplex cuComplex;

__KJIT_HD float cuCrealf(cuFloatComplex x) { return x.x; }
__KJIT_HD float cuCimagf(cuFloatComplex x) { return x.y; }
__KJIT_HD cuFloatComplex make_cuFloatComplex(float r, float i) {
  cuFloatComplex z;
  z.x = r;
  z.y = i;
  return z;
}
__KJIT_HD cuFloatComplex make_cuComplex(float r, float i) { return make_cuFloatComplex(r, i); }
__KJIT_HD cuFloatComplex cuConjf(cuFloatComplex x) { return make_cuFloatComplex(x.x, -x.y); }
__KJIT_HD cuFloatComplex cuCaddf(cuFloatComplex x, cuFloatComplex y) {
  return make_cuFloatComplex(x.x + y.x, x.y + y.y);
}
__KJIT_HD cuFloatComplex cuCsubf(cuFloatComplex x, cuFloatComplex y) {
  return make_cuFloatComplex(x.x - y.x, x.y - y.y);
}
__KJIT_HD cuFloatComplex cuCmulf(cuFloatComplex x, cuFloatComplex y) {
  return make_cuFloatComplex(x.x * y.x - x.y * y.y, x.x * y.y + x.y * y.x);
}
__KJIT_HD cuFloatComplex cuCdivf(cuFloatComplex x, cuFloatComplex y) {
  const float s = fabsf(y.x) + fabsf(y.y);
  const float inv = 1.0f / s;
  const float ar = x.x * inv, ai = x.y * inv, br = y.x * inv, bi = y.y * inv;
  const float d = 1.0f / (br * br + bi * bi);
  return make_cuFloatComplex((ar * br + ai * bi) * d, (ai * br - ar * bi) * d);
}
__KJIT_HD float cuCabsf(cuFloatComplex x) { return hypotf(x.x, x.y); }
__KJIT_HD cuFloatComplex cuCfmaf(cuFloatComplex x, cuFloatComplex y, cuFloatComplex d) {
  return make_cuFloatComplex(x.x * y.x - x.y * y.y + d.x, x.x * y.y + x.y * y.x + d.y);
}

__KJIT_HD double cuCreal(cuDoubleComplex x) { return x.x; }
__KJIT_HD double cuCimag(cuDoubleComplex x) { return x.y; }
__KJIT_HD cuDoubleComplex make_cuDoubleComplex(double r, double i) {
  cuDoubleComplex z;
  z.x = r;
  z.y = i;
  return z;
}
__KJIT_HD cuDoubleComplex cuConj(cuDoubleComplex x) { return make_cuDoubleComplex(x.x, -x.y); }
__KJIT_HD cuDoubleComplex cuCadd(cuDoubleComplex x, cuDoubleComplex y) {
  return make_cuDoubleComplex(x.x + y.x, x.y + y.y);
}
__KJIT_HD cuDoubleComplex cuCsub(cuDoubleComplex x, cuDoubleComplex y) {
  return make_cuDoubleComplex(x.x - y.x, x.y - y.y);
}
__KJIT_HD cuDoubleComplex cuCmul(cuDoubleComplex x, cuDoubleComplex y) {
  return make_cuDoubleComplex(x.x * y.x - x.y * y.y, x.x * y.y + x.y * y.x);
}
__KJIT_HD cuDoubleComplex cuCdiv(cuDoubleComplex x, cuDoubleComplex y) {
  const double s = fabs(y.x) + fabs(y.y);
  const double inv = 1.0 / s;
  const double ar = x.x * inv, ai = x.y * inv, br = y.x * inv, bi = y.y * inv;
  const double d = 1.0 / (br * br + bi * bi);
  return make_cuDoubleComplex((ar * br + ai * bi) * d, (ai * br - ar * bi) * d);
}
__KJIT_HD double cuCabs(cuDoubleComplex x) { return hypot(x.x, x.y); }
__KJIT_HD cuDoubleComplex cuCfma(cuDoubleComplex x, cuDoubleComplex y, cuDoubleComplex d) {
  return make_cuDoubleComplex(x.x * y.x - x.y * y.y + d.x, x.x * y.y + x.y * y.x + d.y);
}

__KJIT_HD cuDoubleComplex cuComplexFloatToDouble(cuFloatComplex c) {
  return make_cuDoubleComplex(c.x, c.y);
}
__KJIT_HD cuFloatComplex cuComplexDoubleToFloat(cuDoubleComplex c) {
  return make_cuFloatComplex(static_cast<float>(c.x), static_cast<float>(c.y));
}

#endif
