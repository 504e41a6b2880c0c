// kjit's <cooperative_groups.h>: CUDA's cooperative groups for kernels, on every backend.
//  - thread_block (this_thread_block()): sync, thread_rank, size/num_threads, group_index,
//    thread_index, group_dim;
//  - grid_group (this_grid()): ranks and sizes; sync() needs a cooperative launch, which kjit
//    does not do, so it is a compile error;
//  - thread_block_tile<N> (tiled_partition<N>(parent), N a power of two up to 32): sync, shfl,
//    shfl_up, shfl_down, shfl_xor, any, all, ballot, match_any, match_all, thread_rank,
//    meta_group_rank, meta_group_size; thread_group, the type-erased group
//    (tiled_partition(parent, n));
//  - coalesced_group (coalesced_threads(), binary_partition, labeled_partition): sync, shfl,
//    shfl_up, shfl_down by rank, ballot (a bit per rank), any, all, thread_rank, size.
// Multi-warp tiles (block_tile_memory, tiled_partition<N> for N > 32) are a compile error.
// On the CPU backend a tile's operations are the CPU prelude's warp-level intrinsics
// (cpu_prelude_warp.h). A hipRTC with cooperative groups of its own (ROCm 5.7 has them,
// 5.2 has not) keeps them: kjit then defines __KJIT_HIP_COOPERATIVE_GROUPS and this header and
// reduce.h, scan.h and memcpy_async.h add nothing (HIP's API is older than CUDA 12's: no
// num_threads(), for one).
#ifndef __KJIT_COOPERATIVE_GROUPS_H
#define __KJIT_COOPERATIVE_GROUPS_H
#include "__kjit_headers.h"
#if !defined(__KJIT_HIP_COOPERATIVE_GROUPS)

