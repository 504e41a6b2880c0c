// kjit's <cuda_bf16.h>: bfloat16 for kernels, on every backend: __nv_bfloat16 and
// __nv_bfloat162 with CUDA's conversions (every rounding mode, every integer type), operators,
// arithmetic and comparison intrinsics (__hadd, __hfma, __heq2 ...), math (hsqrt, hexp ...),
// atomicAdd and warp shuffles. Results are correctly rounded (see __kjit_fp16.h); CUDA's
// approximate math functions may differ from these in the last place. The host type for buffers
// of __nv_bfloat16 is kjit::bfloat16 (<kjit/half.hpp>).
#ifndef __KJIT_CUDA_BF16_H
#define __KJIT_CUDA_BF16_H
#include "__kjit_fp16.h"

struct __nv_bfloat16_raw {
  unsigned short x;
};
struct __nv_bfloat162_raw {
  unsigned short x;
  unsigned short y;
};

namespace __kjit_fp {

/// `f` rounded to bfloat16 in mode `r`: its bits (a float's upper half, rounded).
__KJIT_HD unsigned short bfloat16_bits(float f, int r) {
  if (f != f) {
    return bfloat16::nan;
  }
  if (r == to_nearest) {
    const unsigned int b = float_bits(f);
    return static_cast<unsigned short>((b + 0x7fffu + ((b >> 16) & 1u)) >> 16);
  }
  return bfloat16::from_double(f, r);
}

/// The value of bfloat16 bits `h`.
__KJIT_HD float bfloat16_value(unsigned short h) {
  return bits_float(static_cast<unsigned int>(h) << 16);
}

}  // namespace __kjit_fp

struct alignas(2) __nv_bfloat16 {
  unsigned short __x;

  __nv_bfloat16() = default;
  __KJIT_HD constexpr __nv_bfloat16(const __nv_bfloat16_raw& r) : __x(r.x) {}
  __KJIT_HD __nv_bfloat16& operator=(const __nv_bfloat16_raw& r) {
    __x = r.x;
    return *this;
  }
  __KJIT_HD operator __nv_bfloat16_raw() const { return __nv_bfloat16_raw{__x}; }

  __KJIT_HD __nv_bfloat16(float f) : __x(__kjit_fp::bfloat16_bits(f, __kjit_fp::to_nearest)) {}
  __KJIT_HD __nv_bfloat16(double d) : __x(__kjit_fp::bfloat16::from_double(d, __kjit_fp::to_nearest)) {}
  __KJIT_HD __nv_bfloat16(short v) : __nv_bfloat16(static_cast<double>(v)) {}
  __KJIT_HD __nv_bfloat16(unsigned short v) : __nv_bfloat16(static_cast<double>(v)) {}
  __KJIT_HD __nv_bfloat16(int v) : __nv_bfloat16(static_cast<double>(v)) {}
  __KJIT_HD __nv_bfloat16(unsigned int v) : __nv_bfloat16(static_cast<double>(v)) {}
  __KJIT_HD __nv_bfloat16(long long v) : __nv_bfloat16(static_cast<double>(v)) {}
  __KJIT_HD __nv_bfloat16(unsigned long long v) : __nv_bfloat16(static_cast<double>(v)) {}
  __KJIT_HD __nv_bfloat16& operator=(float f) { return *this = __nv_bfloat16(f); }
  __KJIT_HD __nv_bfloat16& operator=(double d) { return *this = __nv_bfloat16(d); }

  __KJIT_HD operator float() const { return __kjit_fp::bfloat16_value(__x); }
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
    return __kjit_fp::to_integer<I>(__kjit_fp::bfloat16_value(__x), __kjit_fp::toward_zero, lo, hi);
  }
};

struct alignas(4) __nv_bfloat162 {
  __nv_bfloat16 x;
  __nv_bfloat16 y;

  __nv_bfloat162() = default;
  __KJIT_HD constexpr __nv_bfloat162(const __nv_bfloat16& a, const __nv_bfloat16& b) : x(a), y(b) {}
  __KJIT_HD __nv_bfloat162(const __nv_bfloat162_raw& r) : x(__nv_bfloat16_raw{r.x}), y(__nv_bfloat16_raw{r.y}) {}
  __KJIT_HD __nv_bfloat162& operator=(const __nv_bfloat162_raw& r) { return *this = __nv_bfloat162(r); }
  __KJIT_HD operator __nv_bfloat162_raw() const { return __nv_bfloat162_raw{x.__x, y.__x}; }
};

typedef __nv_bfloat16 nv_bfloat16;
typedef __nv_bfloat162 nv_bfloat162;

