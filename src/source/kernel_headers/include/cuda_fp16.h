// kjit's <cuda_fp16.h>: IEEE binary16 for kernels, on every backend: __half and __half2 with
// CUDA's conversions (every rounding mode, every integer type), operators, arithmetic and
// comparison intrinsics (__hadd, __hfma, __heq2 ...), math (hsqrt, hexp, h2sin ...), atomicAdd and
// warp shuffles. Results are correctly rounded (see __kjit_fp16.h), as CUDA's instructions are;
// CUDA's approximate math functions (hexp ...) may differ from these in the last place. The host
// type for buffers of __half is kjit::half (<kjit/half.hpp>). hipRTC has its own (HIP's
// amd_hip_fp16.h, always there): on HIP this header adds little. On the CPU, conversions use the
// processor's F16C instructions where it has them; __KJIT_FP16_IN_SOFTWARE (for kjit's tests)
// makes them use the software path that other processors use.
#ifndef __KJIT_CUDA_FP16_H
#define __KJIT_CUDA_FP16_H
#if !defined(__KJIT_HIP__)
#include "__kjit_fp16.h"

struct __half_raw {
  unsigned short x;
};
struct __half2_raw {
  unsigned short x;
  unsigned short y;
};

namespace __kjit_fp {

/// `f` rounded to binary16 in mode `r`: its bits.
__KJIT_HD unsigned short half_bits(float f, int r) {
#if defined(__KJIT_CUDA__)
  unsigned short h;
  switch (r) {
    case toward_zero:
      asm("cvt.rz.f16.f32 %0, %1;" : "=h"(h) : "f"(f));
      break;
    case down:
      asm("cvt.rm.f16.f32 %0, %1;" : "=h"(h) : "f"(f));
      break;
    case up:
      asm("cvt.rp.f16.f32 %0, %1;" : "=h"(h) : "f"(f));
      break;
    default:
      asm("cvt.rn.f16.f32 %0, %1;" : "=h"(h) : "f"(f));
  }
  return h;
#elif defined(__KJIT_HIP__) || (defined(__F16C__) && !defined(__KJIT_FP16_IN_SOFTWARE))
  if (r == to_nearest && f == f) {
    return __builtin_bit_cast(unsigned short, static_cast<_Float16>(f));
  }
  return binary16::from_double(f, r);
#else
  return binary16::from_double(f, r);
#endif
}

/// The value of binary16 bits `h`.
__KJIT_HD float half_value(unsigned short h) {
#if defined(__KJIT_CUDA__)
  float f;
  asm("cvt.f32.f16 %0, %1;" : "=f"(f) : "h"(h));
  return f;
#elif defined(__KJIT_HIP__) || (defined(__F16C__) && !defined(__KJIT_FP16_IN_SOFTWARE))
  return static_cast<float>(__builtin_bit_cast(_Float16, h));
#else
  return binary16::to_float(h);
#endif
}

}  // namespace __kjit_fp

struct alignas(2) __half {
  unsigned short __x;

  __half() = default;
  __KJIT_HD constexpr __half(const __half_raw& r) : __x(r.x) {}
  __KJIT_HD __half& operator=(const __half_raw& r) {
    __x = r.x;
    return *this;
  }
  __KJIT_HD operator __half_raw() const { return __half_raw{__x}; }

  __KJIT_HD __half(float f) : __x(__kjit_fp::half_bits(f, __kjit_fp::to_nearest)) {}
  __KJIT_HD __half(double d) : __x(__kjit_fp::binary16::from_double(d, __kjit_fp::to_nearest)) {}
  __KJIT_HD __half(short v) : __half(static_cast<double>(v)) {}
  __KJIT_HD __half(unsigned short v) : __half(static_cast<double>(v)) {}
  __KJIT_HD __half(int v) : __half(static_cast<double>(v)) {}
  __KJIT_HD __half(unsigned int v) : __half(static_cast<double>(v)) {}
  __KJIT_HD __half(long long v) : __half(static_cast<double>(v)) {}
  __KJIT_HD __half(unsigned long long v) : __half(static_cast<double>(v)) {}
  __KJIT_HD __half& operator=(float f) { return *this = __half(f); }
  __KJIT_HD __half& operator=(double d) { return *this = __half(d); }