namespace cooperative_groups {

namespace __kjit_cg {

template <class T>
struct dependent_false {
  static constexpr bool value = false;
};

__device__ inline unsigned int block_rank() {
  return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
}
__device__ inline unsigned int block_size() {
  return blockDim.x * blockDim.y * blockDim.z;
}

// The lanes of a warp as the GPU compiler's intrinsics take them.
#if defined(__KJIT_HIP__)
typedef unsigned long long lane_mask;
#define __KJIT_CG_LANES 64
#else
typedef unsigned int lane_mask;
#define __KJIT_CG_LANES 32
#endif

__device__ inline unsigned int lane() {
  return block_rank() % __KJIT_CG_LANES;
}

/// The lanes of the tile of `size` threads that holds this thread.
__device__ inline lane_mask tile_mask(unsigned int size) {
  const lane_mask all = ~lane_mask(0);
  if (size >= __KJIT_CG_LANES) {
    return all;
  }
  return ((lane_mask(1) << size) - 1) << (lane() & ~(size - 1));
}

// Whether the GPU compiler's shuffle intrinsics take a T as it is: its arithmetic types (bool,
// char and short are promoted to int). Any other trivially copyable T (a struct, a half, an
// enum, a pointer) is shuffled in 32-bit words, as CUDA's own cooperative groups do.
template <class T>
struct native_shuffle {
  static constexpr bool value = false;
};
#define __KJIT_CG_NATIVE(T)             \
  template <>                           \
  struct native_shuffle<T> {            \
    static constexpr bool value = true; \
  };
__KJIT_CG_NATIVE(bool)
__KJIT_CG_NATIVE(char)
__KJIT_CG_NATIVE(signed char)
__KJIT_CG_NATIVE(unsigned char)
__KJIT_CG_NATIVE(short)
__KJIT_CG_NATIVE(unsigned short)
__KJIT_CG_NATIVE(int)
__KJIT_CG_NATIVE(unsigned int)
__KJIT_CG_NATIVE(long)
__KJIT_CG_NATIVE(unsigned long)
__KJIT_CG_NATIVE(long long)
__KJIT_CG_NATIVE(unsigned long long)
__KJIT_CG_NATIVE(float)
__KJIT_CG_NATIVE(double)
#undef __KJIT_CG_NATIVE

#if defined(__KJIT_CUDA__) || defined(__KJIT_HIP__)
/// `value` shuffled one 32-bit word at a time: shuffle(word) gives each word of the other lane.
template <class T, class Shuffle>
__device__ inline T shuffle_words(T value, Shuffle shuffle) {
  static_assert(__is_trivially_copyable(T),
                "cooperative groups shuffle (and reduce) trivially copyable types only");
  constexpr unsigned int n = (sizeof(T) + 3) / 4;
  unsigned int words[n] = {};
#if defined(__KJIT_CUDA__)  // NVRTC's memcpy is a builtin; it has no __builtin_memcpy
  memcpy(words, &value, sizeof(T));
#else
  __builtin_memcpy(words, &value, sizeof(T));
#endif
  for (unsigned int i = 0; i < n; ++i) {
    words[i] = shuffle(words[i]);
  }
#if defined(__KJIT_CUDA__)
  memcpy(&value, words, sizeof(T));
#else
  __builtin_memcpy(&value, words, sizeof(T));
#endif
  return value;
}
#endif

#if defined(__KJIT_CPU__)
// The CPU prelude's intrinsics take any trivially copyable T.
__device__ inline void warp_sync(lane_mask m) {
  __syncwarp(m);
}
// `tile`: the mask is the caller's tile's own segment of the warp, every lane of which takes part
// (the tile classes' calls): the prelude can run a warp whose tiles all come together with its
// lanes in step, as with a full mask.
__device__ inline lane_mask ballot(lane_mask m, int p, bool tile = false) {
  return __kjit::ballot(m, p, __KJIT_SITE, tile);
}
template <class T>
__device__ inline T shfl(lane_mask m, T v, int src, int width, bool tile = false) {
  return __kjit::shfl(m, 3, v, (unsigned)src, width, __KJIT_SITE, tile);
}
template <class T>
__device__ inline T shfl_up(lane_mask m, T v, unsigned int d, int width, bool tile = false) {
  return __kjit::shfl(m, 0, v, d, width, __KJIT_SITE, tile);
}
template <class T>
__device__ inline T shfl_down(lane_mask m, T v, unsigned int d, int width, bool tile = false) {
  return __kjit::shfl(m, 1, v, d, width, __KJIT_SITE, tile);
}
template <class T>
__device__ inline T shfl_xor(lane_mask m, T v, unsigned int x, int width, bool tile = false) {
  return __kjit::shfl(m, 2, v, x, width, __KJIT_SITE, tile);
}
__device__ inline lane_mask active() {
  return __activemask();
}
#elif defined(__KJIT_CUDA__)
__device__ inline void warp_sync(lane_mask m) {
  __syncwarp(m);
}
__device__ inline lane_mask ballot(lane_mask m, int p, bool = false) {
  return __ballot_sync(m, p);
}
template <class T>
__device__ inline T shfl(lane_mask m, T v, int src, int width, bool = false) {
  if constexpr (native_shuffle<T>::value) {
    return __shfl_sync(m, v, src, width);
  } else {
    return shuffle_words(v, [=](unsigned int w) { return __shfl_sync(m, w, src, width); });
  }
}
template <class T>
__device__ inline T shfl_up(lane_mask m, T v, unsigned int d, int width, bool = false) {
  if constexpr (native_shuffle<T>::value) {
    return __shfl_up_sync(m, v, d, width);
  } else {
    return shuffle_words(v, [=](unsigned int w) { return __shfl_up_sync(m, w, d, width); });
  }
}
template <class T>
__device__ inline T shfl_down(lane_mask m, T v, unsigned int d, int width, bool = false) {
  if constexpr (native_shuffle<T>::value) {
    return __shfl_down_sync(m, v, d, width);
  } else {
    return shuffle_words(v, [=](unsigned int w) { return __shfl_down_sync(m, w, d, width); });
  }
}
template <class T>
__device__ inline T shfl_xor(lane_mask m, T v, unsigned int x, int width, bool = false) {
  if constexpr (native_shuffle<T>::value) {
    return __shfl_xor_sync(m, v, x, width);
  } else {
    return shuffle_words(v, [=](unsigned int w) { return __shfl_xor_sync(m, w, x, width); });
  }
}
__device__ inline lane_mask active() {
  return __activemask();
}
#elif defined(__KJIT_HIP__)
// ROCm 5's HIP has no _sync forms: a wavefront runs in lockstep.
__device__ inline void warp_sync(lane_mask) {
  __builtin_amdgcn_fence(__ATOMIC_RELEASE, "wavefront");
  __builtin_amdgcn_wave_barrier();
  __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "wavefront");
}
__device__ inline lane_mask ballot(lane_mask m, int p, bool = false) {
  return __ballot(p) & m;
}
template <class T>
__device__ inline T shfl(lane_mask, T v, int src, int width, bool = false) {
  if constexpr (native_shuffle<T>::value) {
    return __shfl(v, src, width);
  } else {
    return shuffle_words(v, [=](unsigned int w) { return __shfl(w, src, width); });
  }
}
template <class T>
__device__ inline T shfl_up(lane_mask, T v, unsigned int d, int width, bool = false) {
  if constexpr (native_shuffle<T>::value) {
    return __shfl_up(v, d, width);
  } else {
    return shuffle_words(v, [=](unsigned int w) { return __shfl_up(w, d, width); });
  }
}
template <class T>
__device__ inline T shfl_down(lane_mask, T v, unsigned int d, int width, bool = false) {
  if constexpr (native_shuffle<T>::value) {
    return __shfl_down(v, d, width);
  } else {
    return shuffle_words(v, [=](unsigned int w) { return __shfl_down(w, d, width); });
  }
}
template <class T>
__device__ inline T shfl_xor(lane_mask, T v, unsigned int x, int width, bool = false) {
  if constexpr (native_shuffle<T>::value) {
    return __shfl_xor(v, x, width);
  } else {
    return shuffle_words(v, [=](unsigned int w) { return __shfl_xor(w, x, width); });
  }
}
__device__ inline lane_mask active() {
  return __ballot(1);
}
#endif

__device__ inline unsigned int popcount(lane_mask m) {
#if defined(__KJIT_HIP__)
  return __popcll(m);
#else
  return __popc(m);
#endif
}

}  // namespace __kjit_cg

