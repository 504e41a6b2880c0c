#include "backends/cpu/run/cpu_block_chunks.hpp"

#include <algorithm>

namespace kjit::cpu {

std::uint64_t block_chunk(const Dim3& grid, bool yields, std::uint64_t threads) {
  threads = std::max<std::uint64_t>(1, threads);
  const std::uint64_t blocks = grid.volume();
  std::uint64_t chunk = std::max<std::uint64_t>(1, blocks / (threads * 8));
  if (yields) {
    chunk = std::max(chunk, std::min(kTurnBlocks, (blocks + threads - 1) / threads));
  }
  const std::uint64_t width = grid.x;
  if (width > 1 && blocks / width >= threads) {
    // Whole rows, no more blocks than before: as many chunks at least, and a row at least.
    chunk = std::max<std::uint64_t>(1, chunk / width) * width;
  }
  return chunk;
}

}  // namespace kjit::cpu
