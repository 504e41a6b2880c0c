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
static inline int __float2int_rn(float x) {
  return (int)__builtin_rintf(x);
}
static inline int __float2int_rz(float x) {
  return (int)x;
}
static inline int __float2int_rd(float x) {
  return (int)__builtin_floorf(x);
}
static inline int __float2int_ru(float x) {
  return (int)__builtin_ceilf(x);
}
static inline unsigned int __float2uint_rn(float x) {
  return (unsigned int)__builtin_rintf(x);
}
static inline unsigned int __float2uint_rz(float x) {
  return (unsigned int)x;
}
static inline float __int2float_rn(int x) {
  return (float)x;
}
static inline float __uint2float_rn(unsigned int x) {
  return (float)x;
}
static inline int __double2int_rn(double x) {
  return (int)__builtin_rint(x);
}
static inline int __double2int_rz(double x) {
  return (int)x;
}
static inline float __double2float_rn(double x) {
  return (float)x;
}

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
