// kjit CPU prelude, part: CUDA's warp-level operations. The threads of a block form warps of 32
// lanes by their linear index, as on a GPU, though they run one after another on the CPU.
//
// An operation is a meeting: each lane leaves what it gives in its own place of the block's warp
// area (kjit_cpu_block.warp, laid out in cpu_abi.h), waits (__kjit_warp_wait) until no thread of
// the block can run but those waiting at a warp, then reads what the lanes of its warp left. The
// block's runner counts rounds: every lane waiting at a meeting goes on in the next round, and a
// lane met those that left their value in the same round at the same call site (line and
// column): a lane that exited, took another branch or does not exist (a block smaller than its
// last warp) is not active, as on a GPU. A lane that skipped a meeting (the other side of a
// branch) comes to its warp's next one a round early, while the branch's lanes are still at
// theirs: the runtime holds a meeting whose mask names lanes at another meeting of the round
// (kjit_cpu_warp_release, cpu_warp_meetings.hpp), so that they meet there once they come.
// Each lane has two places, used in turn by rounds, so that it can leave its next value while
// its warp still reads the last one: one wait per operation.
// As in CUDA, a lane absent from the mask takes no part. Reading a lane that did not arrive is
// undefined in CUDA; here a shuffle reads it as zero bits (cuda-samples' reduce7 reads lanes past
// its mask, and its sums on an H100 are exact, as if they held zero), and votes, matches and
// reductions leave it out. A mask must name the calling lane.
//
// Split at its barriers (cpu_barrier_regions.hpp), a kernel runs each step between two meetings
// as a loop over its threads: a warp shuffle reduction is a few such loops, vectorised.

static const int warpSize = 32;

extern "C" void __kjit_warp_wait(const kjit_cpu_thread*);
// The block's round of warp meetings, from its warp area (cpu_abi.h). kjit's lowering reads it
// in place, or, in a pass over a block's threads, once for all of them: it is the same in every
// lane, so that every lane reads and writes the same place and LLVM moves their values as vectors.
extern "C" unsigned __kjit_warp_round(const char* area) __attribute__((pure, nothrow));

// Lanes in step: where kjit's lowering finds that a warp's lanes all reach a warp-level operation
// together (cpu_warp_lanes.cpp), it makes __kjit_warp_in_step true there and runs the warp's 32
// lanes as the lanes of vectors, so that the exchange is an operation on registers
// (__kjit_warp_shfl32/64, __kjit_warp_ballot and __kjit_warp_reduce32 have vector forms of 32
// lanes: a permute, a mask, a horizontal reduction); elsewhere false, and the lanes meet through
// the warp area. The scalar forms are never called (the runtime stops a kernel that would): a
// lane alone has no other lanes' values.
extern "C" bool __kjit_warp_in_step(unsigned mask, unsigned site) __attribute__((nothrow));
extern "C" unsigned __kjit_warp_shfl32(unsigned v, unsigned lane, unsigned mode, unsigned b,
                                       int width) __attribute__((nothrow));
extern "C" unsigned long long __kjit_warp_shfl64(unsigned long long v, unsigned lane, unsigned mode,
                                                 unsigned b, int width) __attribute__((nothrow));
// A vote of lanes in step: the bits of the lanes that run it (the vectors' lanes that are on)
// whose predicate is not zero, a mask operation on the vector of predicates.
extern "C" unsigned __kjit_warp_ballot(unsigned predicate) __attribute__((nothrow));
// A reduction of lanes in step over the lanes that run it, a horizontal reduction of the vector:
// op is one of __kjit::reduce_op.
extern "C" unsigned __kjit_warp_reduce32(unsigned v, unsigned op) __attribute__((nothrow));

// The call site of a warp-level operation, from the default argument that names it.
#define __KJIT_SITE (__builtin_LINE() * 4096u + __builtin_COLUMN())

namespace __kjit {

// The warp area (cpu_abi.h), for n threads (whole warps). Every access is to the lane's own
// element or, for a read, to one of its warp's: a pass over a block's threads reads and writes
// them as vectors.
struct warp_lane {
  unsigned tid;  // linear index in the block
  unsigned n;    // the block's threads, in whole warps
  char* area;

