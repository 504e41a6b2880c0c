// kjit CPU prelude, part: CUDA's warp-level operations. The threads of a block form warps of 32
// lanes by their linear index, as on a GPU, though they run one after another on the CPU.
//
// An operation is a meeting: each lane leaves what it gives in its own place of the block's warp
// area (kjit_cpu_block.warp), waits (__kjit_warp_wait) until no thread of the block can run but
// those waiting at a warp, then reads what the lanes of its warp left. Lanes met when they have
// done as many warp-level operations as each other and are at the same call site (line and
// column): a lane that exited, took another branch or does not exist (a block smaller than its
// last warp) is not active, as on a GPU. Each lane has two places, used in turn, so that it can
// leave its next value while its warp still reads the last one: one wait per operation.
// As in CUDA, a lane absent from the mask takes no part. Reading a lane that did not arrive is
// undefined in CUDA; here a shuffle reads it as zero bits (cuda-samples' reduce7 reads lanes past
// its mask, and its sums on an H100 are exact, as if they held zero), and votes, matches and
// reductions leave it out. A mask must name the calling lane.
//
// Split at its barriers (cpu_barrier_regions.hpp), a kernel runs each step between two meetings
// as a loop over its threads: a warp shuffle reduction is a few such loops, vectorised.

static const int warpSize = 32;

extern "C" void __kjit_warp_wait(const kjit_cpu_thread*);

// The call site of a warp-level operation, from the default argument that names it.
#define __KJIT_SITE (__builtin_LINE() * 4096u + __builtin_COLUMN())

namespace __kjit {

// The warp area (cpu_abi.h), for n threads (whole warps): two places, used in turn, each n stamps
// (a lane's count of warp-level operations at its last one in that place, and that operation's
// call site; zero when a block starts) and then n values of 16 bytes. A lane's count is the larger
// of its two stamps' counts. Every access is to the lane's own element or, for a read, to one of
// its warp's: a pass over a block's threads reads and writes the stamps as vectors.
struct warp_lane {
  unsigned tid;  // linear index in the block
  unsigned n;    // the block's threads, in whole warps
  char* area;

  __attribute__((always_inline)) warp_lane() {
    kjit_cpu_thread* ctx = __kjit_ctx();
    const kjit_cpu_block* b = ctx->block;
    tid = ctx->thread_idx[0] +
          b->block_dim[0] * (ctx->thread_idx[1] + b->block_dim[1] * ctx->thread_idx[2]);
    n = (b->block_dim[0] * b->block_dim[1] * b->block_dim[2] + 31u) & ~31u;
    area = b->warp;
  }
  unsigned long long* stamps(unsigned place) const {
    return (unsigned long long*)(area + place * n * 8);
  }
  char* values(unsigned place) const { return area + n * 16 + place * n * 16; }
  // This lane's count of warp-level operations done.
  unsigned count() const {
    const unsigned a = (unsigned)stamps(0)[tid];
    const unsigned b = (unsigned)stamps(1)[tid];
    return a > b ? a : b;
  }
};

static inline unsigned long long stamp(unsigned count, unsigned site) {
  return count | (unsigned long long)site << 32;
}

// Where a lane meets its warp, as it reads it after the wait. Everything is read afresh from the
// warp area there, so that a kernel split at the wait keeps nothing of it across.
struct warp_meeting {
  unsigned lane;                     // in its warp
  unsigned base;                     // linear index of the warp's lane 0
  unsigned count;                    // this lane's count, this operation included
  unsigned site;                     // this operation's call site
  const unsigned long long* stamps;  // of the place this operation used
  const char* values;

  __attribute__((always_inline)) explicit warp_meeting(unsigned at) : site(at) {
    const warp_lane l;
    lane = l.tid & 31u;
    base = l.tid & ~31u;
    count = l.count();
    stamps = l.stamps(count & 1u);
    values = l.values(count & 1u);
  }