  __KJIT_HD operator float() const { return __kjit_fp::half_value(__x); }
  // To integers: toward zero, saturating (NaN gives 0).
  __KJIT_HD explicit operator signed char() const { return to<signed char>(-128, 127); }
  __KJIT_HD explicit operator unsigned char() const { return to<unsigned char>(0, 255); }
  __KJIT_HD explicit operator char() const { return to<char>(-128, 127); }
  __KJIT_HD explicit operator short() const { return to<short>(-32768, 32767); }
  __KJIT_HD explicit operator unsigned short() const { return to<unsigned short>(0, 65535); }
  __KJIT_HD explicit operator int() const { return to<int>(-2147483647 - 1, 2147483647); }
  __KJIT_HD explicit operator unsigned int() const { return to<unsigned int>(0, 4294967295u); }
  __KJIT_HD explicit operator long long() const {
    return to<long long>(-9223372036854775807LL - 1, 9223372036854775807LL);
  }
  __KJIT_HD explicit operator unsigned long long() const {
    return to<unsigned long long>(0, 18446744073709551615ULL);
  }
  __KJIT_HD explicit operator bool() const { return (__x & 0x7fffu) != 0; }

 private:
  template <class I>
  __KJIT_HD I to(I lo, I hi) const {
    return __kjit_fp::to_integer<I>(__kjit_fp::half_value(__x), __kjit_fp::toward_zero, lo, hi);
  }
};

struct alignas(4) __half2 {
  __half x;
  __half y;

  __half2() = default;
  __KJIT_HD constexpr __half2(const __half& a, const __half& b) : x(a), y(b) {}
  __KJIT_HD __half2(const __half2_raw& r) : x(__half_raw{r.x}), y(__half_raw{r.y}) {}
  __KJIT_HD __half2& operator=(const __half2_raw& r) { return *this = __half2(r); }
  __KJIT_HD operator __half2_raw() const { return __half2_raw{x.__x, y.__x}; }
};

typedef __half half;
typedef __half2 half2;

// ---- bits ------------------------------------------------------------------------------------
__KJIT_HD short __half_as_short(__half h) {
  return static_cast<short>(h.__x);
}
__KJIT_HD unsigned short __half_as_ushort(__half h) {
  return h.__x;
}
__KJIT_HD __half __short_as_half(short s) {
  return __half_raw{static_cast<unsigned short>(s)};
}
__KJIT_HD __half __ushort_as_half(unsigned short s) {
  return __half_raw{s};
}

// ---- float and double ------------------------------------------------------------------------
__KJIT_HD __half __float2half(float f) {
  return __half_raw{__kjit_fp::half_bits(f, __kjit_fp::to_nearest)};
}
__KJIT_HD __half __float2half_rn(float f) {
  return __float2half(f);
}
__KJIT_HD __half __float2half_rz(float f) {
  return __half_raw{__kjit_fp::half_bits(f, __kjit_fp::toward_zero)};
}
__KJIT_HD __half __float2half_rd(float f) {
  return __half_raw{__kjit_fp::half_bits(f, __kjit_fp::down)};
}
__KJIT_HD __half __float2half_ru(float f) {
  return __half_raw{__kjit_fp::half_bits(f, __kjit_fp::up)};
}
__KJIT_HD float __half2float(__half h) {
  return __kjit_fp::half_value(h.__x);
}
__KJIT_HD __half __double2half(double d) {
  return __half_raw{__kjit_fp::binary16::from_double(d, __kjit_fp::to_nearest)};
}
__KJIT_HD __half2 __float2half2_rn(float f) {
  const __half h = __float2half(f);
  return __half2(h, h);
}
__KJIT_HD __half2 __floats2half2_rn(float a, float b) {
  return __half2(__float2half(a), __float2half(b));
}
__KJIT_HD __half2 __float22half2_rn(float2 f) {
  return __floats2half2_rn(f.x, f.y);
}
__KJIT_HD float2 __half22float2(__half2 h) {
  return make_float2(__half2float(h.x), __half2float(h.y));
}
__KJIT_HD float __low2float(__half2 h) {
  return __half2float(h.x);
}
__KJIT_HD float __high2float(__half2 h) {
  return __half2float(h.y);
}

