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
