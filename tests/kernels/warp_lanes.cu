// Warp shuffles that every lane of a block reaches together, with full masks (tests/api/
// warp_lanes_test.cpp): the CPU backend runs them with a warp's lanes as the lanes of vectors,
// or, with KJIT_CPU_WARPS=meetings, through memory; both must give what CUDA defines.

#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>

__device__ unsigned lane_rank() {
  return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
}

__device__ unsigned thread_index() {
  return blockIdx.x * (blockDim.x * blockDim.y * blockDim.z) + lane_rank();
}

// mode: 0 __shfl_sync, 1 __shfl_up_sync, 2 __shfl_down_sync, 3 __shfl_xor_sync; `arg` per lane.
template <class T>
__global__ void shuffle_full(const T* in, const int* arg, int mode, int width, T* out) {
  const unsigned t = thread_index();
  const T v = in[t];
  const int a = arg[t];
  T r;
  if (mode == 0) {
    r = __shfl_sync(0xffffffffu, v, a, width);
  } else if (mode == 1) {
    r = __shfl_up_sync(0xffffffffu, v, static_cast<unsigned>(a), width);
  } else if (mode == 2) {
    r = __shfl_down_sync(0xffffffffu, v, static_cast<unsigned>(a), width);
  } else {
    r = __shfl_xor_sync(0xffffffffu, v, a, width);
  }
  out[t] = r;
}

// Each warp's sum by five __shfl_down_sync, then by five __shfl_xor_sync of another value, after
// a loop whose trip count differs between threads (they run it apart, then come together for the
// shuffles); lane 0 writes the first, every lane the second.
template <class T>
__global__ void warp_sums(const T* in, int per_thread, T* firsts, T* all) {
  const unsigned t = thread_index();
  T acc = 0;
  for (int i = 0; i < per_thread - static_cast<int>(t % 3); ++i) {
    acc += in[t * per_thread + i];
  }
  T other = in[t * per_thread] * T(3);
  for (int offset = 16; offset > 0; offset /= 2) {
    acc += __shfl_down_sync(0xffffffffu, acc, offset);
  }
  for (int offset = 1; offset < 32; offset *= 2) {
    other += __shfl_xor_sync(0xffffffffu, other, offset);
  }
  if (lane_rank() % 32 == 0) {
    firsts[t / 32] = acc;
  }
  all[t] = other;
}

// Each warp's sum by shuffles; its lane 0 then claims the warp's slot (atomicCAS) and adds the
// sum to a total (atomicAdd): atomics after shuffles in step.
__global__ void warp_claims(const int* in, int* slots, int* total) {
  const unsigned t = thread_index();
  int v = in[t];
  for (int offset = 16; offset > 0; offset /= 2) {
    v += __shfl_down_sync(0xffffffffu, v, offset);
  }
  if (lane_rank() % 32 == 0) {
    const int old = atomicCAS(&slots[t / 32], 0, v + 1);
    atomicAdd(total, old == 0 ? v : -1000000);
  }
}

// Sums over segments of W lanes: for W = 1 the loop of shuffles never runs.
template <int W>
__global__ void segment_sums(const int* in, int* out) {
  const unsigned t = thread_index();
  int v = in[t];
  for (int offset = W / 2; offset > 0; offset /= 2) {
    v += __shfl_xor_sync(0xffffffffu, v, offset, W);
  }
  out[t] = v;
}

// Votes with full masks on each lane's predicate in[t] > 0: __ballot_sync, __any_sync,
// __all_sync and __uni_sync, four results per thread.
__global__ void votes_full(const int* in, unsigned* out) {
  const unsigned t = thread_index();
  const int p = in[t] > 0;
  out[4 * t] = __ballot_sync(0xffffffffu, p);
  out[4 * t + 1] = static_cast<unsigned>(__any_sync(0xffffffffu, p));
  out[4 * t + 2] = static_cast<unsigned>(__all_sync(0xffffffffu, p));
  out[4 * t + 3] = static_cast<unsigned>(__uni_sync(0xffffffffu, p));
}

// Every __reduce_*_sync with a full mask, nine results per thread: add, min, max, and, or, xor
// of the unsigned values, then add, min, max of the same bits as int.
__global__ void reductions_full(const unsigned* in, unsigned* out) {
  const unsigned t = thread_index();
  const unsigned v = in[t];
  const int s = static_cast<int>(v);
  out[9 * t] = __reduce_add_sync(0xffffffffu, v);
  out[9 * t + 1] = __reduce_min_sync(0xffffffffu, v);
  out[9 * t + 2] = __reduce_max_sync(0xffffffffu, v);
  out[9 * t + 3] = __reduce_and_sync(0xffffffffu, v);
  out[9 * t + 4] = __reduce_or_sync(0xffffffffu, v);
  out[9 * t + 5] = __reduce_xor_sync(0xffffffffu, v);
  out[9 * t + 6] = static_cast<unsigned>(__reduce_add_sync(0xffffffffu, s));
  out[9 * t + 7] = static_cast<unsigned>(__reduce_min_sync(0xffffffffu, s));
  out[9 * t + 8] = static_cast<unsigned>(__reduce_max_sync(0xffffffffu, s));
}

// Cooperative groups' tiles of 16 and 8 threads (a mask per tile, not a full one): per thread,
// cg::reduce's sum over its tile of 16, a shfl_down by 3 within its tile of 8, the tile of 16's
// ballot (bits by rank), any and all of in[t] > 0.
__global__ void tiles(const int* in, int* out) {
  namespace cg = cooperative_groups;
  const unsigned t = thread_index();
  const cg::thread_block block = cg::this_thread_block();
  const cg::thread_block_tile<16> sixteen = cg::tiled_partition<16>(block);
  const cg::thread_block_tile<8> eight = cg::tiled_partition<8>(block);
  const int v = in[t];
  out[5 * t] = cg::reduce(sixteen, v, cg::plus<int>());
  out[5 * t + 1] = eight.shfl_down(v, 3);
  out[5 * t + 2] = static_cast<int>(sixteen.ballot(v > 0));
  out[5 * t + 3] = sixteen.any(v > 0);
  out[5 * t + 4] = sixteen.all(v > 0);
}

// A block's sum as cuda-samples' reduce4 makes it (blocks of 256 threads): a tree in shared
// memory with a barrier per level down to 64 values, then the first warp's shuffles under
// `if (t < 32)`, to which the threads come from the loop of barriers.
__global__ void tree_then_warp(const float* in, float* out) {
  __shared__ float s[256];
  const unsigned t = threadIdx.x;
  float v = in[blockIdx.x * blockDim.x + t];
  s[t] = v;
  __syncthreads();
  for (unsigned stride = blockDim.x / 2; stride > 32; stride >>= 1) {
    if (t < stride) {
      s[t] = v = v + s[t + stride];
    }
    __syncthreads();
  }
  if (t < 32) {
    v += s[t + 32];
    for (int offset = 16; offset > 0; offset /= 2) {
      v += __shfl_down_sync(0xffffffffu, v, offset);
    }
  }
  if (t == 0) {
    out[blockIdx.x] = v;
  }
}