  __attribute__((always_inline)) warp_lane() {
    kjit_cpu_thread* ctx = __kjit_ctx();
    const kjit_cpu_block* b = ctx->block;
    // In int: a block has at most 1024 threads, so the sum cannot overflow, and LLVM, told so,
    // sees consecutive x as consecutive lanes (an unsigned sum may wrap, as far as it knows).
    tid = (unsigned)((int)ctx->thread_idx[0] +
                     (int)b->block_dim[0] * ((int)ctx->thread_idx[1] +
                                             (int)b->block_dim[1] * (int)ctx->thread_idx[2]));
    n = (b->block_dim[0] * b->block_dim[1] * b->block_dim[2] + 31u) & ~31u;
    area = b->warp;
  }
  unsigned long long* stamps(unsigned place) const {
    return (unsigned long long*)(area + KJIT_CPU_WARP_STAMPS_AT(n) + place * n * 8);
  }
  unsigned long long* masks(unsigned place) const {
    return (unsigned long long*)(area + KJIT_CPU_WARP_MASKS_AT(n) + place * n * 8);
  }
  // The values of a place, of every size class (value_class).
  char* values(unsigned place) const {
    return area + KJIT_CPU_WARP_VALUES_AT(n) + place * n * KJIT_CPU_WARP_PLACE_BYTES;
  }
  // The block's round of warp meetings.
  unsigned round() const { return __kjit_warp_round(area); }
};

static inline unsigned long long stamp(unsigned round, unsigned site) {
  return round | (unsigned long long)site << 32;
}

// The bytes of a lane's value of type T in a place: the least of 1, 2, 4, 8 and 16 that holds it.
// The values of one size class lie together (cpu_abi.h): consecutive lanes, consecutive values.
template <class T>
struct value_class {
  static constexpr unsigned bytes = sizeof(T) <= 1   ? 1u
                                    : sizeof(T) <= 2 ? 2u
                                    : sizeof(T) <= 4 ? 4u
                                    : sizeof(T) <= 8 ? 8u
                                                     : 16u;
  // Lane `at`'s value in the values of a place of n lanes.
  static char* in(const char* values, unsigned n, long long at) {
    return (char*)values + (bytes - 1) * n + at * (long long)bytes;
  }
};

// Where a lane meets its warp, as it reads it after the wait. Everything is read afresh from the
// warp area there, so that a kernel split at the wait keeps nothing of it across.
struct warp_meeting {
  unsigned tid;                      // linear index in the block
  unsigned n;                        // the block's threads, in whole warps
  unsigned lane;                     // in its warp
  unsigned base;                     // linear index of the warp's lane 0
  unsigned round;                    // the block's round, in which the lanes met
  unsigned site;                     // this operation's call site
  const unsigned long long* stamps;  // of the place this round used
  const char* values;

  __attribute__((always_inline)) explicit warp_meeting(unsigned at) : site(at) {
    const warp_lane l;
    tid = l.tid;
    n = l.n;
    lane = l.tid & 31u;
    base = l.tid & ~31u;
    round = l.round();
    stamps = l.stamps(round & 1u);
    values = l.values(round & 1u);
  }