/// The threads of the running block.
class thread_block {
 public:
  __device__ void sync() const { __syncthreads(); }
  __device__ unsigned long long num_threads() const { return __kjit_cg::block_size(); }
  __device__ unsigned int size() const { return __kjit_cg::block_size(); }
  __device__ unsigned int thread_rank() const { return __kjit_cg::block_rank(); }
  __device__ dim3 group_index() const { return dim3(blockIdx.x, blockIdx.y, blockIdx.z); }
  __device__ dim3 thread_index() const { return dim3(threadIdx.x, threadIdx.y, threadIdx.z); }
  __device__ dim3 group_dim() const { return dim3(blockDim.x, blockDim.y, blockDim.z); }
  __device__ dim3 dim_threads() const { return group_dim(); }
  __device__ bool is_valid() const { return true; }
};

__device__ inline thread_block this_thread_block() {
  return thread_block();
}

/// The scratch of tiles larger than a warp (CUDA 11.1's multi-warp tiles): kjit's tiles stop at a
/// warp, so declaring one is a compile error that names the feature.
template <unsigned int MaxBlockSize = 1024>
struct block_tile_memory {
  static_assert(MaxBlockSize != MaxBlockSize,
                "multi-warp tiles (cooperative_groups::block_tile_memory, tiled_partition<N> for "
                "N > 32) are not supported by kjit's cooperative groups on any backend");
};

template <unsigned int MaxBlockSize>
__device__ inline thread_block this_thread_block(block_tile_memory<MaxBlockSize>&) {
  return thread_block();
}