// ---- pairs -----------------------------------------------------------------------------------
__KJIT_HD __half2 make_half2(__half a, __half b) {
  return __half2(a, b);
}
__KJIT_HD __half2 __halves2half2(__half a, __half b) {
  return __half2(a, b);
}
__KJIT_HD __half2 __half2half2(__half a) {
  return __half2(a, a);
}
__KJIT_HD __half __low2half(__half2 h) {
  return h.x;
}
__KJIT_HD __half __high2half(__half2 h) {
  return h.y;
}
__KJIT_HD __half2 __low2half2(__half2 h) {
  return __half2(h.x, h.x);
}
__KJIT_HD __half2 __high2half2(__half2 h) {
  return __half2(h.y, h.y);
}
__KJIT_HD __half2 __lows2half2(__half2 a, __half2 b) {
  return __half2(a.x, b.x);
}
__KJIT_HD __half2 __highs2half2(__half2 a, __half2 b) {
  return __half2(a.y, b.y);
}
__KJIT_HD __half2 __lowhigh2highlow(__half2 h) {
  return __half2(h.y, h.x);
}

// ---- integers: __half2int_rn ... and __int2half_rn ... -----------------------------------------
#define __KJIT_HALF_INT(NAME, T, LO, HI)                                                   \
  __KJIT_HD T __half2##NAME##_rn(__half h) {                                               \
    return __kjit_fp::to_integer<T>(__half2float(h), __kjit_fp::to_nearest, LO, HI);       \
  }                                                                                        \
  __KJIT_HD T __half2##NAME##_rz(__half h) {                                               \
    return __kjit_fp::to_integer<T>(__half2float(h), __kjit_fp::toward_zero, LO, HI);      \
  }                                                                                        \
  __KJIT_HD T __half2##NAME##_rd(__half h) {                                               \
    return __kjit_fp::to_integer<T>(__half2float(h), __kjit_fp::down, LO, HI);             \
  }                                                                                        \
  __KJIT_HD T __half2##NAME##_ru(__half h) {                                               \
    return __kjit_fp::to_integer<T>(__half2float(h), __kjit_fp::up, LO, HI);               \
  }                                                                                        \
  __KJIT_HD __half __##NAME##2half_rn(T v) {                                               \
    return __half_raw{__kjit_fp::binary16::from_double(static_cast<double>(v), 0)};        \
  }                                                                                        \
  __KJIT_HD __half __##NAME##2half_rz(T v) {                                               \
    return __half_raw{__kjit_fp::binary16::from_double(static_cast<double>(v), 1)};        \
  }                                                                                        \
  __KJIT_HD __half __##NAME##2half_rd(T v) {                                               \
    return __half_raw{__kjit_fp::binary16::from_double(static_cast<double>(v), 2)};        \
  }                                                                                        \
  __KJIT_HD __half __##NAME##2half_ru(T v) {                                               \
    return __half_raw{__kjit_fp::binary16::from_double(static_cast<double>(v), 3)};        \
  }
