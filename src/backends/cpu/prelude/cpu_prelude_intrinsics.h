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
// The char4 and uchar4 forms: x is the low byte, as the vector types lie in memory.
static inline int __dp4a(char4 a, char4 b, int c) {
  int wa, wb;
  __builtin_memcpy(&wa, &a, 4);
  __builtin_memcpy(&wb, &b, 4);
  return __dp4a(wa, wb, c);
}
static inline unsigned int __dp4a(uchar4 a, uchar4 b, unsigned int c) {
  unsigned int wa, wb;
  __builtin_memcpy(&wa, &a, 4);
  __builtin_memcpy(&wb, &b, 4);
  return __dp4a(wa, wb, c);
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
// The short2/char4 and ushort2/uchar4 forms, their lanes as they lie in memory.
#define __KJIT_DP2A_VECTOR(T, H, B)                            \
  static inline T __kjit_dp2a(H a, B b, T c, int first_byte) { \
    T wa, wb;                                                  \
    __builtin_memcpy(&wa, &a, 4);                              \
    __builtin_memcpy(&wb, &b, 4);                              \
    return __kjit_dp2a(wa, wb, c, first_byte);                 \
  }                                                            \
  static inline T __dp2a_lo(H a, B b, T c) {                   \
    return __kjit_dp2a(a, b, c, 0);                            \
  }                                                            \
  static inline T __dp2a_hi(H a, B b, T c) {                   \
    return __kjit_dp2a(a, b, c, 2);                            \
  }
__KJIT_DP2A_VECTOR(int, short2, char4)
__KJIT_DP2A_VECTOR(unsigned int, ushort2, uchar4)
#undef __KJIT_DP2A_VECTOR

// DPX (CUDA 12): the max or min of three, a sum then its max or min with a third, with or without
// a ReLU (a floor at 0), over a 32-bit word or its two 16-bit halves, signed or not; the __vib
// forms also say which argument won. One lane function, as for the video intrinsics below.
enum __kjit_dpx_op { __kjit_dpx_max3, __kjit_dpx_min3, __kjit_dpx_addmax, __kjit_dpx_addmin };
static inline unsigned __kjit_dpx_mask(int width) {
  return width == 32 ? 0xffffffffu : 0xffffu;
}
static inline long long __kjit_dpx_lane(unsigned v, int k, int width, bool is_signed) {
  const unsigned x = (v >> (width * k)) & __kjit_dpx_mask(width);
  if (is_signed && (x >> (width - 1)) != 0) {
    return (long long)x - ((long long)1 << width);
  }
  return (long long)x;
}
static inline unsigned __kjit_dpx(unsigned a, unsigned b, unsigned c, int width, bool is_signed,
                                  __kjit_dpx_op op, bool relu) {
  unsigned out = 0;
  for (int k = 0; k < 32 / width; ++k) {
    const long long x = __kjit_dpx_lane(a, k, width, is_signed);
    const long long y = __kjit_dpx_lane(b, k, width, is_signed);
    const long long z = __kjit_dpx_lane(c, k, width, is_signed);
    long long r;
    if (op == __kjit_dpx_max3 || op == __kjit_dpx_min3) {
      const bool max = op == __kjit_dpx_max3;
      r = (x > y) == max ? x : y;
      r = (r > z) == max ? r : z;
    } else {  // the sum wraps in its lane, as the hardware's adder does
      const long long sum = __kjit_dpx_lane((unsigned)(x + y) << (width * k), k, width, is_signed);
      r = (op == __kjit_dpx_addmax) == (sum > z) ? sum : z;
    }
    if (relu && r < 0) {
      r = 0;
    }
    out |= ((unsigned)r & __kjit_dpx_mask(width)) << (width * k);
  }
  return out;
}
#define __KJIT_DPX3(NAME, T, WIDTH, SIGNED, OP, RELU)                                     \
  static inline T NAME(T a, T b, T c) {                                                   \
    return (T)__kjit_dpx((unsigned)a, (unsigned)b, (unsigned)c, WIDTH, SIGNED, OP, RELU); \
  }
#define __KJIT_DPX2(NAME, T, WIDTH, OP)                                                 \
  static inline T NAME(T a, T b) {                                                      \
    return (T)__kjit_dpx((unsigned)a, (unsigned)b, (unsigned)b, WIDTH, true, OP, true); \
  }
__KJIT_DPX3(__vimax3_s32, int, 32, true, __kjit_dpx_max3, false)
__KJIT_DPX3(__vimax3_s16x2, unsigned int, 16, true, __kjit_dpx_max3, false)
__KJIT_DPX3(__vimax3_u32, unsigned int, 32, false, __kjit_dpx_max3, false)
__KJIT_DPX3(__vimax3_u16x2, unsigned int, 16, false, __kjit_dpx_max3, false)
__KJIT_DPX3(__vimin3_s32, int, 32, true, __kjit_dpx_min3, false)
__KJIT_DPX3(__vimin3_s16x2, unsigned int, 16, true, __kjit_dpx_min3, false)
__KJIT_DPX3(__vimin3_u32, unsigned int, 32, false, __kjit_dpx_min3, false)
__KJIT_DPX3(__vimin3_u16x2, unsigned int, 16, false, __kjit_dpx_min3, false)
__KJIT_DPX3(__vimax3_s32_relu, int, 32, true, __kjit_dpx_max3, true)
__KJIT_DPX3(__vimax3_s16x2_relu, unsigned int, 16, true, __kjit_dpx_max3, true)
__KJIT_DPX3(__vimin3_s32_relu, int, 32, true, __kjit_dpx_min3, true)
__KJIT_DPX3(__vimin3_s16x2_relu, unsigned int, 16, true, __kjit_dpx_min3, true)
__KJIT_DPX2(__vimax_s32_relu, int, 32, __kjit_dpx_max3)
__KJIT_DPX2(__vimax_s16x2_relu, unsigned int, 16, __kjit_dpx_max3)
__KJIT_DPX2(__vimin_s32_relu, int, 32, __kjit_dpx_min3)
__KJIT_DPX2(__vimin_s16x2_relu, unsigned int, 16, __kjit_dpx_min3)
__KJIT_DPX3(__viaddmax_s32, int, 32, true, __kjit_dpx_addmax, false)
__KJIT_DPX3(__viaddmax_s16x2, unsigned int, 16, true, __kjit_dpx_addmax, false)
__KJIT_DPX3(__viaddmax_u32, unsigned int, 32, false, __kjit_dpx_addmax, false)
__KJIT_DPX3(__viaddmax_u16x2, unsigned int, 16, false, __kjit_dpx_addmax, false)
__KJIT_DPX3(__viaddmin_s32, int, 32, true, __kjit_dpx_addmin, false)
__KJIT_DPX3(__viaddmin_s16x2, unsigned int, 16, true, __kjit_dpx_addmin, false)
__KJIT_DPX3(__viaddmin_u32, unsigned int, 32, false, __kjit_dpx_addmin, false)
__KJIT_DPX3(__viaddmin_u16x2, unsigned int, 16, false, __kjit_dpx_addmin, false)
__KJIT_DPX3(__viaddmax_s32_relu, int, 32, true, __kjit_dpx_addmax, true)
__KJIT_DPX3(__viaddmax_s16x2_relu, unsigned int, 16, true, __kjit_dpx_addmax, true)
__KJIT_DPX3(__viaddmin_s32_relu, int, 32, true, __kjit_dpx_addmin, true)
__KJIT_DPX3(__viaddmin_s16x2_relu, unsigned int, 16, true, __kjit_dpx_addmin, true)
#undef __KJIT_DPX3
#undef __KJIT_DPX2
// The max or min of two, and whether a won: a >= b for max, a <= b for min (per lane).
static inline unsigned __kjit_dpx_pick(unsigned a, unsigned b, int width, bool is_signed, bool max,
                                       bool* won_hi, bool* won_lo) {
  unsigned out = 0;
  for (int k = 0; k < 32 / width; ++k) {
    const long long x = __kjit_dpx_lane(a, k, width, is_signed);
    const long long y = __kjit_dpx_lane(b, k, width, is_signed);
    const bool a_wins = max ? x >= y : x <= y;
    *(k == 0 ? won_lo : won_hi) = a_wins;
    out |= ((unsigned)(a_wins ? x : y) & __kjit_dpx_mask(width)) << (width * k);
  }
  return out;
}
static inline int __vibmax_s32(int a, int b, bool* pred) {
  return (int)__kjit_dpx_pick((unsigned)a, (unsigned)b, 32, true, true, pred, pred);
}
static inline unsigned int __vibmax_u32(unsigned int a, unsigned int b, bool* pred) {
  return __kjit_dpx_pick(a, b, 32, false, true, pred, pred);
}
static inline int __vibmin_s32(int a, int b, bool* pred) {
  return (int)__kjit_dpx_pick((unsigned)a, (unsigned)b, 32, true, false, pred, pred);
}
static inline unsigned int __vibmin_u32(unsigned int a, unsigned int b, bool* pred) {
  return __kjit_dpx_pick(a, b, 32, false, false, pred, pred);
}
static inline unsigned int __vibmax_s16x2(unsigned int a, unsigned int b, bool* pred_hi,
                                          bool* pred_lo) {
  return __kjit_dpx_pick(a, b, 16, true, true, pred_hi, pred_lo);
}
static inline unsigned int __vibmax_u16x2(unsigned int a, unsigned int b, bool* pred_hi,
                                          bool* pred_lo) {
  return __kjit_dpx_pick(a, b, 16, false, true, pred_hi, pred_lo);
}
static inline unsigned int __vibmin_s16x2(unsigned int a, unsigned int b, bool* pred_hi,
                                          bool* pred_lo) {
  return __kjit_dpx_pick(a, b, 16, true, false, pred_hi, pred_lo);
}
static inline unsigned int __vibmin_u16x2(unsigned int a, unsigned int b, bool* pred_hi,
                                          bool* pred_lo) {
  return __kjit_dpx_pick(a, b, 16, false, false, pred_hi, pred_lo);
}

// The SIMD video intrinsics: halfword (...2) and byte (...4) lanes of 32-bit words, each lane
// computed wide from its signed (sx, sy) and unsigned (ux, uy) values, then cut to the lane.
// One function with a switch on the operation serves them all: each intrinsic passes constants,
// which inlining folds, and a program that uses none parses no template or lambda for them.
enum __kjit_simd_op {
  __kjit_simd_add,
  __kjit_simd_sub,
  __kjit_simd_addss,
  __kjit_simd_addus,
  __kjit_simd_subss,
  __kjit_simd_subus,
  __kjit_simd_absdiffs,
  __kjit_simd_absdiffu,
  __kjit_simd_avgs,
  __kjit_simd_avgu,
  __kjit_simd_haddu,
  __kjit_simd_maxs,
  __kjit_simd_maxu,
  __kjit_simd_mins,
  __kjit_simd_minu,
  __kjit_simd_eq,
  __kjit_simd_ne,
  __kjit_simd_ges,
  __kjit_simd_geu,
  __kjit_simd_gts,
  __kjit_simd_gtu,
  __kjit_simd_les,
  __kjit_simd_leu,
  __kjit_simd_lts,
  __kjit_simd_ltu,
  __kjit_simd_abs,
  __kjit_simd_absss,
  __kjit_simd_neg,
  __kjit_simd_negss
};
static inline long long __kjit_simd_lane(int op, int w, long long sx, long long sy, long long ux,
                                         long long uy) {
  const long long s_hi = (1LL << (w - 1)) - 1;  // the signed lane's largest value
  const long long u_hi = (1LL << w) - 1;
  const long long abs_sx = sx < 0 ? -sx : sx;
  long long v = 0;
  switch (op) {
    case __kjit_simd_add:
      return ux + uy;
    case __kjit_simd_sub:
      return ux - uy;
    case __kjit_simd_addss:
      v = sx + sy;
      return v > s_hi ? s_hi : (v < -s_hi - 1 ? -s_hi - 1 : v);
    case __kjit_simd_subss:
      v = sx - sy;
      return v > s_hi ? s_hi : (v < -s_hi - 1 ? -s_hi - 1 : v);
    case __kjit_simd_addus:
      v = ux + uy;
      return v > u_hi ? u_hi : v;
    case __kjit_simd_subus:
      v = ux - uy;
      return v < 0 ? 0 : v;
    case __kjit_simd_absdiffs:
      return sx > sy ? sx - sy : sy - sx;
    case __kjit_simd_absdiffu:
      return ux > uy ? ux - uy : uy - ux;
    case __kjit_simd_avgs:
      v = sx + sy;
      return (v + (v >= 0 ? 1 : 0)) >> 1;
    case __kjit_simd_avgu:
      return (ux + uy + 1) >> 1;
    case __kjit_simd_haddu:
      return (ux + uy) >> 1;
    case __kjit_simd_maxs:
      return sx > sy ? sx : sy;
    case __kjit_simd_maxu:
      return ux > uy ? ux : uy;
    case __kjit_simd_mins:
      return sx < sy ? sx : sy;
    case __kjit_simd_minu:
      return ux < uy ? ux : uy;
    case __kjit_simd_eq:
      return ux == uy;
    case __kjit_simd_ne:
      return ux != uy;
    case __kjit_simd_ges:
      return sx >= sy;
    case __kjit_simd_geu:
      return ux >= uy;
    case __kjit_simd_gts:
      return sx > sy;
    case __kjit_simd_gtu:
      return ux > uy;
    case __kjit_simd_les:
      return sx <= sy;
    case __kjit_simd_leu:
      return ux <= uy;
    case __kjit_simd_lts:
      return sx < sy;
    case __kjit_simd_ltu:
      return ux < uy;
    case __kjit_simd_abs:
      return abs_sx;
    case __kjit_simd_absss:
      return abs_sx > s_hi ? s_hi : abs_sx;
    case __kjit_simd_neg:
      return -sx;
    case __kjit_simd_negss:
      return -sx > s_hi ? s_hi : -sx;
    default:
      return 0;
  }
}
// The lanes of op(a, b) in lanes of w bits, each times `scale` (-1 turns a compare's 1 into the
// all-ones lane of __vcmp...); with `sum`, the sum of the lanes instead.
static inline unsigned int __kjit_simd(unsigned int a, unsigned int b, int w, int op,
                                       long long scale = 1, bool sum = false) {
  const long long mask = (1LL << w) - 1;
  unsigned int r = 0;
  for (int i = 0; i < 32 / w; ++i) {
    const long long ux = (long long)(a >> (w * i)) & mask;
    const long long uy = (long long)(b >> (w * i)) & mask;
    const long long sx = ux >= (1LL << (w - 1)) ? ux - (1LL << w) : ux;
    const long long sy = uy >= (1LL << (w - 1)) ? uy - (1LL << w) : uy;
    const long long lane = (scale * __kjit_simd_lane(op, w, sx, sy, ux, uy)) & mask;
    r = sum ? r + (unsigned int)lane : r | ((unsigned int)lane << (w * i));
  }
  return r;
}
#define __KJIT_SIMD(NAME, OP)                                          \
  static inline unsigned int NAME##2(unsigned int a, unsigned int b) { \
    return __kjit_simd(a, b, 16, OP);                                  \
  }                                                                    \
  static inline unsigned int NAME##4(unsigned int a, unsigned int b) { \
    return __kjit_simd(a, b, 8, OP);                                   \
  }
