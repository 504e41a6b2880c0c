// Half precision and bfloat16 (kjit's <cuda_fp16.h>, <cuda_bf16.h>, <kjit/half.hpp>): every
// conversion and operation is checked bit for bit against a reference that rounds the exact
// result (computed in __float128) by searching a table of every value of the format, so it shares
// no code with what it checks.
#include "test_support.hpp"

#include <algorithm>
#include <cmath>

namespace kjit::test {
namespace {

using quad = __float128;

enum Mode { rn = 0, rz = 1, rd = 2, ru = 3 };

/// Every finite value of a 16-bit format, ascending, then the value where rounding to nearest
/// overflows to infinity (the next power of two, standing for infinity).
class Format {
 public:
  explicit Format(bool bfloat) : bfloat_(bfloat) {
    for (unsigned b = 0; b < 0x10000; ++b) {
      const float v = value(static_cast<std::uint16_t>(b));
      if (std::isfinite(v) && !(v == 0.0f && b != 0)) {
        entries_.push_back({v, static_cast<std::uint16_t>(b)});
      }
    }
    std::sort(entries_.begin(), entries_.end(),
              [](const Entry& a, const Entry& b) { return a.v < b.v; });
    const quad beyond = bfloat ? quad(std::ldexp(1.0, 128)) : quad(65536.0);
    entries_.insert(entries_.begin(), {-beyond, static_cast<std::uint16_t>(inf() | 0x8000u)});
    entries_.push_back({beyond, inf()});
  }

  [[nodiscard]] float value(std::uint16_t b) const {
    return bfloat_ ? bfloat16::from_bits(b).to_float() : half::from_bits(b).to_float();
  }
  [[nodiscard]] std::uint16_t inf() const { return bfloat_ ? 0x7f80 : 0x7c00; }

  /// x rounded in mode m: its bits. x must not be NaN.
  [[nodiscard]] std::uint16_t round(quad x, Mode m) const {
    return round(x, -quad(0), m);  // x + -0 is x, whatever x is (+0 + +0 would lose a -0)
  }

  /// p + z rounded in mode m, exactly, though p + z may not fit in a quad (a product and a
  /// small addend, as fma has): s + e is p + z exactly (TwoSum), and e only breaks ties.
  [[nodiscard]] std::uint16_t round(quad p, quad z, Mode m) const {
    const quad s = p + z;
    const quad pz = s - p;
    const quad e = (p - (s - pz)) + (z - pz);
    const bool negative = s < 0 || (s == 0 && (e < 0 || (e == 0 && 1 / s < 0)));  // -0 too
    const std::uint16_t sign = negative ? 0x8000 : 0;
    const quad magnitude = negative ? -s : s;
    if (magnitude >= entries_.back().v) {  // infinite, or beyond the largest finite value
      const bool to_inf = magnitude > std::numeric_limits<double>::max() || m == rn ||
                          (m == ru && !negative) || (m == rd && negative);
      return to_inf ? static_cast<std::uint16_t>(sign | inf())
                    : static_cast<std::uint16_t>(sign | (inf() - 1));
    }
    const auto hi = std::lower_bound(entries_.begin(), entries_.end(), s,
                                     [](const Entry& a, quad v) { return a.v < v; });
    const Entry* pick = nullptr;
    if (hi->v == s && e == 0) {
      pick = &*hi;
    } else {
      // The exact value lies strictly between `down` and `up`.
      const bool on_entry = hi->v == s;
      const Entry& up = on_entry && e < 0 ? *hi : on_entry ? *(hi + 1) : *hi;
      const Entry& down = on_entry && e < 0 ? *(hi - 1) : on_entry ? *hi : *(hi - 1);
      if (m == rd) {
        pick = &down;
      } else if (m == ru) {
        pick = &up;
      } else if (m == rz) {
        pick = negative ? &up : &down;
      } else {
        // (s + e - down) - (up - s - e), exactly in sign.
        const quad balance = ((s - down.v) - (up.v - s)) + 2 * e;
        pick = balance < 0 ? &down : balance > 0 ? &up : (down.bits & 1u) == 0 ? &down : &up;
      }
    }
    return pick->v == 0 ? sign : pick->bits;  // a zero keeps the sign of what was rounded
  }

