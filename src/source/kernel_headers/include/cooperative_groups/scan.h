// kjit's <cooperative_groups/scan.h>: inclusive_scan and exclusive_scan over a thread_block_tile
// (plus by default, or any operator of <cooperative_groups/reduce.h>).
#ifndef __KJIT_COOPERATIVE_GROUPS_SCAN_H
#define __KJIT_COOPERATIVE_GROUPS_SCAN_H
#include <cooperative_groups/reduce.h>
#if !defined(__KJIT_HIP_COOPERATIVE_GROUPS)  // see <cooperative_groups.h>

namespace cooperative_groups {

/// op over the values of this thread and those before it in the tile.
template <unsigned int Size, class ParentT, class T, class Op>
__device__ T inclusive_scan(const thread_block_tile<Size, ParentT>& tile, T value,
                            Op op) {
  for (unsigned int delta = 1; delta < Size; delta *= 2) {
    const T before = tile.shfl_up(value, delta);
    if (tile.thread_rank() >= delta) {
      value = op(before, value);
    }
  }
  return value;
}
template <unsigned int Size, class ParentT, class T>
__device__ T inclusive_scan(const thread_block_tile<Size, ParentT>& tile, T value) {
  return inclusive_scan(tile, value, plus<T>());
}

/// op over the values of the threads before this one (T() for the first).
template <unsigned int Size, class ParentT, class T, class Op>
__device__ T exclusive_scan(const thread_block_tile<Size, ParentT>& tile, T value,
                            Op op) {
  const T inclusive = inclusive_scan(tile, value, op);
  const T before = tile.shfl_up(inclusive, 1);
  return tile.thread_rank() == 0 ? T() : before;
}
template <unsigned int Size, class ParentT, class T>
__device__ T exclusive_scan(const thread_block_tile<Size, ParentT>& tile, T value) {
  return exclusive_scan(tile, value, plus<T>());
}

}  // namespace cooperative_groups

#endif  // !__KJIT_HIP_COOPERATIVE_GROUPS

#endif