// ---- bits ------------------------------------------------------------------------------------
__KJIT_HD short __bfloat16_as_short(__nv_bfloat16 h) {
  return static_cast<short>(h.__x);
}
__KJIT_HD unsigned short __bfloat16_as_ushort(__nv_bfloat16 h) {
  return h.__x;
}
__KJIT_HD __nv_bfloat16 __short_as_bfloat16(short s) {
  return __nv_bfloat16_raw{static_cast<unsigned short>(s)};
}
__KJIT_HD __nv_bfloat16 __ushort_as_bfloat16(unsigned short s) {
  return __nv_bfloat16_raw{s};
}

// ---- float and double ------------------------------------------------------------------------
__KJIT_HD __nv_bfloat16 __float2bfloat16(float f) {
  return __nv_bfloat16_raw{__kjit_fp::bfloat16_bits(f, __kjit_fp::to_nearest)};
}
__KJIT_HD __nv_bfloat16 __float2bfloat16_rn(float f) {
  return __float2bfloat16(f);
}
__KJIT_HD __nv_bfloat16 __float2bfloat16_rz(float f) {
  return __nv_bfloat16_raw{__kjit_fp::bfloat16_bits(f, __kjit_fp::toward_zero)};
}
__KJIT_HD __nv_bfloat16 __float2bfloat16_rd(float f) {
  return __nv_bfloat16_raw{__kjit_fp::bfloat16_bits(f, __kjit_fp::down)};
}
__KJIT_HD __nv_bfloat16 __float2bfloat16_ru(float f) {
  return __nv_bfloat16_raw{__kjit_fp::bfloat16_bits(f, __kjit_fp::up)};
}
__KJIT_HD float __bfloat162float(__nv_bfloat16 h) {
  return __kjit_fp::bfloat16_value(h.__x);
}
__KJIT_HD __nv_bfloat16 __double2bfloat16(double d) {
  return __nv_bfloat16_raw{__kjit_fp::bfloat16::from_double(d, __kjit_fp::to_nearest)};
}
__KJIT_HD __nv_bfloat162 __float2bfloat162_rn(float f) {
  const __nv_bfloat16 h = __float2bfloat16(f);
  return __nv_bfloat162(h, h);
}
__KJIT_HD __nv_bfloat162 __floats2bfloat162_rn(float a, float b) {
  return __nv_bfloat162(__float2bfloat16(a), __float2bfloat16(b));
}
__KJIT_HD __nv_bfloat162 __float22bfloat162_rn(float2 f) {
  return __floats2bfloat162_rn(f.x, f.y);
}
__KJIT_HD float2 __bfloat1622float2(__nv_bfloat162 h) {
  return make_float2(__bfloat162float(h.x), __bfloat162float(h.y));
}
__KJIT_HD float __low2float(__nv_bfloat162 h) {
  return __bfloat162float(h.x);
}
__KJIT_HD float __high2float(__nv_bfloat162 h) {
  return __bfloat162float(h.y);
}

// ---- pairs -----------------------------------------------------------------------------------
__KJIT_HD __nv_bfloat162 make_bfloat162(__nv_bfloat16 a, __nv_bfloat16 b) {
  return __nv_bfloat162(a, b);
}
__KJIT_HD __nv_bfloat162 __halves2bfloat162(__nv_bfloat16 a, __nv_bfloat16 b) {
  return __nv_bfloat162(a, b);
}
__KJIT_HD __nv_bfloat162 __bfloat162bfloat162(__nv_bfloat16 a) {
  return __nv_bfloat162(a, a);
}
__KJIT_HD __nv_bfloat16 __low2bfloat16(__nv_bfloat162 h) {
  return h.x;
}
__KJIT_HD __nv_bfloat16 __high2bfloat16(__nv_bfloat162 h) {
  return h.y;
}
__KJIT_HD __nv_bfloat162 __low2bfloat162(__nv_bfloat162 h) {
  return __nv_bfloat162(h.x, h.x);
}
__KJIT_HD __nv_bfloat162 __high2bfloat162(__nv_bfloat162 h) {
  return __nv_bfloat162(h.y, h.y);
}
__KJIT_HD __nv_bfloat162 __lows2bfloat162(__nv_bfloat162 a, __nv_bfloat162 b) {
  return __nv_bfloat162(a.x, b.x);
}
__KJIT_HD __nv_bfloat162 __highs2bfloat162(__nv_bfloat162 a, __nv_bfloat162 b) {
  return __nv_bfloat162(a.y, b.y);
}
__KJIT_HD __nv_bfloat162 __lowhigh2highlow(__nv_bfloat162 h) {
  return __nv_bfloat162(h.y, h.x);
}

