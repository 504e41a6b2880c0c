// Warp-level intrinsics on random data and random masks (tests/api/warp_test.cpp). In each
// kernel every warp takes its mask from `masks`; a lane outside it writes a marker and exits, as
// lanes that take no part in a warp operation do.

#define KJIT_MARKER 0x5eed

__device__ unsigned block_rank() {
  return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
}

// A thread's index in the launch, and its warp's: warps are numbered per block, whole or not.
__device__ unsigned thread_index() {
  return blockIdx.x * (blockDim.x * blockDim.y * blockDim.z) + block_rank();
}
__device__ unsigned warp_index() {
  const unsigned warps = (blockDim.x * blockDim.y * blockDim.z + 31) / 32;
  return blockIdx.x * warps + block_rank() / 32;
}

// mode: 0 __shfl_sync, 1 __shfl_up_sync, 2 __shfl_down_sync, 3 __shfl_xor_sync; `arg` per lane.
template <class T>
__global__ void shuffle(const T* in, const int* arg, const unsigned* masks, int mode, int width,
                        T* out) {
  const unsigned t = thread_index();
  const unsigned mask = masks[warp_index()];
  if ((mask >> (block_rank() % 32) & 1u) == 0) {
    out[t] = T(KJIT_MARKER);
    return;
  }
  const T v = in[t];
  const int a = arg[t];
  switch (mode) {
    case 0:
      out[t] = __shfl_sync(mask, v, a, width);
      break;
    case 1:
      out[t] = __shfl_up_sync(mask, v, (unsigned)a, width);
      break;
    case 2:
      out[t] = __shfl_down_sync(mask, v, (unsigned)a, width);
      break;
    default:
      out[t] = __shfl_xor_sync(mask, v, a, width);
      break;
  }
}
template __global__ void shuffle<int>(const int*, const int*, const unsigned*, int, int, int*);
template __global__ void shuffle<float>(const float*, const int*, const unsigned*, int, int,
                                        float*);
template __global__ void shuffle<long long>(const long long*, const int*, const unsigned*, int, int,
                                            long long*);
template __global__ void shuffle<double>(const double*, const int*, const unsigned*, int, int,
                                         double*);

// Per thread: ballot, any, all, activemask, warpSize.
__global__ void votes(const int* predicate, const unsigned* masks, unsigned* out) {
  const unsigned t = thread_index();
  const unsigned mask = masks[warp_index()];
  unsigned* o = out + 5 * t;
  if ((mask >> (block_rank() % 32) & 1u) == 0) {
    for (int k = 0; k < 5; ++k) {
      o[k] = KJIT_MARKER;
    }
    return;
  }
  const int p = predicate[t];
  o[0] = __ballot_sync(mask, p);
  o[1] = __any_sync(mask, p);
  o[2] = __all_sync(mask, p);
  o[3] = __activemask();
  o[4] = warpSize;
}

// Per thread: __match_any_sync, __match_all_sync and its predicate.
template <class T>
__global__ void matches(const T* in, const unsigned* masks, unsigned* out) {
  const unsigned t = thread_index();
  const unsigned mask = masks[warp_index()];
  unsigned* o = out + 3 * t;
  if ((mask >> (block_rank() % 32) & 1u) == 0) {
    o[0] = o[1] = o[2] = KJIT_MARKER;
    return;
  }
  o[0] = __match_any_sync(mask, in[t]);
  int all = -1;
  o[1] = __match_all_sync(mask, in[t], &all);
  o[2] = (unsigned)all;
}
template __global__ void matches<unsigned>(const unsigned*, const unsigned*, unsigned*);
template __global__ void matches<unsigned long long>(const unsigned long long*, const unsigned*,
                                                     unsigned*);

