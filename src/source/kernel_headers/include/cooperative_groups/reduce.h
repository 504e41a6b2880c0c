// kjit's <cooperative_groups/reduce.h>: cooperative_groups::reduce over a thread_block_tile or a
// coalesced_group, with the operators plus, less (the smaller), greater (the larger), bit_and,
// bit_or and bit_xor. Every thread of the group gets the result.
#ifndef __KJIT_COOPERATIVE_GROUPS_REDUCE_H
#define __KJIT_COOPERATIVE_GROUPS_REDUCE_H
#include <cooperative_groups.h>
#if !defined(__KJIT_HIP_COOPERATIVE_GROUPS)  // see <cooperative_groups.h>

namespace cooperative_groups {

template <class T>
struct plus {
  __device__ T operator()(const T& a, const T& b) const { return a + b; }
};
template <class T>
struct less {
  __device__ T operator()(const T& a, const T& b) const { return b < a ? b : a; }
};
template <class T>
struct greater {
  __device__ T operator()(const T& a, const T& b) const { return a < b ? b : a; }
};
template <class T>
struct bit_and {
  __device__ T operator()(const T& a, const T& b) const { return a & b; }
};
template <class T>
struct bit_or {
  __device__ T operator()(const T& a, const T& b) const { return a | b; }
};
template <class T>
struct bit_xor {
  __device__ T operator()(const T& a, const T& b) const { return a ^ b; }
};

/// op over the value of every thread of the tile, returned to each (a butterfly of shuffles:
/// every thread combines the same values in the same order, so each gets the same result).
template <unsigned int Size, class ParentT, class T, class Op>
__device__ T reduce(const thread_block_tile<Size, ParentT>& tile, T value, Op op) {
  for (unsigned int lanes = Size / 2; lanes > 0; lanes /= 2) {
    const T other = tile.shfl_xor(value, lanes);
    value = (tile.thread_rank() & lanes) == 0 ? op(value, other) : op(other, value);
  }
  return value;
}

/// op over the value of every thread of a coalesced group, in rank order, returned to each. The
/// threads of every group of the warp shuffle as many times (as many as a warp has lanes), so
/// that groups of different sizes (binary_partition's two) stay in step.
template <class T, class Op>
__device__ T reduce(const coalesced_group& group, T value, Op op) {
  T result = group.shfl(value, 0);
  const unsigned int size = group.size();
  for (unsigned int rank = 1; rank < __KJIT_CG_LANES; ++rank) {
    const T other = group.shfl(value, rank < size ? rank : 0);
    if (rank < size) {
      result = op(result, other);
    }
  }
  return result;
}

}  // namespace cooperative_groups

#endif  // !__KJIT_HIP_COOPERATIVE_GROUPS

#endif
