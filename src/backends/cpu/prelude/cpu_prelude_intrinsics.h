// kjit CPU prelude, part 4: CUDA's integer, bit and conversion intrinsics, loads and clocks.

// ---- integer and bit intrinsics ---------------------------------------------------------------
static inline int __popc(unsigned int x) {
  return __builtin_popcount(x);
}
static inline int __popcll(unsigned long long x) {
  return __builtin_popcountll(x);
}
static inline int __clz(int x) {
  return x == 0 ? 32 : __builtin_clz((unsigned int)x);
}
static inline int __clzll(long long x) {
  return x == 0 ? 64 : __builtin_clzll((unsigned long long)x);
}
static inline int __ffs(int x) {
  return __builtin_ffs(x);
}
static inline int __ffsll(long long x) {
  return __builtin_ffsll(x);
}
static inline unsigned int __brev(unsigned int x) {
  return __builtin_bitreverse32(x);
}
static inline unsigned long long __brevll(unsigned long long x) {
  return __builtin_bitreverse64(x);
}
static inline int __mul24(int x, int y) {
  return (int)(((long long)(x << 8) >> 8) * ((long long)(y << 8) >> 8));
}
static inline unsigned int __umul24(unsigned int x, unsigned int y) {
  return (x & 0xffffffu) * (y & 0xffffffu);
}
static inline int __mulhi(int x, int y) {
  return (int)(((long long)x * y) >> 32);
}
static inline unsigned int __umulhi(unsigned int x, unsigned int y) {
  return (unsigned int)(((unsigned long long)x * y) >> 32);
}
static inline long long __mul64hi(long long x, long long y) {
  return (long long)(((__int128)x * y) >> 64);
}
static inline unsigned long long __umul64hi(unsigned long long x, unsigned long long y) {
  return (unsigned long long)(((unsigned __int128)x * y) >> 64);
}

static inline int __float_as_int(float x) {
  return __builtin_bit_cast(int, x);
}
static inline unsigned int __float_as_uint(float x) {
  return __builtin_bit_cast(unsigned int, x);
}
static inline float __int_as_float(int x) {
  return __builtin_bit_cast(float, x);
}
static inline float __uint_as_float(unsigned int x) {
  return __builtin_bit_cast(float, x);
}
static inline long long __double_as_longlong(double x) {
  return __builtin_bit_cast(long long, x);
}
static inline double __longlong_as_double(long long x) {
  return __builtin_bit_cast(double, x);
}
// Conversions in each rounding mode: cpu_prelude_rounding.h.