/// Every thread of the launch.
class grid_group {
 public:
  __device__ unsigned long long num_blocks() const {
    return static_cast<unsigned long long>(gridDim.x) * gridDim.y * gridDim.z;
  }
  __device__ unsigned long long block_rank() const {
    return blockIdx.x + static_cast<unsigned long long>(gridDim.x) *
                            (blockIdx.y + static_cast<unsigned long long>(gridDim.y) * blockIdx.z);
  }
  __device__ unsigned long long num_threads() const {
    return num_blocks() * __kjit_cg::block_size();
  }
  __device__ unsigned long long size() const { return num_threads(); }
  __device__ unsigned long long thread_rank() const {
    return block_rank() * __kjit_cg::block_size() + __kjit_cg::block_rank();
  }
  __device__ dim3 group_dim() const { return dim3(gridDim.x, gridDim.y, gridDim.z); }
  __device__ dim3 dim_blocks() const { return group_dim(); }
  __device__ dim3 block_index() const { return dim3(blockIdx.x, blockIdx.y, blockIdx.z); }
  /// False: a grid-wide barrier needs a cooperative launch, which kjit does not make.
  __device__ bool is_valid() const { return false; }
  template <class T = void>
  __device__ void sync() const {
    static_assert(__kjit_cg::dependent_false<T>::value,
                  "cooperative_groups::grid_group::sync() needs a cooperative launch, which kjit "
                  "does not support on any backend");
  }
};

__device__ inline grid_group this_grid() {
  return grid_group();
}

template <unsigned int Size, class ParentT = void>
class thread_block_tile;

/// A tile of Size consecutive threads of a block (a power of two, at most a warp).
template <unsigned int Size>
class thread_block_tile<Size, void> {
  static_assert(Size >= 1 && Size <= 32 && (Size & (Size - 1)) == 0,
                "a thread_block_tile's size must be a power of two from 1 to 32 (multi-warp "
                "tiles are not supported by kjit's cooperative groups on any backend)");

 public:
  __device__ thread_block_tile(unsigned int meta_rank, unsigned int meta_size)
      : meta_rank_(meta_rank), meta_size_(meta_size) {}

  __device__ static constexpr unsigned long long num_threads() { return Size; }
  __device__ static constexpr unsigned int size() { return Size; }
  __device__ unsigned int thread_rank() const { return __kjit_cg::block_rank() & (Size - 1); }
  __device__ unsigned int meta_group_rank() const { return meta_rank_; }
  __device__ unsigned int meta_group_size() const { return meta_size_; }
  __device__ bool is_valid() const { return true; }

  __device__ void sync() const { __kjit_cg::warp_sync(mask()); }
  template <class T>
  __device__ T shfl(T value, int source) const {
    return __kjit_cg::shfl(mask(), value, source, Size, true);
  }
  template <class T>
  __device__ T shfl_up(T value, unsigned int delta) const {
    return __kjit_cg::shfl_up(mask(), value, delta, Size, true);
  }
  template <class T>
  __device__ T shfl_down(T value, unsigned int delta) const {
    return __kjit_cg::shfl_down(mask(), value, delta, Size, true);
  }
  template <class T>
  __device__ T shfl_xor(T value, unsigned int lanes) const {
    return __kjit_cg::shfl_xor(mask(), value, lanes, Size, true);
  }
  __device__ unsigned int ballot(int predicate) const {
    return static_cast<unsigned int>(__kjit_cg::ballot(mask(), predicate, true) >> first_lane());
  }
  __device__ int any(int predicate) const {
    return __kjit_cg::ballot(mask(), predicate, true) != 0;
  }
  __device__ int all(int predicate) const {
    return __kjit_cg::ballot(mask(), predicate, true) == mask();
  }
  template <class T>
  __device__ unsigned int match_any(T value) const {
    unsigned int same = 0;
    for (unsigned int i = 0; i < Size; ++i) {
      same |= static_cast<unsigned int>(shfl(value, static_cast<int>(i)) == value) << i;
    }
    return same;
  }
  template <class T>
  __device__ unsigned int match_all(T value, int& predicate) const {
    const bool same = all(shfl(value, 0) == value);
    predicate = same;
    return same ? static_cast<unsigned int>(mask() >> first_lane()) : 0u;
  }

 private:
  __device__ static __kjit_cg::lane_mask mask() { return __kjit_cg::tile_mask(Size); }
  __device__ static unsigned int first_lane() { return __kjit_cg::lane() & ~(Size - 1); }