  // The lanes of the warp that arrived at this operation.
  unsigned met() const {
    unsigned m = 0;
    for (unsigned j = 0; j < KJIT_CPU_WARP_LANES; ++j) {
      m |= (stamps[base + j] == stamp(round, site) ? 1u : 0u) << j;
    }
    return m;
  }
  // Lane j's index in the block, as this lane's plus the distance between them: for a shuffle
  // up or down by a distance every lane shares, LLVM sees consecutive lanes read consecutive
  // places (base + j would be a gather to it).
  // (In 64 bits: a 32-bit sum could wrap, as far as LLVM knows, and would be a gather again.)
  long long at(unsigned j) const { return (long long)(int)tid + (int)(j - lane); }
  template <class T>
  T value(unsigned j) const {
    T v;
    __builtin_memcpy(&v, value_class<T>::in(values, n, at(j)), sizeof(T));
    return v;
  }
  // Lane j's value if it met its warp in this round (by the round alone), else zero bits.
  template <class T>
  T value_if_met(unsigned j) const {
    T v;
    __builtin_memset(&v, 0, sizeof(T));
    if ((unsigned)stamps[at(j)] == round) {
      __builtin_memcpy(&v, value_class<T>::in(values, n, at(j)), sizeof(T));
    }
    return v;
  }
};

// Leaves v for the lanes of the mask (0: waits for none, __activemask()), waits, and meets them.
template <class T>
static inline __attribute__((always_inline)) warp_meeting warp_meet(const T& v, unsigned mask,
                                                                    unsigned site) {
  static_assert(sizeof(T) <= 16,
                "kjit's CPU backend exchanges at most 16 bytes per lane in a warp-level operation");
  {
    const warp_lane l;
    const unsigned round = l.round() + 1;  // the round in which the lane meets its warp
    const long long at = (int)l.tid;       // (see warp_meeting::at)
    l.stamps(round & 1u)[at] = stamp(round, site);
    l.masks(round & 1u)[at] = mask | (unsigned long long)sizeof(T) << 32;
    __builtin_memcpy(value_class<T>::in(l.values(round & 1u), l.n, at), &v, sizeof(T));
  }
  __kjit_warp_wait(__kjit_ctx());
  return warp_meeting(site);
}

// c ? a : b, as bit masks rather than a branch: LLVM would sink the loads of a branch's two arms
// into one load of a chosen address, which a vector of lanes can make only as a gather.
template <class W, class T>
static inline __attribute__((always_inline)) T pick_words(bool c, const T& a, const T& b) {
  W x[sizeof(T) / sizeof(W)];
  W y[sizeof(T) / sizeof(W)];
  __builtin_memcpy(x, &a, sizeof(T));
  __builtin_memcpy(y, &b, sizeof(T));
  const W keep = (W) - (W)c;  // all ones where a is chosen
  for (unsigned i = 0; i < sizeof(T) / sizeof(W); ++i) {
    x[i] = (W)((x[i] & keep) | (y[i] & (W)~keep));
  }
  T r;
  __builtin_memcpy(&r, x, sizeof(T));
  return r;
}
template <class T>
static inline __attribute__((always_inline)) T pick(bool c, const T& a, const T& b) {
  if constexpr (sizeof(T) % 8 == 0) {
    return pick_words<unsigned long long>(c, a, b);
  } else if constexpr (sizeof(T) % 4 == 0) {
    return pick_words<unsigned>(c, a, b);
  } else if constexpr (sizeof(T) % 2 == 0) {
    return pick_words<unsigned short>(c, a, b);
  } else {
    return pick_words<unsigned char>(c, a, b);
  }
}

// PTX's shfl.sync: mode 0 up, 1 down, 2 bfly, 3 idx; width a power of two up to 32.
// A shuffle of lanes in step (__kjit_warp_in_step), for values of 4 or 8 bytes.
template <class T>
static inline __attribute__((always_inline)) T shfl_in_step(unsigned mode, T var, unsigned b,
                                                            int width) {
  const unsigned lane = warp_lane().tid & 31u;
  T r;
  if constexpr (sizeof(T) == 4) {
    unsigned bits;
    __builtin_memcpy(&bits, &var, 4);
    bits = __kjit_warp_shfl32(bits, lane, mode, b, width);
    __builtin_memcpy(&r, &bits, 4);
  } else {
    unsigned long long bits;
    __builtin_memcpy(&bits, &var, 8);
    bits = __kjit_warp_shfl64(bits, lane, mode, b, width);
    __builtin_memcpy(&r, &bits, 8);
  }
  return r;
}

// `segment`: the mask is the caller's own segment of `width` lanes (a cooperative-groups tile's),
// whose lanes all take part. Where every lane of the warp comes, as with a full mask, the lanes
// can run in step: the shuffle reads within the segment only.
template <class T>
static inline __attribute__((always_inline)) T shfl(unsigned mask, unsigned mode, T var, unsigned b,
                                                    int width, unsigned site,
                                                    bool segment = false) {
  if constexpr (sizeof(T) == 4 || sizeof(T) == 8) {
    if (__kjit_warp_in_step(segment ? 0xffffffffu : mask, site)) {
      return shfl_in_step(mode, var, b, width);
    }
  }
  const warp_meeting m = warp_meet(var, mask, site);
  const int lane = (int)m.lane;
  const int bval = (int)(b & 31u);
  const int segmask = (32 - width) & 31;
  const int min_lane = lane & segmask;
  const int max_lane = min_lane | ((mode == 0 ? 0 : 31) & ~segmask);
  int j;
  bool ok;
  switch (mode) {
    case 0:
      j = lane - bval;
      ok = j >= max_lane;
      break;
    case 1:
      j = lane + bval;
      ok = j <= max_lane;
      break;
    case 2:
      j = lane ^ bval;
      ok = j <= max_lane;
      break;
    default:
      j = min_lane | (bval & ~segmask);
      ok = j <= max_lane;
      break;
  }
  // A lane of the mask takes part (CUDA's rule); only the others need to have arrived checked.
  // Lane j's value is read even where the lane keeps its own (!ok, j past its segment): it is
  // then another lane's or the area's tail (KJIT_CPU_WARP_TAIL_BYTES), and dropped. A load
  // every lane makes, at its index plus the shuffle's distance, is one vector load to LLVM.
  if ((mask >> (j & 31) & 1u) != 0) {
    return pick(ok, m.value<T>((unsigned)j), var);
  }
  return ok ? m.value_if_met<T>((unsigned)j) : var;
}

// The operations of __kjit_warp_reduce32 (cpu_warp_lane_forms.cpp folds each to its reduction).
enum reduce_op : unsigned {
  reduce_add = 0,
  reduce_umin = 1,
  reduce_umax = 2,
  reduce_and = 3,
  reduce_or = 4,
  reduce_xor = 5,
  reduce_smin = 6,
  reduce_smax = 7
};

// The lanes of the mask that vote predicate != 0 (`segment` as for shfl). In step, the lanes that
// run are the mask's that exist.
static inline unsigned ballot(unsigned mask, int predicate, unsigned site, bool segment) {
  if (__kjit_warp_in_step(segment ? 0xffffffffu : mask, site)) {
    return __kjit_warp_ballot(predicate != 0 ? 1u : 0u) & mask;
  }
  const warp_meeting m = warp_meet((unsigned char)(predicate != 0), mask, site);
  unsigned votes = 0;  // of every lane: those that did not arrive left anything there
  for (unsigned j = 0; j < KJIT_CPU_WARP_LANES; ++j) {
    votes |= (m.value<unsigned char>(j) != 0 ? 1u : 0u) << j;
  }
  return votes & m.met() & mask;
}

template <class T>
static inline bool same_bits(const T& a, const T& b) {
  return __builtin_memcmp(&a, &b, sizeof(T)) == 0;
}

}  // namespace __kjit

