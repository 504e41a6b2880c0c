// Cooperative groups at block and grid level: a block sum through a thread_group, memcpy_async,
// and the grid's ranks (tests/api/cooperative_groups_test.cpp).
#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>
namespace cg = cooperative_groups;

__device__ float tree_sum(cg::thread_group g, float* s) {
  for (unsigned stride = g.size() / 2; stride > 0; stride /= 2) {
    if (g.thread_rank() < stride) s[g.thread_rank()] += s[g.thread_rank() + stride];
    g.sync();
  }
  return s[0];
}

__global__ void block_sum(const float* in, float* out, unsigned long long* grid_info) {
  cg::thread_block block = cg::this_thread_block();
  extern __shared__ float s[];
  cg::memcpy_async(block, s, in + blockIdx.x * block.size(), block.size() * sizeof(float));
  cg::wait(block);
  const float sum = tree_sum(block, s);
  if (block.thread_rank() == 0) out[block.group_index().x] = sum;
  cg::grid_group grid = cg::this_grid();
  if (grid.thread_rank() == grid.size() - 1) {
    grid_info[0] = grid.size();
    grid_info[1] = grid.num_blocks();
    grid_info[2] = grid.block_rank();
    grid_info[3] = block.num_threads() + block.group_dim().x + block.thread_index().x;
    grid_info[4] = grid.is_valid();
  }
}