__KJIT_HALF_INT(short, short, -32768, 32767)
__KJIT_HALF_INT(ushort, unsigned short, 0, 65535)
__KJIT_HALF_INT(int, int, -2147483647 - 1, 2147483647)
__KJIT_HALF_INT(uint, unsigned int, 0u, 4294967295u)
__KJIT_HALF_INT(ll, long long, -9223372036854775807LL - 1, 9223372036854775807LL)
__KJIT_HALF_INT(ull, unsigned long long, 0ULL, 18446744073709551615ULL)
#undef __KJIT_HALF_INT
__KJIT_HD signed char __half2char_rz(__half h) {
  return __kjit_fp::to_integer<signed char>(__half2float(h), __kjit_fp::toward_zero, -128, 127);
}
__KJIT_HD unsigned char __half2uchar_rz(__half h) {
  return __kjit_fp::to_integer<unsigned char>(__half2float(h), __kjit_fp::toward_zero, 0, 255);
}

// ---- fused multiply-add (one rounding) -----------------------------------------------------
__KJIT_HD __half __hfma(__half a, __half b, __half c) {
#if defined(__KJIT_CUDA__)
  unsigned short r;
  asm("fma.rn.f16 %0, %1, %2, %3;" : "=h"(r) : "h"(a.__x), "h"(b.__x), "h"(c.__x));
  return __half_raw{r};
#else
  return __half_raw{__kjit_fp::binary16::from_double(
      __kjit_fp::fma_to_odd(__half2float(a), __half2float(b), __half2float(c)),
      __kjit_fp::to_nearest)};
#endif
}

#define __KJIT_T __half
#define __KJIT_T2 __half2
#define __KJIT_TO(f) __float2half(f)
#define __KJIT_F(h) __half2float(h)
#define __KJIT_BITS(h) __half_as_ushort(h)
#define __KJIT_FROM_BITS(b) __ushort_as_half(b)
#include "__kjit_fp16_ops.h"
#undef __KJIT_T
#undef __KJIT_T2
#undef __KJIT_TO
#undef __KJIT_F
#undef __KJIT_BITS
#undef __KJIT_FROM_BITS

// ---- atomics ---------------------------------------------------------------------------------
__device__ inline __half atomicAdd(__half* address, __half value) {
#if defined(__KJIT_CUDA__)
  unsigned short old;
  asm volatile("atom.add.noftz.f16 %0, [%1], %2;"
               : "=h"(old)
               : "l"(address), "h"(value.__x)
               : "memory");
  return __half_raw{old};
#else
  return __ushort_as_half(__kjit_fp::atomic_update16(
      reinterpret_cast<unsigned short*>(address),
      [value](unsigned short old) { return __half_as_ushort(__ushort_as_half(old) + value); }));
#endif
}
__device__ inline __half2 atomicAdd(__half2* address, __half2 value) {
#if defined(__KJIT_CUDA__)
  unsigned int old;
  const unsigned int v = value.x.__x | (static_cast<unsigned int>(value.y.__x) << 16);
  asm volatile("atom.add.noftz.f16x2 %0, [%1], %2;" : "=r"(old) : "l"(address), "r"(v) : "memory");
  return __half2(__ushort_as_half(static_cast<unsigned short>(old)),
                 __ushort_as_half(static_cast<unsigned short>(old >> 16)));
#else
  unsigned int* bits = reinterpret_cast<unsigned int*>(address);
  unsigned int old = *bits;
  while (true) {
    const __half2 now(__ushort_as_half(static_cast<unsigned short>(old)),
                      __ushort_as_half(static_cast<unsigned short>(old >> 16)));
    const __half2 sum = now + value;
    const unsigned int desired = sum.x.__x | (static_cast<unsigned int>(sum.y.__x) << 16);
    const unsigned int seen = atomicCAS(bits, old, desired);
    if (seen == old) {
      return now;
    }
    old = seen;
  }
#endif
}

#if defined(__KJIT_CUDA__)
// The loads and stores with a cache hint (NVRTC's have no overload for these), through those of
// the same bits.
#define __KJIT_HALF_LOAD(NAME)                                                 \
  __device__ inline __half NAME(const __half* p) {                             \
    return __ushort_as_half(NAME(reinterpret_cast<const unsigned short*>(p))); \
  }                                                                            \
  __device__ inline __half2 NAME(const __half2* p) {                           \
    const unsigned int v = NAME(reinterpret_cast<const unsigned int*>(p));     \
    return __half2(__ushort_as_half(static_cast<unsigned short>(v)),           \
                   __ushort_as_half(static_cast<unsigned short>(v >> 16)));    \
  }