// ---- integers: __bfloat162int_rn ... and __int2bfloat16_rn ... --------------------------------
#define __KJIT_BF16_INT(NAME, T, LO, HI)                                                   \
  __KJIT_HD T __bfloat162##NAME##_rn(__nv_bfloat16 h) {                                               \
    return __kjit_fp::to_integer<T>(__bfloat162float(h), __kjit_fp::to_nearest, LO, HI);       \
  }                                                                                        \
  __KJIT_HD T __bfloat162##NAME##_rz(__nv_bfloat16 h) {                                               \
    return __kjit_fp::to_integer<T>(__bfloat162float(h), __kjit_fp::toward_zero, LO, HI);      \
  }                                                                                        \
  __KJIT_HD T __bfloat162##NAME##_rd(__nv_bfloat16 h) {                                               \
    return __kjit_fp::to_integer<T>(__bfloat162float(h), __kjit_fp::down, LO, HI);             \
  }                                                                                        \
  __KJIT_HD T __bfloat162##NAME##_ru(__nv_bfloat16 h) {                                               \
    return __kjit_fp::to_integer<T>(__bfloat162float(h), __kjit_fp::up, LO, HI);               \
  }                                                                                        \
  __KJIT_HD __nv_bfloat16 __##NAME##2bfloat16_rn(T v) {                                               \
    return __nv_bfloat16_raw{__kjit_fp::bfloat16::from_double(static_cast<double>(v), 0)};        \
  }                                                                                        \
  __KJIT_HD __nv_bfloat16 __##NAME##2bfloat16_rz(T v) {                                               \
    return __nv_bfloat16_raw{__kjit_fp::bfloat16::from_double(static_cast<double>(v), 1)};        \
  }                                                                                        \
  __KJIT_HD __nv_bfloat16 __##NAME##2bfloat16_rd(T v) {                                               \
    return __nv_bfloat16_raw{__kjit_fp::bfloat16::from_double(static_cast<double>(v), 2)};        \
  }                                                                                        \
  __KJIT_HD __nv_bfloat16 __##NAME##2bfloat16_ru(T v) {                                               \
    return __nv_bfloat16_raw{__kjit_fp::bfloat16::from_double(static_cast<double>(v), 3)};        \
  }
__KJIT_BF16_INT(short, short, -32768, 32767)
__KJIT_BF16_INT(ushort, unsigned short, 0, 65535)
__KJIT_BF16_INT(int, int, -2147483647 - 1, 2147483647)
__KJIT_BF16_INT(uint, unsigned int, 0u, 4294967295u)
__KJIT_BF16_INT(ll, long long, -9223372036854775807LL - 1, 9223372036854775807LL)
__KJIT_BF16_INT(ull, unsigned long long, 0ULL, 18446744073709551615ULL)
#undef __KJIT_BF16_INT
__KJIT_HD signed char __bfloat162char_rz(__nv_bfloat16 h) {
  return __kjit_fp::to_integer<signed char>(__bfloat162float(h), __kjit_fp::toward_zero, -128, 127);
}
__KJIT_HD unsigned char __bfloat162uchar_rz(__nv_bfloat16 h) {
  return __kjit_fp::to_integer<unsigned char>(__bfloat162float(h), __kjit_fp::toward_zero, 0, 255);
}

// ---- fused multiply-add (one rounding) -----------------------------------------------------
__KJIT_HD __nv_bfloat16 __hfma(__nv_bfloat16 a, __nv_bfloat16 b, __nv_bfloat16 c) {
#if defined(__KJIT_CUDA__) && __CUDA_ARCH__ >= 800
  unsigned short r;
  asm("fma.rn.bf16 %0, %1, %2, %3;" : "=h"(r) : "h"(a.__x), "h"(b.__x), "h"(c.__x));
  return __nv_bfloat16_raw{r};
#else
  return __nv_bfloat16_raw{__kjit_fp::bfloat16::from_double(
      __kjit_fp::fma_to_odd(__bfloat162float(a), __bfloat162float(b), __bfloat162float(c)),
      __kjit_fp::to_nearest)};
#endif
}

#define __KJIT_T __nv_bfloat16
#define __KJIT_T2 __nv_bfloat162
#define __KJIT_TO(f) __float2bfloat16(f)
#define __KJIT_F(h) __bfloat162float(h)
#define __KJIT_BITS(h) __bfloat16_as_ushort(h)
#define __KJIT_FROM_BITS(b) __ushort_as_bfloat16(b)
#include "__kjit_fp16_ops.h"
#undef __KJIT_T
#undef __KJIT_T2
#undef __KJIT_TO
#undef __KJIT_F
#undef __KJIT_BITS
#undef __KJIT_FROM_BITS