  unsigned int meta_rank_;
  unsigned int meta_size_;
};

/// A tile made from a known parent (tiled_partition's result); converts to the plain tile.
template <unsigned int Size, class ParentT>
class thread_block_tile : public thread_block_tile<Size, void> {
 public:
  __device__ thread_block_tile(unsigned int meta_rank, unsigned int meta_size)
      : thread_block_tile<Size, void>(meta_rank, meta_size) {}
};

template <unsigned int Size>
__device__ inline thread_block_tile<Size, thread_block> tiled_partition(const thread_block&) {
  return thread_block_tile<Size, thread_block>(__kjit_cg::block_rank() / Size,
                                               (__kjit_cg::block_size() + Size - 1) / Size);
}

template <unsigned int Size, unsigned int ParentSize, class ParentT>
__device__ inline thread_block_tile<Size, thread_block_tile<ParentSize, ParentT>> tiled_partition(
    const thread_block_tile<ParentSize, ParentT>& parent) {
  static_assert(Size <= ParentSize, "a tile's tiles cannot be larger than the tile");
  return thread_block_tile<Size, thread_block_tile<ParentSize, ParentT>>(
      parent.thread_rank() / Size, ParentSize / Size);
}

/// Any group, known at run time: a block, or a tile of one (tiled_partition(parent, n)).
class thread_group {
 public:
  __device__ thread_group(const thread_block&) : size_(__kjit_cg::block_size()), tile_(false) {}
  template <unsigned int Size, class ParentT>
  __device__ thread_group(const thread_block_tile<Size, ParentT>&) : size_(Size), tile_(true) {}
  __device__ thread_group(unsigned int size, bool tile) : size_(size), tile_(tile) {}

  __device__ unsigned long long num_threads() const { return size_; }
  __device__ unsigned int size() const { return size_; }
  __device__ unsigned int thread_rank() const {
    return tile_ ? __kjit_cg::block_rank() & (size_ - 1) : __kjit_cg::block_rank();
  }
  __device__ bool is_valid() const { return true; }
  __device__ void sync() const {
    if (tile_) {
      __kjit_cg::warp_sync(__kjit_cg::tile_mask(size_));
      return;
    }
    __syncthreads();
  }

 private:
  unsigned int size_;
  bool tile_;
};

/// Tiles of n threads, n a power of two up to a warp.
__device__ inline thread_group tiled_partition(const thread_block& parent, unsigned int n) {
  return n >= parent.size() ? thread_group(parent) : thread_group(n, true);
}

__device__ inline void sync(const thread_block& group) {
  group.sync();
}
template <unsigned int Size, class ParentT>
__device__ inline void sync(const thread_block_tile<Size, ParentT>& group) {
  group.sync();
}
__device__ inline void sync(const thread_group& group) {
  group.sync();
}
template <class Group>
__device__ inline unsigned long long thread_rank(const Group& group) {
  return group.thread_rank();
}
template <class Group>
__device__ inline unsigned long long group_size(const Group& group) {
  return group.num_threads();
}

namespace __kjit_cg {

/// The lane of the thread of rank `rank` among `lanes` (lanes counted from the lowest).
__device__ inline unsigned int lane_of_rank(lane_mask lanes, unsigned int rank) {
  for (unsigned int l = 0; l < __KJIT_CG_LANES; ++l) {
    if (((lanes >> l) & 1) != 0 && rank-- == 0) {
      return l;
    }
  }
  return lane();
}

/// `bits`, one per lane, as one per rank among `lanes`.
__device__ inline lane_mask by_rank(lane_mask lanes, lane_mask bits) {
  lane_mask out = 0;
  unsigned int rank = 0;
  for (unsigned int l = 0; l < __KJIT_CG_LANES; ++l) {
    if (((lanes >> l) & 1) != 0) {
      out |= ((bits >> l) & 1) << rank++;
    }
  }
  return out;
}

}  // namespace __kjit_cg