#define __KJIT_SIMD_COMPARE(NAME, OP)                                          \
  static inline unsigned int __vcmp##NAME##2(unsigned int a, unsigned int b) { \
    return __kjit_simd(a, b, 16, OP, -1);                                      \
  }                                                                            \
  static inline unsigned int __vcmp##NAME##4(unsigned int a, unsigned int b) { \
    return __kjit_simd(a, b, 8, OP, -1);                                       \
  }                                                                            \
  static inline unsigned int __vset##NAME##2(unsigned int a, unsigned int b) { \
    return __kjit_simd(a, b, 16, OP);                                          \
  }                                                                            \
  static inline unsigned int __vset##NAME##4(unsigned int a, unsigned int b) { \
    return __kjit_simd(a, b, 8, OP);                                           \
  }
#define __KJIT_SIMD_UNARY(NAME, OP)                    \
  static inline unsigned int NAME##2(unsigned int a) { \
    return __kjit_simd(a, 0u, 16, OP);                 \
  }                                                    \
  static inline unsigned int NAME##4(unsigned int a) { \
    return __kjit_simd(a, 0u, 8, OP);                  \
  }
#define __KJIT_SIMD_SAD(NAME, OP)                                      \
  static inline unsigned int NAME##2(unsigned int a, unsigned int b) { \
    return __kjit_simd(a, b, 16, OP, 1, true);                         \
  }                                                                    \
  static inline unsigned int NAME##4(unsigned int a, unsigned int b) { \
    return __kjit_simd(a, b, 8, OP, 1, true);                          \
  }