  // The lanes of the warp that arrived at this operation.
  unsigned met() const {
    unsigned m = 0;
    for (unsigned j = 0; j < KJIT_CPU_WARP_LANES; ++j) {
      m |= (stamps[base + j] == stamp(count, site) ? 1u : 0u) << j;
    }
    return m;
  }
  template <class T>
  T value(unsigned j) const {
    T v;
    __builtin_memcpy(&v, values + (base + j) * sizeof(T), sizeof(T));
    return v;
  }
  // Lane j's value if it arrived at this operation (by its count alone), else zero bits.
  template <class T>
  T value_if_met(unsigned j) const {
    T v;
    __builtin_memset(&v, 0, sizeof(T));
    if ((unsigned)stamps[base + j] == count) {
      __builtin_memcpy(&v, values + (base + j) * sizeof(T), sizeof(T));
    }
    return v;
  }
};

template <class T>
static inline __attribute__((always_inline)) warp_meeting warp_meet(const T& v, unsigned site) {
  static_assert(sizeof(T) <= 16,
                "kjit's CPU backend exchanges at most 16 bytes per lane in a warp-level operation");
  {
    const warp_lane l;
    const unsigned count = l.count() + 1;
    l.stamps(count & 1u)[l.tid] = stamp(count, site);
    __builtin_memcpy(l.values(count & 1u) + l.tid * sizeof(T), &v, sizeof(T));
  }
  __kjit_warp_wait(__kjit_ctx());
  return warp_meeting(site);
}

// PTX's shfl.sync: mode 0 up, 1 down, 2 bfly, 3 idx; width a power of two up to 32.
template <class T>
static inline __attribute__((always_inline)) T shfl(unsigned mask, unsigned mode, T var, unsigned b,
                                                    int width, unsigned site) {
  const warp_meeting m = warp_meet(var, site);
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
  const unsigned from = (unsigned)(ok ? j : lane);
  // A lane of the mask takes part (CUDA's rule); only the others need to have arrived checked.
  return (mask >> from & 1u) != 0 ? m.value<T>(from) : m.value_if_met<T>(from);
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

static inline void __syncwarp(unsigned = 0xffffffffu, unsigned __site = __KJIT_SITE) {
  __kjit::warp_meet((char)0, __site);
}
static inline unsigned __activemask(unsigned __site = __KJIT_SITE) {
  return __kjit::warp_meet((char)0, __site).met();
}
static inline unsigned __ballot_sync(unsigned mask, int predicate, unsigned __site = __KJIT_SITE) {
  const __kjit::warp_meeting m = __kjit::warp_meet((unsigned char)(predicate != 0), __site);
  unsigned votes = 0;  // of every lane: those that did not arrive left anything there
  for (unsigned j = 0; j < KJIT_CPU_WARP_LANES; ++j) {
    votes |= (m.value<unsigned char>(j) != 0 ? 1u : 0u) << j;
  }
  return votes & m.met() & mask;
}
static inline int __any_sync(unsigned mask, int predicate, unsigned __site = __KJIT_SITE) {
  return __ballot_sync(mask, predicate, __site) != 0;
}
static inline int __all_sync(unsigned mask, int predicate, unsigned __site = __KJIT_SITE) {
  const __kjit::warp_meeting m = __kjit::warp_meet((unsigned char)(predicate != 0), __site);
  const unsigned voters = m.met() & mask;
  for (unsigned j = 0; j < KJIT_CPU_WARP_LANES; ++j) {
    if ((voters >> j & 1u) != 0 && m.value<unsigned char>(j) == 0) {
      return 0;
    }
  }
  return 1;
}

template <class T>
static inline unsigned __match_any_sync(unsigned mask, T value, unsigned __site = __KJIT_SITE) {
  const __kjit::warp_meeting m = __kjit::warp_meet(value, __site);
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
  const __kjit::warp_meeting m = __kjit::warp_meet(value, __site);
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

// __reduce_*_sync: over the lanes of the mask that arrived, in 32 bits (adds wrap).
#define __KJIT_WARP_REDUCE(NAME, T, OP)                                         \
  static inline T NAME(unsigned mask, T value, unsigned __site = __KJIT_SITE) { \
    const __kjit::warp_meeting m = __kjit::warp_meet(value, __site);            \
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
__KJIT_WARP_REDUCE(__reduce_add_sync, unsigned, r + x)
__KJIT_WARP_REDUCE(__reduce_min_sync, unsigned, x < r ? x : r)
__KJIT_WARP_REDUCE(__reduce_max_sync, unsigned, x > r ? x : r)
__KJIT_WARP_REDUCE(__reduce_and_sync, unsigned, r& x)
__KJIT_WARP_REDUCE(__reduce_or_sync, unsigned, r | x)
__KJIT_WARP_REDUCE(__reduce_xor_sync, unsigned, r ^ x)
__KJIT_WARP_REDUCE(__reduce_add_sync, int, (int)((unsigned)r + (unsigned)x))
__KJIT_WARP_REDUCE(__reduce_min_sync, int, x < r ? x : r)
__KJIT_WARP_REDUCE(__reduce_max_sync, int, x > r ? x : r)
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