// Byte, funnel-shift, absolute-difference and halving-add intrinsics.
static inline unsigned int __byte_perm(unsigned int x, unsigned int y, unsigned int s) {
  const unsigned long long bytes = ((unsigned long long)y << 32) | x;
  unsigned int r = 0;
  for (int i = 0; i < 4; ++i) {
    const unsigned int selector = (s >> (4 * i)) & 7;
    r |= (unsigned int)((bytes >> (8 * selector)) & 0xff) << (8 * i);
  }
  return r;
}
static inline unsigned int __funnelshift_l(unsigned int lo, unsigned int hi, unsigned int shift) {
  const unsigned long long both = ((unsigned long long)hi << 32) | lo;
  return (unsigned int)((both << (shift & 31)) >> 32);
}
static inline unsigned int __funnelshift_lc(unsigned int lo, unsigned int hi, unsigned int shift) {
  const unsigned long long both = ((unsigned long long)hi << 32) | lo;
  return (unsigned int)((both << (shift > 32 ? 32 : shift)) >> 32);
}
static inline unsigned int __funnelshift_r(unsigned int lo, unsigned int hi, unsigned int shift) {
  const unsigned long long both = ((unsigned long long)hi << 32) | lo;
  return (unsigned int)(both >> (shift & 31));
}
static inline unsigned int __funnelshift_rc(unsigned int lo, unsigned int hi, unsigned int shift) {
  const unsigned long long both = ((unsigned long long)hi << 32) | lo;
  return (unsigned int)(both >> (shift > 32 ? 32 : shift));
}
static inline unsigned int __sad(int x, int y, unsigned int z) {
  return (x > y ? (unsigned int)x - (unsigned int)y : (unsigned int)y - (unsigned int)x) + z;
}
static inline unsigned int __usad(unsigned int x, unsigned int y, unsigned int z) {
  return (x > y ? x - y : y - x) + z;
}
static inline int __hadd(int x, int y) {
  return (int)(((long long)x + y) >> 1);
}
static inline int __rhadd(int x, int y) {
  return (int)(((long long)x + y + 1) >> 1);
}
static inline unsigned int __uhadd(unsigned int x, unsigned int y) {
  return (unsigned int)(((unsigned long long)x + y) >> 1);
}
static inline unsigned int __urhadd(unsigned int x, unsigned int y) {
  return (unsigned int)(((unsigned long long)x + y + 1) >> 1);
}
// Dot products of packed bytes (__dp4a: four byte pairs) and of halfwords with bytes (__dp2a:
// two pairs, the low or high bytes of b), plus c; signed or unsigned by the arguments' type.
// (Signed sums wrap as the hardware's do: they are added as unsigned.)
static inline int __dp4a(int a, int b, int c) {
  unsigned int sum = (unsigned int)c;
  for (int i = 0; i < 4; ++i) {
    sum += (unsigned int)((int)(signed char)(a >> (8 * i)) * (int)(signed char)(b >> (8 * i)));
  }
  return (int)sum;
}
static inline unsigned int __dp4a(unsigned int a, unsigned int b, unsigned int c) {
  for (int i = 0; i < 4; ++i) {
    c += ((a >> (8 * i)) & 0xffu) * ((b >> (8 * i)) & 0xffu);
  }
  return c;
}
static inline int __kjit_dp2a(int a, int b, int c, int first_byte) {
  unsigned int sum = (unsigned int)c;
  for (int i = 0; i < 2; ++i) {
    sum += (unsigned int)((int)(short)(a >> (16 * i)) *
                          (int)(signed char)(b >> (8 * (first_byte + i))));
  }
  return (int)sum;
}
static inline unsigned int __kjit_dp2a(unsigned int a, unsigned int b, unsigned int c,
                                       int first_byte) {
  for (int i = 0; i < 2; ++i) {
    c += ((a >> (16 * i)) & 0xffffu) * ((b >> (8 * (first_byte + i))) & 0xffu);
  }
  return c;
}
static inline int __dp2a_lo(int a, int b, int c) {
  return __kjit_dp2a(a, b, c, 0);
}
static inline unsigned int __dp2a_lo(unsigned int a, unsigned int b, unsigned int c) {
  return __kjit_dp2a(a, b, c, 0);
}
static inline int __dp2a_hi(int a, int b, int c) {
  return __kjit_dp2a(a, b, c, 2);
}
static inline unsigned int __dp2a_hi(unsigned int a, unsigned int b, unsigned int c) {
  return __kjit_dp2a(a, b, c, 2);
}

