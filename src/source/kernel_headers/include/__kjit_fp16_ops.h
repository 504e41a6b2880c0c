// kjit: the operations <cuda_fp16.h> and <cuda_bf16.h> both declare, for one 16-bit type.
// Internal, included once by each of them, with:
//   __KJIT_T   the scalar type (__half, __nv_bfloat16), __KJIT_T2 its pair (__half2 ...);
//   __KJIT_TO(f) a float rounded to __KJIT_T; __KJIT_F(h) a __KJIT_T as a float;
//   __KJIT_BITS(h) its bits, __KJIT_FROM_BITS(b) the value of bits.
// Each operation is computed in float and rounded once (see __kjit_fp16.h). No include guard.

// ---- operators -------------------------------------------------------------------------------
__KJIT_HD __KJIT_T operator+(const __KJIT_T& a, const __KJIT_T& b) {
  return __KJIT_TO(__KJIT_F(a) + __KJIT_F(b));
}
__KJIT_HD __KJIT_T operator-(const __KJIT_T& a, const __KJIT_T& b) {
  return __KJIT_TO(__KJIT_F(a) - __KJIT_F(b));
}
__KJIT_HD __KJIT_T operator*(const __KJIT_T& a, const __KJIT_T& b) {
  return __KJIT_TO(__KJIT_F(a) * __KJIT_F(b));
}
__KJIT_HD __KJIT_T operator/(const __KJIT_T& a, const __KJIT_T& b) {
  return __KJIT_TO(__KJIT_F(a) / __KJIT_F(b));
}
__KJIT_HD __KJIT_T& operator+=(__KJIT_T& a, const __KJIT_T& b) {
  return a = a + b;
}
__KJIT_HD __KJIT_T& operator-=(__KJIT_T& a, const __KJIT_T& b) {
  return a = a - b;
}
__KJIT_HD __KJIT_T& operator*=(__KJIT_T& a, const __KJIT_T& b) {
  return a = a * b;
}
__KJIT_HD __KJIT_T& operator/=(__KJIT_T& a, const __KJIT_T& b) {
  return a = a / b;
}
__KJIT_HD __KJIT_T operator+(const __KJIT_T& a) {
  return a;
}
__KJIT_HD __KJIT_T operator-(const __KJIT_T& a) {
  return __KJIT_FROM_BITS(static_cast<unsigned short>(__KJIT_BITS(a) ^ 0x8000u));
}
__KJIT_HD __KJIT_T& operator++(__KJIT_T& a) {
  return a = a + __KJIT_TO(1.0f);
}
__KJIT_HD __KJIT_T& operator--(__KJIT_T& a) {
  return a = a - __KJIT_TO(1.0f);
}
__KJIT_HD __KJIT_T operator++(__KJIT_T& a, int) {
  const __KJIT_T old = a;
  ++a;
  return old;
}
__KJIT_HD __KJIT_T operator--(__KJIT_T& a, int) {
  const __KJIT_T old = a;
  --a;
  return old;
}
__KJIT_HD bool operator==(const __KJIT_T& a, const __KJIT_T& b) {
  return __KJIT_F(a) == __KJIT_F(b);
}
__KJIT_HD bool operator!=(const __KJIT_T& a, const __KJIT_T& b) {
  return __KJIT_F(a) != __KJIT_F(b);
}
__KJIT_HD bool operator<(const __KJIT_T& a, const __KJIT_T& b) {
  return __KJIT_F(a) < __KJIT_F(b);
}
__KJIT_HD bool operator>(const __KJIT_T& a, const __KJIT_T& b) {
  return __KJIT_F(a) > __KJIT_F(b);
}
__KJIT_HD bool operator<=(const __KJIT_T& a, const __KJIT_T& b) {
  return __KJIT_F(a) <= __KJIT_F(b);
}
__KJIT_HD bool operator>=(const __KJIT_T& a, const __KJIT_T& b) {
  return __KJIT_F(a) >= __KJIT_F(b);
}