 private:
  struct Entry {
    quad v;
    std::uint16_t bits;
  };
  bool bfloat_;
  std::vector<Entry> entries_;
};

const Format& binary16() {
  static const Format f(false);
  return f;
}
const Format& bfloat() {
  static const Format f(true);
  return f;
}

class Half : public DeviceTest {
 public:
  void SetUp() override {
    DeviceTest::SetUp();
    if (!IsSkipped()) {
      program = Program::from_file(test_kernel_path("half_ops.cu"));
    }
  }

  /// The CPU backend converts with the processor's F16C instructions where it has them, else in
  /// software: this program takes the software path everywhere (other backends: the same).
  static Program in_software() {
    CompileOptions options;
    options.defines["__KJIT_FP16_IN_SOFTWARE"] = "";
    return Program::from_file(test_kernel_path("half_ops.cu"), options);
  }

  /// Floats across the formats' ranges: uniform, around the subnormals, exact ties, specials.
  std::vector<float> test_floats(std::size_t n, bool bfloat_ties) {
    std::vector<float> v = random_vector<float>(n / 4, -70000.0f, 70000.0f);
    std::uniform_int_distribution<int> exponent(bfloat_ties ? -140 : -30, bfloat_ties ? 127 : 17);
    std::uniform_real_distribution<float> mantissa(1.0f, 2.0f);
    std::uniform_int_distribution<unsigned> bits(0, 0xffff);
    while (v.size() < n / 2) {
      v.push_back(std::ldexp(mantissa(rng), exponent(rng)) * (bits(rng) & 1 ? -1.0f : 1.0f));
    }
    while (v.size() < n) {  // exact midpoints between neighbours of the format
      const Format& f = bfloat_ties ? bfloat() : binary16();
      const auto b = static_cast<std::uint16_t>(bits(rng) & 0x7bfe);
      const float a = f.value(b);
      const float c = f.value(static_cast<std::uint16_t>(b + 1));
      if (std::isfinite(a) && std::isfinite(c)) {
        v.push_back((a + c) / 2 * (bits(rng) & 1 ? -1.0f : 1.0f));
      }
    }
    for (const float s : {0.0f, -0.0f, 65504.0f, 65519.9f, 65520.0f, 1e-8f, -3e-8f, 1e30f, -1e30f,
                          std::numeric_limits<float>::infinity()}) {
      v.push_back(s);
    }
    return v;
  }

  /// Random halves, none NaN.
  std::vector<half> random_halves(std::size_t n) {
    std::uniform_int_distribution<unsigned> bits(0, 0xffff);
    std::vector<half> v;
    while (v.size() < n) {
      const half h = half::from_bits(static_cast<std::uint16_t>(bits(rng)));
      if (!std::isnan(h.to_float())) {
        v.push_back(h);
      }
    }
    return v;
  }