template <class T>
static inline T __shfl_sync(unsigned mask, T var, int src_lane, int width = warpSize,
                            unsigned __site = __KJIT_SITE) {
  return __kjit::shfl(mask, 3, var, (unsigned)src_lane, width, __site);
}
template <class T>
static inline T __shfl_up_sync(unsigned mask, T var, unsigned delta, int width = warpSize,
                               unsigned __site = __KJIT_SITE) {
  return __kjit::shfl(mask, 0, var, delta, width, __site);
}
template <class T>
static inline T __shfl_down_sync(unsigned mask, T var, unsigned delta, int width = warpSize,
                                 unsigned __site = __KJIT_SITE) {
  return __kjit::shfl(mask, 1, var, delta, width, __site);
}
template <class T>
static inline T __shfl_xor_sync(unsigned mask, T var, int lane_mask, int width = warpSize,
                                unsigned __site = __KJIT_SITE) {
  return __kjit::shfl(mask, 2, var, (unsigned)lane_mask, width, __site);
}

static inline void __syncwarp(unsigned mask = 0xffffffffu, unsigned __site = __KJIT_SITE) {
  __kjit::warp_meet((char)0, mask, __site);
}
static inline unsigned __activemask(unsigned __site = __KJIT_SITE) {
  return __kjit::warp_meet((char)0, 0u, __site).met();
}
// With lanes in step, the lanes that run a vote are those of the mask (a full mask, the only
// kind run in step) that exist: a block's last warp may be partial, as when they meet.
static inline unsigned __ballot_sync(unsigned mask, int predicate, unsigned __site = __KJIT_SITE) {
  return __kjit::ballot(mask, predicate, __site, false);
}
static inline int __any_sync(unsigned mask, int predicate, unsigned __site = __KJIT_SITE) {
  return __ballot_sync(mask, predicate, __site) != 0;
}
static inline int __all_sync(unsigned mask, int predicate, unsigned __site = __KJIT_SITE) {
  if (__kjit_warp_in_step(mask, __site)) {
    return __kjit_warp_ballot(predicate != 0 ? 1u : 0u) == __kjit_warp_ballot(1u);
  }
  const __kjit::warp_meeting m = __kjit::warp_meet((unsigned char)(predicate != 0), mask, __site);
  const unsigned voters = m.met() & mask;
  for (unsigned j = 0; j < KJIT_CPU_WARP_LANES; ++j) {
    if ((voters >> j & 1u) != 0 && m.value<unsigned char>(j) == 0) {
      return 0;
    }
  }
  return 1;
}

// Whether the predicate is the same in every lane of the mask that arrived.
static inline int __uni_sync(unsigned mask, int predicate, unsigned __site = __KJIT_SITE) {
  if (__kjit_warp_in_step(mask, __site)) {
    const unsigned votes = __kjit_warp_ballot(predicate != 0 ? 1u : 0u);
    return votes == 0 || votes == __kjit_warp_ballot(1u);
  }
  const __kjit::warp_meeting m = __kjit::warp_meet((unsigned char)(predicate != 0), mask, __site);
  const unsigned voters = m.met() & mask;
  for (unsigned j = 0; j < KJIT_CPU_WARP_LANES; ++j) {
    if ((voters >> j & 1u) != 0 && (m.value<unsigned char>(j) != 0) != (predicate != 0)) {
      return 0;
    }
  }
  return 1;
}