__KJIT_HD __KJIT_T2 operator+(const __KJIT_T2& a, const __KJIT_T2& b) {
  return __KJIT_T2(a.x + b.x, a.y + b.y);
}
__KJIT_HD __KJIT_T2 operator-(const __KJIT_T2& a, const __KJIT_T2& b) {
  return __KJIT_T2(a.x - b.x, a.y - b.y);
}
__KJIT_HD __KJIT_T2 operator*(const __KJIT_T2& a, const __KJIT_T2& b) {
  return __KJIT_T2(a.x * b.x, a.y * b.y);
}
__KJIT_HD __KJIT_T2 operator/(const __KJIT_T2& a, const __KJIT_T2& b) {
  return __KJIT_T2(a.x / b.x, a.y / b.y);
}
__KJIT_HD __KJIT_T2& operator+=(__KJIT_T2& a, const __KJIT_T2& b) {
  return a = a + b;
}
__KJIT_HD __KJIT_T2& operator-=(__KJIT_T2& a, const __KJIT_T2& b) {
  return a = a - b;
}
__KJIT_HD __KJIT_T2& operator*=(__KJIT_T2& a, const __KJIT_T2& b) {
  return a = a * b;
}
__KJIT_HD __KJIT_T2& operator/=(__KJIT_T2& a, const __KJIT_T2& b) {
  return a = a / b;
}
__KJIT_HD __KJIT_T2 operator+(const __KJIT_T2& a) {
  return a;
}
__KJIT_HD __KJIT_T2 operator-(const __KJIT_T2& a) {
  return __KJIT_T2(-a.x, -a.y);
}
__KJIT_HD bool operator==(const __KJIT_T2& a, const __KJIT_T2& b) {
  return a.x == b.x && a.y == b.y;
}
__KJIT_HD bool operator!=(const __KJIT_T2& a, const __KJIT_T2& b) {
  return a.x != b.x && a.y != b.y;
}

// ---- arithmetic functions ----------------------------------------------------------------------
__KJIT_HD __KJIT_T __hadd(__KJIT_T a, __KJIT_T b) {
  return a + b;
}
__KJIT_HD __KJIT_T __hsub(__KJIT_T a, __KJIT_T b) {
  return a - b;
}
__KJIT_HD __KJIT_T __hmul(__KJIT_T a, __KJIT_T b) {
  return a * b;
}
__KJIT_HD __KJIT_T __hdiv(__KJIT_T a, __KJIT_T b) {
  return a / b;
}
__KJIT_HD __KJIT_T __hadd_rn(__KJIT_T a, __KJIT_T b) {
  return a + b;
}
__KJIT_HD __KJIT_T __hsub_rn(__KJIT_T a, __KJIT_T b) {
  return a - b;
}
__KJIT_HD __KJIT_T __hmul_rn(__KJIT_T a, __KJIT_T b) {
  return a * b;
}
__KJIT_HD __KJIT_T __hneg(__KJIT_T a) {
  return -a;
}
__KJIT_HD __KJIT_T __habs(__KJIT_T a) {
  return __KJIT_FROM_BITS(static_cast<unsigned short>(__KJIT_BITS(a) & 0x7fffu));
}
__KJIT_HD __KJIT_T __kjit_saturate(__KJIT_T a) {
  const float f = __KJIT_F(a);
  return f != f ? __KJIT_TO(0.0f) : f < 0.0f ? __KJIT_TO(0.0f) : f > 1.0f ? __KJIT_TO(1.0f) : a;
}
__KJIT_HD __KJIT_T __hadd_sat(__KJIT_T a, __KJIT_T b) {
  return __kjit_saturate(a + b);
}
__KJIT_HD __KJIT_T __hsub_sat(__KJIT_T a, __KJIT_T b) {
  return __kjit_saturate(a - b);
}
__KJIT_HD __KJIT_T __hmul_sat(__KJIT_T a, __KJIT_T b) {
  return __kjit_saturate(a * b);
}
__KJIT_HD __KJIT_T __hfma_sat(__KJIT_T a, __KJIT_T b, __KJIT_T c) {
  return __kjit_saturate(__hfma(a, b, c));
}
__KJIT_HD __KJIT_T __hfma_relu(__KJIT_T a, __KJIT_T b, __KJIT_T c) {
  const __KJIT_T r = __hfma(a, b, c);
  const float f = __KJIT_F(r);
  return f != f ? r : f < 0.0f ? __KJIT_TO(0.0f) : r;
}