// Per thread: __reduce_{add,min,max}_sync on unsigned and int, __reduce_{and,or,xor}_sync.
__global__ void reductions(const unsigned* u, const int* s, const unsigned* masks, unsigned* out) {
  const unsigned t = thread_index();
  const unsigned mask = masks[warp_index()];
  unsigned* o = out + 9 * t;
  if ((mask >> (block_rank() % 32) & 1u) == 0) {
    for (int k = 0; k < 9; ++k) {
      o[k] = KJIT_MARKER;
    }
    return;
  }
  o[0] = __reduce_add_sync(mask, u[t]);
  o[1] = __reduce_min_sync(mask, u[t]);
  o[2] = __reduce_max_sync(mask, u[t]);
  o[3] = (unsigned)__reduce_add_sync(mask, s[t]);
  o[4] = (unsigned)__reduce_min_sync(mask, s[t]);
  o[5] = (unsigned)__reduce_max_sync(mask, s[t]);
  o[6] = __reduce_and_sync(mask, u[t]);
  o[7] = __reduce_or_sync(mask, u[t]);
  o[8] = __reduce_xor_sync(mask, u[t]);
}

// Lanes exchange through shared memory, ordered by __syncwarp() alone.
__global__ void syncwarp_exchange(const int* in, int* out) {
  __shared__ int s[256];
  const unsigned r = threadIdx.x;
  const unsigned t = blockIdx.x * blockDim.x + r;
  s[r] = in[t];
  __syncwarp();
  const int neighbour = s[r ^ 1u];
  __syncwarp();
  s[r] = neighbour * 3 + (int)r;
  __syncwarp();
  out[t] = s[(r & ~31u) | ((r + 5) & 31u)];
}

// The first warp sums its values while the others wait at a barrier: none may pass it before
// the first warp has written the total.
__global__ void warp_then_barrier(const int* in, int* out) {
  __shared__ int total;
  const unsigned r = threadIdx.x;
  const unsigned t = blockIdx.x * blockDim.x + r;
  if (r == 0) {
    total = -1;
  }
  __syncthreads();
  if (r < 32) {
    int v = in[t];
    for (int offset = 16; offset > 0; offset /= 2) {
      v += __shfl_down_sync(0xffffffffu, v, offset);
    }
    if (r == 0) {
      total = v;
    }
  }
  __syncthreads();
  out[t] = total;
}

// Threads outside [first, end), and those of warps whose number in the block is not a multiple
// of `every`, leave at once; the others (whole warps) shuffle their warp's values down, scaled by
// a value the same in every thread and kept across the meetings. On the CPU the live threads run
// alone (first > 0: the scale is kept in the first live thread's slot) when they are consecutive.
__global__ void live_warps(const int* in, int* out, unsigned first, unsigned end, unsigned every) {
  const unsigned r = threadIdx.x;
  const unsigned t = blockIdx.x * blockDim.x + r;
  const int scale = in[blockIdx.x * blockDim.x] % 7 + 2;
  if (r < first || r >= end || r / 32 % every != 0) {
    out[t] = -1;
    return;
  }
  int v = in[t];
  for (int offset = 16; offset > 0; offset /= 2) {
    v += __shfl_down_sync(0xffffffffu, v, offset);
  }
  out[t] = v * scale;
}

// A ballot in a grid-stride loop that every lane of a warp runs as often: how many values are
// positive.
__global__ void count_positive(const int* in, unsigned* count, int n) {
  const int lane = (int)(threadIdx.x % 32);
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i - lane < n; i += blockDim.x * gridDim.x) {
    const unsigned votes = __ballot_sync(0xffffffffu, i < n && in[i] > 0);
    if (lane == 0) {
      atomicAdd(count, (unsigned)__popc(votes));
    }
  }
}

// The warp-synchronous tail of pre-Volta reductions: `volatile` shared memory and no
// synchronisation, counting on the lanes of a warp running in lockstep.
__device__ void legacy_warp_reduce(volatile int* s, unsigned r) {
  s[r] += s[r + 32];
  s[r] += s[r + 16];
  s[r] += s[r + 8];
  s[r] += s[r + 4];
  s[r] += s[r + 2];
  s[r] += s[r + 1];
}

__global__ void legacy_block_sum(const int* in, int* out) {
  __shared__ int s[128];
  const unsigned r = threadIdx.x;
  s[r] = in[blockIdx.x * 256 + r] + in[blockIdx.x * 256 + 128 + r];
  __syncthreads();
  if (r < 64) {
    s[r] += s[r + 64];
  }
  __syncthreads();
  if (r < 32) {
    legacy_warp_reduce(s, r);
  }
  if (r == 0) {
    out[blockIdx.x] = s[0];
  }
}