// ---- atomics ---------------------------------------------------------------------------------
__device__ inline __nv_bfloat16 atomicAdd(__nv_bfloat16* address, __nv_bfloat16 value) {
#if defined(__KJIT_CUDA__) && __CUDA_ARCH__ >= 900
  unsigned short old;
  asm volatile("atom.add.noftz.bf16 %0, [%1], %2;"
               : "=h"(old)
               : "l"(address), "h"(value.__x)
               : "memory");
  return __nv_bfloat16_raw{old};
#else
  return __ushort_as_bfloat16(__kjit_fp::atomic_update16(
      reinterpret_cast<unsigned short*>(address),
      [value](unsigned short old) { return __bfloat16_as_ushort(__ushort_as_bfloat16(old) + value); }));
#endif
}
__device__ inline __nv_bfloat162 atomicAdd(__nv_bfloat162* address, __nv_bfloat162 value) {
#if defined(__KJIT_CUDA__) && __CUDA_ARCH__ >= 900
  unsigned int old;
  const unsigned int v = value.x.__x | (static_cast<unsigned int>(value.y.__x) << 16);
  asm volatile("atom.add.noftz.bf16x2 %0, [%1], %2;" : "=r"(old) : "l"(address), "r"(v) : "memory");
  return __nv_bfloat162(__ushort_as_bfloat16(static_cast<unsigned short>(old)),
                 __ushort_as_bfloat16(static_cast<unsigned short>(old >> 16)));
#else
  unsigned int* bits = reinterpret_cast<unsigned int*>(address);
  unsigned int old = *bits;
  while (true) {
    const __nv_bfloat162 now(__ushort_as_bfloat16(static_cast<unsigned short>(old)),
                      __ushort_as_bfloat16(static_cast<unsigned short>(old >> 16)));
    const __nv_bfloat162 sum = now + value;
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
#define __KJIT_BF16_LOAD(NAME)                                                         \
  __device__ inline __nv_bfloat16 NAME(const __nv_bfloat16* p) {                       \
    return __ushort_as_bfloat16(NAME(reinterpret_cast<const unsigned short*>(p)));     \
  }                                                                                    \
  __device__ inline __nv_bfloat162 NAME(const __nv_bfloat162* p) {                     \
    const unsigned int v = NAME(reinterpret_cast<const unsigned int*>(p));             \
    return __nv_bfloat162(__ushort_as_bfloat16(static_cast<unsigned short>(v)),        \
                          __ushort_as_bfloat16(static_cast<unsigned short>(v >> 16))); \
  }
#define __KJIT_BF16_STORE(NAME)                                           \
  __device__ inline void NAME(__nv_bfloat16* p, __nv_bfloat16 v) {        \
    NAME(reinterpret_cast<unsigned short*>(p), __bfloat16_as_ushort(v));  \
  }                                                                       \
  __device__ inline void NAME(__nv_bfloat162* p, __nv_bfloat162 v) {      \
    NAME(reinterpret_cast<unsigned int*>(p),                              \
         static_cast<unsigned int>(__bfloat16_as_ushort(v.x)) |           \
             static_cast<unsigned int>(__bfloat16_as_ushort(v.y)) << 16); \
  }
__KJIT_BF16_LOAD(__ldg)
__KJIT_BF16_LOAD(__ldca)
__KJIT_BF16_LOAD(__ldcg)
__KJIT_BF16_LOAD(__ldcs)
__KJIT_BF16_LOAD(__ldlu)
__KJIT_BF16_LOAD(__ldcv)
__KJIT_BF16_STORE(__stcg)
__KJIT_BF16_STORE(__stcs)
__KJIT_BF16_STORE(__stwb)
__KJIT_BF16_STORE(__stwt)
#undef __KJIT_BF16_LOAD
#undef __KJIT_BF16_STORE
#endif

#define CUDART_INF_BF16 __ushort_as_bfloat16((unsigned short)0x7F80U)
#define CUDART_NAN_BF16 __ushort_as_bfloat16((unsigned short)0x7FFFU)
#define CUDART_MIN_DENORM_BF16 __ushort_as_bfloat16((unsigned short)0x0001U)
#define CUDART_MAX_NORMAL_BF16 __ushort_as_bfloat16((unsigned short)0x7F7FU)
#define CUDART_NEG_ZERO_BF16 __ushort_as_bfloat16((unsigned short)0x8000U)
#define CUDART_ZERO_BF16 __ushort_as_bfloat16((unsigned short)0x0000U)
#define CUDART_ONE_BF16 __ushort_as_bfloat16((unsigned short)0x3F80U)

#endif
