// The host's view of the kernels' 16-bit floating-point types: kjit::half holds the bits of a
// __half (IEEE binary16), kjit::bfloat16 those of a __nv_bfloat16, so that buffers of them can be
// uploaded, downloaded and passed to kernels (DeviceBuffer<kjit::half> for a __half*). Conversions
// from float round to nearest, ties to even, as __float2half does on every backend.
#pragma once

#include <bit>
#include <cmath>
#include <cstdint>

namespace kjit {

/// IEEE binary16: 1 sign bit, 5 exponent bits, 10 mantissa bits.
class half {
 public:
  half() = default;
  explicit half(float value) : bits_(from_float(value)) {}
  [[nodiscard]] float to_float() const { return to_float(bits_); }
  explicit operator float() const { return to_float(bits_); }

  [[nodiscard]] static half from_bits(std::uint16_t bits) {
    half h;
    h.bits_ = bits;
    return h;
  }
  [[nodiscard]] std::uint16_t bits() const { return bits_; }

  /// The same bits (so NaNs of equal bits are equal; 0 and -0 are not).
  friend bool operator==(half a, half b) { return a.bits_ == b.bits_; }

 private:
  static std::uint16_t from_float(float value) {
    const auto x = std::bit_cast<std::uint32_t>(value);
    const auto sign = static_cast<std::uint16_t>((x >> 16) & 0x8000u);
    const std::uint32_t ax = x & 0x7fffffffu;
    if (ax > 0x7f800000u) {
      return static_cast<std::uint16_t>(sign | 0x7e00u | ((ax >> 13) & 0x3ffu));  // NaN
    }
    if (ax >= 0x477ff000u) {  // 65520 and up round to infinity
      return static_cast<std::uint16_t>(sign | 0x7c00u);
    }
    if (ax < 0x38800000u) {  // below 2^-14: a subnormal half, in units of 2^-24
      const float units = std::bit_cast<float>(ax) * 16777216.0f;  // exact
      return static_cast<std::uint16_t>(sign | static_cast<std::uint16_t>(std::nearbyint(units)));
    }
    const std::uint32_t mantissa = ax & 0x7fffffu;
    std::uint32_t h = ((((ax >> 23) - 127 + 15) << 10) | (mantissa >> 13));
    const std::uint32_t rest = mantissa & 0x1fffu;
    if (rest > 0x1000u || (rest == 0x1000u && (h & 1u) != 0)) {
      ++h;  // a carry into the exponent is right, up to infinity
    }
    return static_cast<std::uint16_t>(sign | h);
  }

  static float to_float(std::uint16_t h) {
    const std::uint32_t sign = static_cast<std::uint32_t>(h & 0x8000u) << 16;
    const std::uint32_t exponent = (h >> 10) & 0x1fu;
    const std::uint32_t mantissa = h & 0x3ffu;
    if (exponent == 0x1f) {
      return std::bit_cast<float>(sign | 0x7f800000u | (mantissa << 13));
    }
    if (exponent == 0) {
      const float magnitude = static_cast<float>(mantissa) * 0x1p-24f;
      return sign != 0 ? -magnitude : magnitude;
    }
    return std::bit_cast<float>(sign | ((exponent - 15 + 127) << 23) | (mantissa << 13));
  }

  std::uint16_t bits_ = 0;
};

/// bfloat16: the upper 16 bits of a float (8 exponent bits, 7 mantissa bits).
class bfloat16 {
 public:
  bfloat16() = default;
  explicit bfloat16(float value) : bits_(from_float(value)) {}
  [[nodiscard]] float to_float() const {
    return std::bit_cast<float>(static_cast<std::uint32_t>(bits_) << 16);
  }
  explicit operator float() const { return to_float(); }

  [[nodiscard]] static bfloat16 from_bits(std::uint16_t bits) {
    bfloat16 b;
    b.bits_ = bits;
    return b;
  }
  [[nodiscard]] std::uint16_t bits() const { return bits_; }

  friend bool operator==(bfloat16 a, bfloat16 b) { return a.bits_ == b.bits_; }

 private:
  static std::uint16_t from_float(float value) {
    const auto x = std::bit_cast<std::uint32_t>(value);
    if ((x & 0x7fffffffu) > 0x7f800000u) {
      return static_cast<std::uint16_t>((x >> 16) | 0x40u);  // a quiet NaN
    }
    return static_cast<std::uint16_t>((x + 0x7fffu + ((x >> 16) & 1u)) >> 16);
  }

  std::uint16_t bits_ = 0;
};

static_assert(sizeof(half) == 2 && alignof(half) == 2);
static_assert(sizeof(bfloat16) == 2 && alignof(bfloat16) == 2);

}  // namespace kjit