__KJIT_HD __KJIT_T2 __hadd2(__KJIT_T2 a, __KJIT_T2 b) {
  return a + b;
}
__KJIT_HD __KJIT_T2 __hsub2(__KJIT_T2 a, __KJIT_T2 b) {
  return a - b;
}
__KJIT_HD __KJIT_T2 __hmul2(__KJIT_T2 a, __KJIT_T2 b) {
  return a * b;
}
__KJIT_HD __KJIT_T2 __h2div(__KJIT_T2 a, __KJIT_T2 b) {
  return a / b;
}
__KJIT_HD __KJIT_T2 __hadd2_rn(__KJIT_T2 a, __KJIT_T2 b) {
  return a + b;
}
__KJIT_HD __KJIT_T2 __hsub2_rn(__KJIT_T2 a, __KJIT_T2 b) {
  return a - b;
}
__KJIT_HD __KJIT_T2 __hmul2_rn(__KJIT_T2 a, __KJIT_T2 b) {
  return a * b;
}
__KJIT_HD __KJIT_T2 __hfma2(__KJIT_T2 a, __KJIT_T2 b, __KJIT_T2 c) {
  return __KJIT_T2(__hfma(a.x, b.x, c.x), __hfma(a.y, b.y, c.y));
}
__KJIT_HD __KJIT_T2 __hfma2_sat(__KJIT_T2 a, __KJIT_T2 b, __KJIT_T2 c) {
  return __KJIT_T2(__hfma_sat(a.x, b.x, c.x), __hfma_sat(a.y, b.y, c.y));
}
__KJIT_HD __KJIT_T2 __hfma2_relu(__KJIT_T2 a, __KJIT_T2 b, __KJIT_T2 c) {
  return __KJIT_T2(__hfma_relu(a.x, b.x, c.x), __hfma_relu(a.y, b.y, c.y));
}
__KJIT_HD __KJIT_T2 __hadd2_sat(__KJIT_T2 a, __KJIT_T2 b) {
  return __KJIT_T2(__hadd_sat(a.x, b.x), __hadd_sat(a.y, b.y));
}
__KJIT_HD __KJIT_T2 __hsub2_sat(__KJIT_T2 a, __KJIT_T2 b) {
  return __KJIT_T2(__hsub_sat(a.x, b.x), __hsub_sat(a.y, b.y));
}
__KJIT_HD __KJIT_T2 __hmul2_sat(__KJIT_T2 a, __KJIT_T2 b) {
  return __KJIT_T2(__hmul_sat(a.x, b.x), __hmul_sat(a.y, b.y));
}
__KJIT_HD __KJIT_T2 __hneg2(__KJIT_T2 a) {
  return -a;
}
__KJIT_HD __KJIT_T2 __habs2(__KJIT_T2 a) {
  return __KJIT_T2(__habs(a.x), __habs(a.y));
}
/// (a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x) + c: a complex multiply-add.
__KJIT_HD __KJIT_T2 __hcmadd(__KJIT_T2 a, __KJIT_T2 b, __KJIT_T2 c) {
  const __KJIT_T re = __hfma(a.x, b.x, __hfma(-a.y, b.y, c.x));
  const __KJIT_T im = __hfma(a.x, b.y, __hfma(a.y, b.x, c.y));
  return __KJIT_T2(re, im);
}