/// The threads of the warp that are running this code together (coalesced_threads()), or a part
/// of a group (binary_partition, labeled_partition). Ranks count its threads from the lowest
/// lane; shuffles name their source by rank.
class coalesced_group {
 public:
  __device__ explicit coalesced_group(__kjit_cg::lane_mask lanes) : lanes_(lanes) {}
  __device__ unsigned long long num_threads() const { return __kjit_cg::popcount(lanes_); }
  __device__ unsigned int size() const { return __kjit_cg::popcount(lanes_); }
  __device__ unsigned int thread_rank() const {
    const __kjit_cg::lane_mask below = (__kjit_cg::lane_mask(1) << __kjit_cg::lane()) - 1;
    return __kjit_cg::popcount(lanes_ & below);
  }
  __device__ unsigned int meta_group_rank() const { return 0; }
  __device__ unsigned int meta_group_size() const { return 1; }
  __device__ void sync() const { __kjit_cg::warp_sync(lanes_); }
  /// Bit r for the thread of rank r.
  __device__ __kjit_cg::lane_mask ballot(int predicate) const {
    return __kjit_cg::by_rank(lanes_, __kjit_cg::ballot(lanes_, predicate));
  }
  __device__ int any(int predicate) const { return __kjit_cg::ballot(lanes_, predicate) != 0; }
  __device__ int all(int predicate) const { return __kjit_cg::ballot(lanes_, predicate) == lanes_; }
  template <class T>
  __device__ T shfl(T value, unsigned int rank) const {
    return __kjit_cg::shfl(lanes_, value, static_cast<int>(__kjit_cg::lane_of_rank(lanes_, rank)),
                           __KJIT_CG_LANES);
  }
  /// The value of the thread `delta` ranks up; a thread with none keeps its own.
  template <class T>
  __device__ T shfl_down(T value, unsigned int delta) const {
    const unsigned int rank = thread_rank() + delta;
    return shfl(value, rank < size() ? rank : thread_rank());
  }
  template <class T>
  __device__ T shfl_up(T value, unsigned int delta) const {
    const unsigned int rank = thread_rank();
    return shfl(value, rank >= delta ? rank - delta : rank);
  }
  /// The lanes of the group's threads in the warp, as the warp intrinsics take a mask.
  __device__ __kjit_cg::lane_mask __kjit_lanes() const { return lanes_; }

 private:
  __kjit_cg::lane_mask lanes_;
};

__device__ inline coalesced_group coalesced_threads() {
  return coalesced_group(__kjit_cg::active());
}

/// The threads of `group` whose predicate is the same as this thread's.
__device__ inline coalesced_group binary_partition(const coalesced_group& group, bool predicate) {
  const __kjit_cg::lane_mask lanes = group.__kjit_lanes();
  const __kjit_cg::lane_mask yes = __kjit_cg::ballot(lanes, predicate);
  return coalesced_group(predicate ? yes : lanes & ~yes);
}
template <unsigned int Size, class ParentT>
__device__ inline coalesced_group binary_partition(const thread_block_tile<Size, ParentT>&,
                                                   bool predicate) {
  return binary_partition(coalesced_group(__kjit_cg::tile_mask(Size)), predicate);
}

/// The threads of `group` whose label is the same as this thread's.
template <class Label>
__device__ inline coalesced_group labeled_partition(const coalesced_group& group, Label label) {
  const __kjit_cg::lane_mask lanes = group.__kjit_lanes();
  __kjit_cg::lane_mask same = 0;
  for (unsigned int rank = 0; rank < group.size(); ++rank) {
    if (group.shfl(label, rank) == label) {
      same |= __kjit_cg::lane_mask(1) << __kjit_cg::lane_of_rank(lanes, rank);
    }
  }
  return coalesced_group(same);
}
template <unsigned int Size, class ParentT, class Label>
__device__ inline coalesced_group labeled_partition(const thread_block_tile<Size, ParentT>&,
                                                    Label label) {
  return labeled_partition(coalesced_group(__kjit_cg::tile_mask(Size)), label);
}

}  // namespace cooperative_groups

#endif  // !__KJIT_HIP_COOPERATIVE_GROUPS

#endif