// The SIMD video intrinsics: halfword (...2) and byte (...4) lanes of 32-bit words, each lane
// computed wide from its signed (sx, sy) and unsigned (ux, uy) values, then cut to the lane.
template <int W, class F>
static inline unsigned int __kjit_simd(unsigned int a, unsigned int b, F f) {
  const long long mask = (1LL << W) - 1;
  unsigned int r = 0;
  for (int i = 0; i < 32 / W; ++i) {
    const long long ux = (long long)(a >> (W * i)) & mask;
    const long long uy = (long long)(b >> (W * i)) & mask;
    const long long sx = ux >= (1LL << (W - 1)) ? ux - (1LL << W) : ux;
    const long long sy = uy >= (1LL << (W - 1)) ? uy - (1LL << W) : uy;
    r |= (unsigned int)(f(sx, sy, ux, uy) & mask) << (W * i);
  }
  return r;
}
template <int W>
static inline long long __kjit_sat_s(long long v) {
  const long long hi = (1LL << (W - 1)) - 1;
  return v > hi ? hi : (v < -hi - 1 ? -hi - 1 : v);
}
template <int W>
static inline long long __kjit_sat_u(long long v) {
  const long long hi = (1LL << W) - 1;
  return v > hi ? hi : (v < 0 ? 0 : v);
}
static inline long long __kjit_abs_ll(long long v) {
  return v < 0 ? -v : v;
}
#define __KJIT_SIMD_W(NAME, W, EXPR)                                                         \
  static inline unsigned int NAME(unsigned int a, unsigned int b) {                          \
    return __kjit_simd<W>(a, b, [](long long sx, long long sy, long long ux, long long uy) { \
      return (long long)(EXPR);                                                              \
    });                                                                                      \
  }