__KJIT_SIMD(__vadd, __kjit_simd_add)
__KJIT_SIMD(__vsub, __kjit_simd_sub)
__KJIT_SIMD(__vaddss, __kjit_simd_addss)
__KJIT_SIMD(__vaddus, __kjit_simd_addus)
__KJIT_SIMD(__vsubss, __kjit_simd_subss)
__KJIT_SIMD(__vsubus, __kjit_simd_subus)
__KJIT_SIMD(__vabsdiffs, __kjit_simd_absdiffs)
__KJIT_SIMD(__vabsdiffu, __kjit_simd_absdiffu)
__KJIT_SIMD(__vavgs, __kjit_simd_avgs)
__KJIT_SIMD(__vavgu, __kjit_simd_avgu)
__KJIT_SIMD(__vhaddu, __kjit_simd_haddu)
__KJIT_SIMD(__vmaxs, __kjit_simd_maxs)
__KJIT_SIMD(__vmaxu, __kjit_simd_maxu)
__KJIT_SIMD(__vmins, __kjit_simd_mins)
__KJIT_SIMD(__vminu, __kjit_simd_minu)
__KJIT_SIMD_COMPARE(eq, __kjit_simd_eq)
__KJIT_SIMD_COMPARE(ne, __kjit_simd_ne)
__KJIT_SIMD_COMPARE(ges, __kjit_simd_ges)
__KJIT_SIMD_COMPARE(geu, __kjit_simd_geu)
__KJIT_SIMD_COMPARE(gts, __kjit_simd_gts)
__KJIT_SIMD_COMPARE(gtu, __kjit_simd_gtu)
__KJIT_SIMD_COMPARE(les, __kjit_simd_les)
__KJIT_SIMD_COMPARE(leu, __kjit_simd_leu)
__KJIT_SIMD_COMPARE(lts, __kjit_simd_lts)
__KJIT_SIMD_COMPARE(ltu, __kjit_simd_ltu)
__KJIT_SIMD_UNARY(__vabs, __kjit_simd_abs)
__KJIT_SIMD_UNARY(__vabsss, __kjit_simd_absss)
__KJIT_SIMD_UNARY(__vneg, __kjit_simd_neg)
__KJIT_SIMD_UNARY(__vnegss, __kjit_simd_negss)
__KJIT_SIMD_SAD(__vsads, __kjit_simd_absdiffs)
__KJIT_SIMD_SAD(__vsadu, __kjit_simd_absdiffu)
#undef __KJIT_SIMD_SAD
#undef __KJIT_SIMD_UNARY
#undef __KJIT_SIMD_COMPARE
#undef __KJIT_SIMD

// Sleeps "about" ns nanoseconds, which CUDA lets be anything from 0 to twice that: 0 here.
static inline void __nanosleep(unsigned int) {}
// A profiler's counter: none here.
static inline void __prof_trigger(int) {}

// The position of the n-th set bit of mask from bit base, upwards for n > 0 and downwards for
// n < 0 (n == 0: base itself, if set); 0xffffffff when there is none (PTX's fns).
static inline unsigned int __fns(unsigned int mask, unsigned int base, int offset) {
  if (offset == 0) {
    return base < 32 && (mask >> base & 1u) != 0 ? base : 0xffffffffu;
  }
  int count = offset > 0 ? offset - 1 : -offset - 1;
  const int step = offset > 0 ? 1 : -1;
  for (int pos = (int)base; pos >= 0 && pos < 32; pos += step) {
    if ((mask >> pos & 1u) != 0) {
      if (count == 0) {
        return (unsigned int)pos;
      }
      --count;
    }
  }
  return 0xffffffffu;
}

// Loads and stores with a cache hint: cpu_prelude_memory.h.

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