// ---- comparisons ------------------------------------------------------------------------------
// __hOP (one value), __hOP2 (1.0 or 0.0 per half), __hOP2_mask (0xffff per half), __hbOP2 (both);
// the ...u forms are true where either side is NaN.
#define __KJIT_CMP(OP, TEST, UNORDERED)                                                  \
  __KJIT_HD bool __h##OP(__KJIT_T a, __KJIT_T b) {                                       \
    const float x = __KJIT_F(a), y = __KJIT_F(b);                                        \
    return (x != x || y != y) ? UNORDERED : (x TEST y);                                  \
  }                                                                                      \
  __KJIT_HD __KJIT_T2 __h##OP##2(__KJIT_T2 a, __KJIT_T2 b) {                             \
    return __KJIT_T2(__KJIT_TO(__h##OP(a.x, b.x) ? 1.0f : 0.0f),                         \
                     __KJIT_TO(__h##OP(a.y, b.y) ? 1.0f : 0.0f));                        \
  }                                                                                      \
  __KJIT_HD unsigned __h##OP##2_mask(__KJIT_T2 a, __KJIT_T2 b) {                         \
    return (__h##OP(a.x, b.x) ? 0xffffu : 0u) | (__h##OP(a.y, b.y) ? 0xffff0000u : 0u);  \
  }                                                                                      \
  __KJIT_HD bool __hb##OP##2(__KJIT_T2 a, __KJIT_T2 b) {                                 \
    return __h##OP(a.x, b.x) && __h##OP(a.y, b.y);                                       \
  }
__KJIT_CMP(eq, ==, false)
__KJIT_CMP(ne, !=, false)
__KJIT_CMP(lt, <, false)
__KJIT_CMP(le, <=, false)
__KJIT_CMP(gt, >, false)
__KJIT_CMP(ge, >=, false)
__KJIT_CMP(equ, ==, true)
__KJIT_CMP(neu, !=, true)
__KJIT_CMP(ltu, <, true)
__KJIT_CMP(leu, <=, true)
__KJIT_CMP(gtu, >, true)
__KJIT_CMP(geu, >=, true)
#undef __KJIT_CMP

__KJIT_HD bool __hisnan(__KJIT_T a) {
  const float f = __KJIT_F(a);
  return f != f;
}
__KJIT_HD __KJIT_T2 __hisnan2(__KJIT_T2 a) {
  return __KJIT_T2(__KJIT_TO(__hisnan(a.x) ? 1.0f : 0.0f), __KJIT_TO(__hisnan(a.y) ? 1.0f : 0.0f));
}
/// -1 for -infinity, 1 for +infinity, else 0.
__KJIT_HD int __hisinf(__KJIT_T a) {
  const float f = __KJIT_F(a);
  return f == __builtin_bit_cast(float, 0x7f800000u) ? 1
         : f == __builtin_bit_cast(float, 0xff800000u) ? -1
                                                       : 0;
}
__KJIT_HD __KJIT_T __hmax(__KJIT_T a, __KJIT_T b) {
  return __KJIT_TO(fmaxf(__KJIT_F(a), __KJIT_F(b)));
}
__KJIT_HD __KJIT_T __hmin(__KJIT_T a, __KJIT_T b) {
  return __KJIT_TO(fminf(__KJIT_F(a), __KJIT_F(b)));
}
__KJIT_HD __KJIT_T __hmax_nan(__KJIT_T a, __KJIT_T b) {
  return __hisnan(a) ? a : __hisnan(b) ? b : __hmax(a, b);
}
__KJIT_HD __KJIT_T __hmin_nan(__KJIT_T a, __KJIT_T b) {
  return __hisnan(a) ? a : __hisnan(b) ? b : __hmin(a, b);
}
__KJIT_HD __KJIT_T2 __hmax2(__KJIT_T2 a, __KJIT_T2 b) {
  return __KJIT_T2(__hmax(a.x, b.x), __hmax(a.y, b.y));
}
__KJIT_HD __KJIT_T2 __hmin2(__KJIT_T2 a, __KJIT_T2 b) {
  return __KJIT_T2(__hmin(a.x, b.x), __hmin(a.y, b.y));
}
__KJIT_HD __KJIT_T2 __hmax2_nan(__KJIT_T2 a, __KJIT_T2 b) {
  return __KJIT_T2(__hmax_nan(a.x, b.x), __hmax_nan(a.y, b.y));
}
__KJIT_HD __KJIT_T2 __hmin2_nan(__KJIT_T2 a, __KJIT_T2 b) {
  return __KJIT_T2(__hmin_nan(a.x, b.x), __hmin_nan(a.y, b.y));
}

// ---- math: the float function, rounded once: hNAME and h2NAME ---------------------------------
#define __KJIT_MATH(NAME, EXPR)                 \
  __KJIT_HD __KJIT_T h##NAME(__KJIT_T a) {      \
    const float x = __KJIT_F(a);                \
    return __KJIT_TO(EXPR);                     \
  }                                             \
  __KJIT_HD __KJIT_T2 h2##NAME(__KJIT_T2 a) {   \
    return __KJIT_T2(h##NAME(a.x), h##NAME(a.y)); \
  }