#define __KJIT_SIMD(NAME, EXPR)    \
  __KJIT_SIMD_W(NAME##2, 16, EXPR) \
  __KJIT_SIMD_W(NAME##4, 8, EXPR)
#define __KJIT_SIMD1_W(NAME, W, EXPR)                                                            \
  static inline unsigned int NAME(unsigned int a) {                                              \
    return __kjit_simd<W>(                                                                       \
        a, 0u, [](long long sx, long long, long long, long long) { return (long long)(EXPR); }); \
  }
__KJIT_SIMD(__vadd, ux + uy)
__KJIT_SIMD(__vsub, ux - uy)
__KJIT_SIMD_W(__vaddss2, 16, __kjit_sat_s<16>(sx + sy))
__KJIT_SIMD_W(__vaddss4, 8, __kjit_sat_s<8>(sx + sy))
__KJIT_SIMD_W(__vaddus2, 16, __kjit_sat_u<16>(ux + uy))
__KJIT_SIMD_W(__vaddus4, 8, __kjit_sat_u<8>(ux + uy))
__KJIT_SIMD_W(__vsubss2, 16, __kjit_sat_s<16>(sx - sy))
__KJIT_SIMD_W(__vsubss4, 8, __kjit_sat_s<8>(sx - sy))
__KJIT_SIMD_W(__vsubus2, 16, __kjit_sat_u<16>(ux - uy))
__KJIT_SIMD_W(__vsubus4, 8, __kjit_sat_u<8>(ux - uy))
__KJIT_SIMD(__vabsdiffs, __kjit_abs_ll(sx - sy))
__KJIT_SIMD(__vabsdiffu, __kjit_abs_ll(ux - uy))
__KJIT_SIMD(__vavgs, (sx + sy + (sx + sy >= 0 ? 1 : 0)) >> 1)
__KJIT_SIMD(__vavgu, (ux + uy + 1) >> 1)
__KJIT_SIMD(__vhaddu, (ux + uy) >> 1)
__KJIT_SIMD(__vmaxs, sx > sy ? sx : sy)
__KJIT_SIMD(__vmaxu, ux > uy ? ux : uy)
__KJIT_SIMD(__vmins, sx < sy ? sx : sy)
__KJIT_SIMD(__vminu, ux < uy ? ux : uy)
__KJIT_SIMD(__vcmpeq, ux == uy ? -1 : 0)
__KJIT_SIMD(__vcmpne, ux != uy ? -1 : 0)
__KJIT_SIMD(__vcmpges, sx >= sy ? -1 : 0)
__KJIT_SIMD(__vcmpgeu, ux >= uy ? -1 : 0)
__KJIT_SIMD(__vcmpgts, sx > sy ? -1 : 0)
__KJIT_SIMD(__vcmpgtu, ux > uy ? -1 : 0)
__KJIT_SIMD(__vcmples, sx <= sy ? -1 : 0)
__KJIT_SIMD(__vcmpleu, ux <= uy ? -1 : 0)
__KJIT_SIMD(__vcmplts, sx < sy ? -1 : 0)
__KJIT_SIMD(__vcmpltu, ux < uy ? -1 : 0)
__KJIT_SIMD(__vseteq, ux == uy)
__KJIT_SIMD(__vsetne, ux != uy)
__KJIT_SIMD(__vsetges, sx >= sy)
__KJIT_SIMD(__vsetgeu, ux >= uy)
__KJIT_SIMD(__vsetgts, sx > sy)
__KJIT_SIMD(__vsetgtu, ux > uy)
__KJIT_SIMD(__vsetles, sx <= sy)
__KJIT_SIMD(__vsetleu, ux <= uy)
__KJIT_SIMD(__vsetlts, sx < sy)
__KJIT_SIMD(__vsetltu, ux < uy)
// One-operand forms.
__KJIT_SIMD1_W(__vabs2, 16, __kjit_abs_ll(sx))
__KJIT_SIMD1_W(__vabs4, 8, __kjit_abs_ll(sx))
__KJIT_SIMD1_W(__vneg2, 16, -sx)
__KJIT_SIMD1_W(__vneg4, 8, -sx)
__KJIT_SIMD1_W(__vabsss2, 16, __kjit_sat_s<16>(__kjit_abs_ll(sx)))
__KJIT_SIMD1_W(__vabsss4, 8, __kjit_sat_s<8>(__kjit_abs_ll(sx)))
__KJIT_SIMD1_W(__vnegss2, 16, __kjit_sat_s<16>(-sx))
__KJIT_SIMD1_W(__vnegss4, 8, __kjit_sat_s<8>(-sx))
#undef __KJIT_SIMD1_W
#undef __KJIT_SIMD
#undef __KJIT_SIMD_W
// Sums of absolute differences over the lanes.
template <int W, bool is_signed>
static inline unsigned int __kjit_sad(unsigned int a, unsigned int b) {
  const unsigned int lanes =
      __kjit_simd<W>(a, b, [](long long sx, long long sy, long long ux, long long uy) {
        return is_signed ? __kjit_abs_ll(sx - sy) : __kjit_abs_ll(ux - uy);
      });
  unsigned int sum = 0;
  for (int i = 0; i < 32 / W; ++i) {
    sum += (lanes >> (W * i)) & ((1u << W) - 1);
  }
  return sum;
}
static inline unsigned int __vsads2(unsigned int a, unsigned int b) {
  return __kjit_sad<16, true>(a, b);
}
static inline unsigned int __vsads4(unsigned int a, unsigned int b) {
  return __kjit_sad<8, true>(a, b);
}
static inline unsigned int __vsadu2(unsigned int a, unsigned int b) {
  return __kjit_sad<16, false>(a, b);
}
static inline unsigned int __vsadu4(unsigned int a, unsigned int b) {
  return __kjit_sad<8, false>(a, b);
}

// Sleeps "about" ns nanoseconds, which CUDA lets be anything from 0 to twice that: 0 here.
static inline void __nanosleep(unsigned int) {}

template <class T>
static inline T __ldg(const T* p) {
  return *p;
}
template <class T>
static inline T __ldcg(const T* p) {
  return *p;
}
template <class T>
static inline T __ldca(const T* p) {
  return *p;
}
template <class T>
static inline T __ldcs(const T* p) {
  return *p;
}

static inline long long clock64() {
  return (long long)__builtin_readcyclecounter();
}
typedef long clock_t;  // as NVRTC declares it, without an include
static inline clock_t clock() {
  return (clock_t)__builtin_readcyclecounter();
}
static inline void __trap() {
  __builtin_trap();
}
static inline void __brkpt() {
  __builtin_debugtrap();
}
