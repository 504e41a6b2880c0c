// kjit: what <cuda_fp16.h> and <cuda_bf16.h> share. Internal: include those, not this.
//
// Conversions round correctly in each of CUDA's four modes (to nearest even, toward zero, down,
// up) on every backend: exactly, in software, where the device has no instruction for it.
// Arithmetic on the 16-bit formats is done in float and rounded once: for +, -, *, / and sqrt
// that is the correctly rounded result (float has more than 2p+2 bits for both formats), which
// is what CUDA's instructions give too; fma rounds once through double with round-to-odd.
#ifndef __KJIT_FP16_H
#define __KJIT_FP16_H
#include "__kjit_headers.h"

namespace __kjit_fp {

enum rounding { to_nearest = 0, toward_zero = 1, down = 2, up = 3 };

__KJIT_HD unsigned int float_bits(float f) {
  return __builtin_bit_cast(unsigned int, f);
}
__KJIT_HD float bits_float(unsigned int b) {
  return __builtin_bit_cast(float, b);
}
__KJIT_HD unsigned long long double_bits(double d) {
  return __builtin_bit_cast(unsigned long long, d);
}
__KJIT_HD double bits_double(unsigned long long b) {
  return __builtin_bit_cast(double, b);
}
/// 2^e as a double, for e in [-1022, 1023].
__KJIT_HD double pow2(int e) {
  return bits_double(static_cast<unsigned long long>(e + 1023) << 52);
}

/// A binary format of 16 bits: M mantissa bits, EMIN the least normal exponent, CanonicalNan
/// the NaN that CUDA's conversions give.
template <int M, int EMIN, unsigned short CanonicalNan>
struct format {
  static constexpr int mantissa = M;
  static constexpr int bias = 1 - EMIN;
  static constexpr int emax = bias;  // largest finite exponent
  static constexpr unsigned short inf = static_cast<unsigned short>((2 * bias + 1) << M);
  static constexpr unsigned short nan = CanonicalNan;

  /// The largest finite value, as a double.
  __KJIT_HD static double max_value() { return (2.0 - 1.0 / (1 << M)) * pow2(emax); }

  /// `v` rounded to this format in mode `r`: its bits.
  __KJIT_HD static unsigned short from_double(double v, int r) {
    const unsigned long long b = double_bits(v);
    const unsigned short sign = static_cast<unsigned short>((b >> 48) & 0x8000u);
    const bool negative = sign != 0;
    const double a = negative ? -v : v;
    if (a != a) {
      return nan;
    }
    if (a == bits_double(0x7ff0000000000000ULL)) {
      return static_cast<unsigned short>(sign | inf);
    }
    const int e = static_cast<int>((b >> 52) & 0x7ff) - 1023;  // a subnormal double: tiny
    const int quantum = e < EMIN ? EMIN - M : e - M;
    double n = a * pow2(-quantum);  // exact: a power of two
    switch (r) {
      case toward_zero:
        n = trunc(n);
        break;
      case down:
        n = negative ? ceil(n) : floor(n);
        break;
      case up:
        n = negative ? floor(n) : ceil(n);
        break;
      default:
        n = rint(n);  // ties to even
    }
    const double rounded = n * pow2(quantum);
    if (rounded > max_value()) {
      const bool to_inf =
          r == to_nearest || (r == down && negative) || (r == up && !negative);
      return static_cast<unsigned short>(sign | (to_inf ? inf : inf - 1));
    }
    if (rounded < pow2(EMIN)) {  // subnormal or zero
      return static_cast<unsigned short>(sign | static_cast<unsigned short>(n));
    }
    const unsigned long long rb = double_bits(rounded);
    const int re = static_cast<int>((rb >> 52) & 0x7ff) - 1023;
    const unsigned int m = static_cast<unsigned int>(rb >> (52 - M)) & ((1u << M) - 1);
    return static_cast<unsigned short>(sign | ((re + bias) << M) | m);
  }

  /// The value of bits `h`, as a float (exact: both formats fit in float).
  __KJIT_HD static float to_float(unsigned short h) {
    const unsigned int sign = static_cast<unsigned int>(h & 0x8000u) << 16;
    const int e = (h >> M) & (2 * bias + 1);
    const unsigned int m = h & ((1u << M) - 1);
    if (e == 2 * bias + 1) {
      return bits_float(sign | 0x7f800000u | (m << (23 - M)) | (m != 0 ? 0x400000u : 0u));
    }
    if (e == 0) {
      const float magnitude = static_cast<float>(m) * static_cast<float>(pow2(EMIN - M));
      return sign != 0 ? -magnitude : magnitude;
    }
    return bits_float(sign | (static_cast<unsigned int>(e - bias + 127) << 23) | (m << (23 - M)));
  }
};

typedef format<10, -14, 0x7fff> binary16;
typedef format<7, -126, 0x7fff> bfloat16;

/// x * y + z rounded once to double with round-to-odd, for operands exactly representable in a
/// 16-bit format: rounding that to the 16-bit format (to nearest) is then the correctly rounded
/// fma, since double has more than two bits beyond either format's precision.
__KJIT_HD double fma_to_odd(double x, double y, double z) {
  // Each step rounded on its own (__dmul_rn ...): a compiler that fused them (-ffp-contract)
  // would break the error term.
  const double p = __dmul_rn(x, y);  // exact: at most 2 x 11 significant bits
  const double s = __dadd_rn(p, z);
  if (!(__dsub_rn(s, s) == 0.0)) {
    return s;  // infinite or NaN: nothing to round
  }
  // TwoSum: the rounding error of s, exactly.
  const double pz = __dsub_rn(s, p);
  const double e = __dadd_rn(__dsub_rn(p, __dsub_rn(s, pz)), __dsub_rn(z, pz));
  if (e == 0.0 || (double_bits(s) & 1u) != 0) {
    return s;  // exact, or already the odd neighbour
  }
  // s is even and inexact: the odd neighbour on the side of the exact value.
  const unsigned long long b = double_bits(s);
  const bool away = (s > 0) == (e > 0);
  return bits_double(away ? b + 1 : b - 1);
}

/// An integer rounded from a float in mode r, clamped to [lo, hi] (NaN gives 0, as CUDA's).
template <class I>
__KJIT_HD I to_integer(float f, int r, I lo, I hi) {
  if (f != f) {
    return 0;
  }
  const float n = r == toward_zero ? truncf(f) : r == down ? floorf(f) : r == up ? ceilf(f) : rintf(f);
  if (n <= static_cast<float>(lo)) {
    return lo;
  }
  if (n >= static_cast<float>(hi)) {
    return hi;
  }
  return static_cast<I>(n);
}

/// Replaces the 16 bits at p by f(old) atomically, with a compare-and-swap of the aligned
/// 32-bit word that holds them (every backend has that one); returns the old bits.
template <class F>
__device__ unsigned short atomic_update16(unsigned short* p, F f) {
  const unsigned long long at = reinterpret_cast<unsigned long long>(p);
  unsigned int* word = reinterpret_cast<unsigned int*>(at & ~3ULL);
  const unsigned int shift = (at & 2ULL) != 0 ? 16u : 0u;
  unsigned int old = *word;
  while (true) {
    const unsigned short bits = static_cast<unsigned short>(old >> shift);
    const unsigned int desired =
        (old & ~(0xffffu << shift)) | (static_cast<unsigned int>(f(bits)) << shift);
    const unsigned int seen = atomicCAS(word, old, desired);
    if (seen == old) {
      return bits;
    }
    old = seen;
  }
}

}  // namespace __kjit_fp

#endif
