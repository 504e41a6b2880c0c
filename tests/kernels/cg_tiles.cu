// Cooperative groups' tiles: reduce, scans, shuffles and votes over tiles of 8 and 32 threads
// (tests/api/cooperative_groups_test.cpp).
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>
namespace cg = cooperative_groups;

__global__ void tile_ops(const int* in, int* out) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  auto tile = cg::tiled_partition<8>(warp);
  const unsigned r = block.thread_rank();
  const int v = in[r];
  int* o = out + r * 8;
  o[0] = cg::reduce(tile, v, cg::plus<int>());
  o[1] = cg::reduce(warp, v, cg::greater<int>());
  o[2] = cg::inclusive_scan(tile, v);
  o[3] = cg::exclusive_scan(warp, v);
  o[4] = tile.shfl_down(v, 1);
  o[5] = (int)warp.ballot(v > 50);
  o[6] = tile.meta_group_rank() * 100 + tile.thread_rank();
  o[7] = warp.any(v == 7) + 2 * warp.all(v >= 0) + 4 * (int)warp.meta_group_size();
}