#define __KJIT_HALF_STORE(NAME)                                                                   \
  __device__ inline void NAME(__half* p, __half v) {                                              \
    NAME(reinterpret_cast<unsigned short*>(p), __half_as_ushort(v));                              \
  }                                                                                               \
  __device__ inline void NAME(__half2* p, __half2 v) {                                            \
    NAME(reinterpret_cast<unsigned int*>(p), static_cast<unsigned int>(__half_as_ushort(v.x)) |   \
                                                 static_cast<unsigned int>(__half_as_ushort(v.y)) \
                                                     << 16);                                      \
  }
__KJIT_HALF_LOAD(__ldg)
__KJIT_HALF_LOAD(__ldca)
__KJIT_HALF_LOAD(__ldcg)
__KJIT_HALF_LOAD(__ldcs)
__KJIT_HALF_LOAD(__ldlu)
__KJIT_HALF_LOAD(__ldcv)
__KJIT_HALF_STORE(__stcg)
__KJIT_HALF_STORE(__stcs)
__KJIT_HALF_STORE(__stwb)
__KJIT_HALF_STORE(__stwt)
#undef __KJIT_HALF_LOAD
#undef __KJIT_HALF_STORE
#endif

#define CUDART_INF_FP16 __ushort_as_half((unsigned short)0x7C00U)
#define CUDART_NAN_FP16 __ushort_as_half((unsigned short)0x7FFFU)
#define CUDART_MIN_DENORM_FP16 __ushort_as_half((unsigned short)0x0001U)
#define CUDART_MAX_NORMAL_FP16 __ushort_as_half((unsigned short)0x7BFFU)
#define CUDART_NEG_ZERO_FP16 __ushort_as_half((unsigned short)0x8000U)
#define CUDART_ZERO_FP16 __ushort_as_half((unsigned short)0x0000U)
#define CUDART_ONE_FP16 __ushort_as_half((unsigned short)0x3C00U)

#else  // HIP: what ROCm 5's fp16 lacks, as templates that a HIP which has them does not use
#include "__kjit_fp16.h"
template <class H>
struct __kjit_is_half {};
template <>
struct __kjit_is_half<__half> {
  typedef __half type;
};
template <class H>
__device__ inline typename __kjit_is_half<H>::type __hmax(H a, H b) {
  return __float2half(fmaxf(__half2float(a), __half2float(b)));
}
template <class H>
__device__ inline typename __kjit_is_half<H>::type __hmin(H a, H b) {
  return __float2half(fminf(__half2float(a), __half2float(b)));
}
template <class H>
__device__ inline typename __kjit_is_half<H>::type atomicAdd(H* address, H value) {
  return __ushort_as_half(__kjit_fp::atomic_update16(
      reinterpret_cast<unsigned short*>(address),
      [value](unsigned short old) { return __half_as_ushort(__hadd(__ushort_as_half(old), value)); }));
}
template <class H>
struct __kjit_is_half2 {};
template <>
struct __kjit_is_half2<__half2> {
  typedef __half2 type;
};
template <class H>
__device__ inline typename __kjit_is_half2<H>::type atomicAdd(H* address, H value) {
  unsigned int* word = reinterpret_cast<unsigned int*>(address);
  unsigned int old = *word;
  while (true) {
    const __half2 now = __builtin_bit_cast(__half2, old);
    const unsigned int sum = __builtin_bit_cast(unsigned int, __hadd2(now, value));
    const unsigned int seen = atomicCAS(word, old, sum);
    if (seen == old) {
      return now;
    }
    old = seen;
  }
}
#endif  // HIP

#endif