  Program program;
};

void check_float_to_half(Half& t, Program& program);
void check_half_to_float(Half& t, Program& program);

TEST_F(Half, FloatsRoundToHalfInEveryModeAsTheReference) {
  KJIT_SEED_TRACE();
  check_float_to_half(*this, program);
}

TEST_F(Half, FloatsRoundToHalfInEveryModeInSoftwareToo) {
  KJIT_SEED_TRACE();
  Program soft = in_software();
  check_float_to_half(*this, soft);
}

TEST_F(Half, EveryHalfConvertsToFloatAndToIntAsTheHostDoes) {
  check_half_to_float(*this, program);
}

TEST_F(Half, EveryHalfConvertsToFloatInSoftwareToo) {
  Program soft = in_software();
  check_half_to_float(*this, soft);
}

void check_float_to_half(Half& t, Program& program) {
  const Device& device = t.device;
  auto k = program.kernel<const float*, half*, int>("float_to_half", device);
  const std::vector<float> in = t.test_floats(4096, false);
  auto d_in = device.upload(in);
  auto out = device.upload(std::vector<half>(4 * in.size(), half::from_bits(0x7fff)));
  k.launch(LaunchConfig::for_elements(in.size()), d_in, out, static_cast<int>(in.size()));
  const std::vector<half> got = out.download();
  for (std::size_t i = 0; i < in.size(); ++i) {
    for (const Mode m : {rn, rz, rd, ru}) {
      ASSERT_EQ(got[4 * i + m].bits(), binary16().round(in[i], m))
          << "float " << in[i] << " (" << std::hexfloat << in[i] << "), mode " << m;
    }
  }
}

void check_half_to_float(Half& t, Program& program) {
  const Device& device = t.device;
  auto k = program.kernel<float*, int*>("half_to_float", device);
  auto out = t.poisoned<float>(65536);
  auto truncated = t.poisoned<int>(65536);
  k.launch(LaunchConfig::for_elements(65536), out, truncated);
  const std::vector<float> got = out.download();
  const std::vector<int> ints = truncated.download();
  for (unsigned b = 0; b < 65536; ++b) {
    const float want = half::from_bits(static_cast<std::uint16_t>(b)).to_float();
    if (std::isnan(want)) {
      ASSERT_TRUE(std::isnan(got[b])) << std::hex << b;
      ASSERT_EQ(ints[b], 0) << std::hex << b;
      continue;
    }
    ASSERT_EQ(std::bit_cast<std::uint32_t>(got[b]), std::bit_cast<std::uint32_t>(want))
        << std::hex << b;
    const int saturated = std::isinf(want) ? (want > 0 ? std::numeric_limits<int>::max()
                                                       : std::numeric_limits<int>::min())
                                           : static_cast<int>(std::trunc(want));
    ASSERT_EQ(ints[b], saturated) << std::hex << b;
  }
}

void check_arithmetic(Half& t, Program& program);

TEST_F(Half, ArithmeticIsCorrectlyRounded) {
  KJIT_SEED_TRACE();
  check_arithmetic(*this, program);
}

TEST_F(Half, ArithmeticIsCorrectlyRoundedInSoftwareToo) {
  KJIT_SEED_TRACE();
  Program soft = in_software();
  check_arithmetic(*this, soft);
}

void check_arithmetic(Half& t, Program& program) {
  const Device& device = t.device;
  auto k = program.kernel<const half*, const half*, const half*, half*, unsigned*, int>(
      "half_arithmetic", device);
  const std::size_t n = 8192;
  std::vector<half> a = t.random_halves(n), b = t.random_halves(n), c = t.random_halves(n);
  // Some operands close to each other, so that sums cancel and comparisons tie.
  for (std::size_t i = 0; i < n; i += 7) {
    b[i] = half(-a[i].to_float() * 1.001f);
    a[i + 1] = b[i + 1];
  }
  auto out = device.upload(std::vector<half>(8 * n, half::from_bits(0x7fff)));
  auto flags = t.poisoned<unsigned>(n);
  k.launch(LaunchConfig::for_elements(n), device.upload(a), device.upload(b), device.upload(c), out,
           flags, static_cast<int>(n));
  const std::vector<half> got = out.download();
  const std::vector<unsigned> f = flags.download();
  const Format& h = binary16();
  const auto check = [&](std::size_t i, int slot, quad exact, const char* what) {
    const half r = got[8 * i + slot];
    if (exact != exact) {
      ASSERT_TRUE(std::isnan(r.to_float())) << what << " of element " << i;
      return;
    }
    ASSERT_EQ(r.bits(), h.round(exact, rn))
        << what << ": " << a[i].to_float() << ", " << b[i].to_float() << ", " << c[i].to_float();
  };
  for (std::size_t i = 0; i < n; ++i) {
    const quad x = a[i].to_float(), y = b[i].to_float(), z = c[i].to_float();
    check(i, 0, x + y, "add");
    check(i, 1, x - y, "sub");
    check(i, 2, x * y, "mul");
    if (y != 0) {
      check(i, 3, x / y, "div");
    }
    check(i, 4, x * y + z, "fma");  // exact in a quad: half's exponents span 40 bits
    check(i, 5, std::sqrt(std::fabs(static_cast<double>(a[i].to_float()))), "sqrt");
    check(i, 6, x * z + y, "fma2.x");
    check(i, 7, y * z + x, "fma2.y");
    const float fx = a[i].to_float(), fy = b[i].to_float();
    const unsigned want = (fx < fy ? 1u : 0u) | (fx == fy ? 2u : 0u) | (fx >= fy ? 4u : 0u) |
                          (fx > fy && fy > fx ? 16u : 0u);
    ASSERT_EQ(f[i], want) << fx << " vs " << fy;
  }
}

TEST_F(Half, AtomicAddsOfHalvesAndPairsAreAtomic) {
  auto k = program.kernel<half*, half*, int>("half_atomics", device);
  const int n = 1024;
  auto sums = device.upload(std::vector<half>(4, half(0.0f)));
  auto pairs = device.upload(std::vector<half>(4, half(0.0f)));  // two __half2
  k.launch(LaunchConfig::for_elements(n, 128), sums, pairs, n);
  std::vector<float> want(4, 0.0f);
  for (int i = 0; i < n; ++i) {
    want[i % 4] += static_cast<float>(i % 3);
  }
  const std::vector<half> s = sums.download();
  for (int j = 0; j < 4; ++j) {
    EXPECT_EQ(s[j].to_float(), want[j]) << j;
  }
  const std::vector<half> p = pairs.download();
  EXPECT_EQ(
      (std::vector<float>{p[0].to_float(), p[1].to_float(), p[2].to_float(), p[3].to_float()}),
      (std::vector<float>{512.0f, 256.0f, 512.0f, 256.0f}));
}

TEST_F(Half, Bfloat16ConvertsAndComputesAsTheReference) {
  KJIT_SEED_TRACE();
  auto k = program.kernel<const float*, const bfloat16*, const bfloat16*, bfloat16*, int>(
      "bfloat16_ops", device);
  const std::vector<float> in = test_floats(4096, true);
  std::vector<bfloat16> a, b;
  for (std::size_t i = 0; i < in.size(); ++i) {
    a.push_back(bfloat16(in[i]));
    b.push_back(bfloat16(in[(i * 7 + 3) % in.size()] * 0.37f));
  }
  auto out = device.upload(std::vector<bfloat16>(8 * in.size(), bfloat16::from_bits(0x7fff)));
  k.launch(LaunchConfig::for_elements(in.size()), device.upload(in), device.upload(a),
           device.upload(b), out, static_cast<int>(in.size()));
  const std::vector<bfloat16> got = out.download();
  const Format& f = bfloat();
  for (std::size_t i = 0; i < in.size(); ++i) {
    for (const Mode m : {rn, rz, rd, ru}) {
      ASSERT_EQ(got[8 * i + m].bits(), f.round(in[i], m)) << in[i] << ", mode " << m;
    }
    const quad x = a[i].to_float(), y = b[i].to_float();
    const quad products[] = {x, x * y, x * y, y * y};  // each result is product + addend
    const quad addends[] = {y, -quad(0), x, -quad(0)};
    for (int j = 0; j < 4; ++j) {
      const bfloat16 r = got[8 * i + 4 + j];
      const quad exact = products[j] + addends[j];
      if (exact != exact) {
        ASSERT_TRUE(std::isnan(r.to_float()));
      } else {
        ASSERT_EQ(r.bits(), f.round(products[j], addends[j], rn))
            << "operation " << j << " of " << std::hexfloat << a[i].to_float() << ", "
            << b[i].to_float();
      }
    }
  }
}

TEST(HalfHostType, ConvertsAsTheReferenceRoundsToNearest) {
  std::mt19937_64 rng(test_seed());
  std::uniform_int_distribution<std::uint32_t> bits;
  for (int i = 0; i < 200000; ++i) {
    const float f = std::bit_cast<float>(bits(rng));
    if (std::isnan(f)) {
      EXPECT_TRUE(std::isnan(half(f).to_float()));
      EXPECT_TRUE(std::isnan(bfloat16(f).to_float()));
      continue;
    }
    ASSERT_EQ(half(f).bits(), binary16().round(f, rn)) << std::hexfloat << f;
    ASSERT_EQ(bfloat16(f).bits(), bfloat().round(f, rn)) << std::hexfloat << f;
  }
}

}  // namespace
}  // namespace kjit::test