__KJIT_MATH(sqrt, sqrtf(x))
__KJIT_MATH(rsqrt, 1.0f / sqrtf(x))
__KJIT_MATH(rcp, 1.0f / x)
__KJIT_MATH(exp, expf(x))
__KJIT_MATH(exp2, exp2f(x))
__KJIT_MATH(exp10, exp10f(x))
__KJIT_MATH(log, logf(x))
__KJIT_MATH(log2, log2f(x))
__KJIT_MATH(log10, log10f(x))
__KJIT_MATH(sin, sinf(x))
__KJIT_MATH(cos, cosf(x))
__KJIT_MATH(tanh, tanhf(x))
__KJIT_MATH(tanh_approx, tanhf(x))
__KJIT_MATH(ceil, ceilf(x))
__KJIT_MATH(floor, floorf(x))
__KJIT_MATH(trunc, truncf(x))
__KJIT_MATH(rint, rintf(x))
#undef __KJIT_MATH

// ---- warp shuffles of 16-bit values ----------------------------------------------------------
#if defined(__KJIT_CUDA__)  // HIP's (ROCm 5) has no _sync shuffles; the CPU's take any type
__device__ inline __KJIT_T __shfl_sync(unsigned mask, __KJIT_T v, int lane, int width = 32) {
  return __KJIT_FROM_BITS(
      static_cast<unsigned short>(__shfl_sync(mask, static_cast<unsigned>(__KJIT_BITS(v)), lane, width)));
}
__device__ inline __KJIT_T __shfl_up_sync(unsigned mask, __KJIT_T v, unsigned d, int width = 32) {
  return __KJIT_FROM_BITS(static_cast<unsigned short>(
      __shfl_up_sync(mask, static_cast<unsigned>(__KJIT_BITS(v)), d, width)));
}
__device__ inline __KJIT_T __shfl_down_sync(unsigned mask, __KJIT_T v, unsigned d, int width = 32) {
  return __KJIT_FROM_BITS(static_cast<unsigned short>(
      __shfl_down_sync(mask, static_cast<unsigned>(__KJIT_BITS(v)), d, width)));
}
__device__ inline __KJIT_T __shfl_xor_sync(unsigned mask, __KJIT_T v, int x, int width = 32) {
  return __KJIT_FROM_BITS(static_cast<unsigned short>(
      __shfl_xor_sync(mask, static_cast<unsigned>(__KJIT_BITS(v)), x, width)));
}
#endif