template <class T>
static inline unsigned __match_any_sync(unsigned mask, T value, unsigned __site = __KJIT_SITE) {
  const __kjit::warp_meeting m = __kjit::warp_meet(value, mask, __site);
  const unsigned voters = m.met() & mask;
  unsigned same = 0;
  for (unsigned j = 0; j < KJIT_CPU_WARP_LANES; ++j) {
    same |= ((voters >> j & 1u) != 0 && __kjit::same_bits(m.value<T>(j), value) ? 1u : 0u) << j;
  }
  return same;
}
template <class T>
static inline unsigned __match_all_sync(unsigned mask, T value, int* pred,
                                        unsigned __site = __KJIT_SITE) {
  const __kjit::warp_meeting m = __kjit::warp_meet(value, mask, __site);
  const unsigned voters = m.met() & mask;
  for (unsigned j = 0; j < KJIT_CPU_WARP_LANES; ++j) {
    if ((voters >> j & 1u) != 0 && !__kjit::same_bits(m.value<T>(j), value)) {
      *pred = 0;
      return 0;
    }
  }
  *pred = 1;
  return mask;
}

// __reduce_*_sync: over the lanes of the mask that arrived, in 32 bits (adds wrap); with lanes
// in step, over the lanes that run it.
#define __KJIT_WARP_REDUCE(NAME, T, OP, IN_STEP)                                \
  static inline T NAME(unsigned mask, T value, unsigned __site = __KJIT_SITE) { \
    if (__kjit_warp_in_step(mask, __site)) {                                    \
      return (T)__kjit_warp_reduce32((unsigned)value, __kjit::IN_STEP);         \
    }                                                                           \
    const __kjit::warp_meeting m = __kjit::warp_meet(value, mask, __site);      \
    const unsigned voters = m.met() & mask;                                     \
    T r = value;                                                                \
    for (unsigned j = 0; j < KJIT_CPU_WARP_LANES; ++j) {                        \
      if ((voters >> j & 1u) != 0 && j != m.lane) {                             \
        const T x = m.value<T>(j);                                              \
        r = OP;                                                                 \
      }                                                                         \
    }                                                                           \
    return r;                                                                   \
  }
__KJIT_WARP_REDUCE(__reduce_add_sync, unsigned, r + x, reduce_add)
__KJIT_WARP_REDUCE(__reduce_min_sync, unsigned, x < r ? x : r, reduce_umin)
__KJIT_WARP_REDUCE(__reduce_max_sync, unsigned, x > r ? x : r, reduce_umax)
__KJIT_WARP_REDUCE(__reduce_and_sync, unsigned, r& x, reduce_and)
__KJIT_WARP_REDUCE(__reduce_or_sync, unsigned, r | x, reduce_or)
__KJIT_WARP_REDUCE(__reduce_xor_sync, unsigned, r ^ x, reduce_xor)
__KJIT_WARP_REDUCE(__reduce_add_sync, int, (int)((unsigned)r + (unsigned)x), reduce_add)
__KJIT_WARP_REDUCE(__reduce_min_sync, int, x < r ? x : r, reduce_smin)
__KJIT_WARP_REDUCE(__reduce_max_sync, int, x > r ? x : r, reduce_smax)
#undef __KJIT_WARP_REDUCE

// The forms without a mask, gone since CUDA 9 for sm_70 and later (as for nvcc).
#define __KJIT_NO_MASK(what)                                                            \
  __attribute__((unavailable(what " without _sync was removed in CUDA 9 for sm_70 and " \
                                  "later: use the _sync form with a mask")))
unsigned __ballot(int) __KJIT_NO_MASK("__ballot");
int __any(int) __KJIT_NO_MASK("__any");
int __all(int) __KJIT_NO_MASK("__all");
template <class T>
T __shfl(T, int, int = 32) __KJIT_NO_MASK("__shfl");
template <class T>
T __shfl_up(T, unsigned, int = 32) __KJIT_NO_MASK("__shfl_up");
template <class T>
T __shfl_down(T, unsigned, int = 32) __KJIT_NO_MASK("__shfl_down");
template <class T>
T __shfl_xor(T, int, int = 32) __KJIT_NO_MASK("__shfl_xor");
#undef __KJIT_NO_MASK
