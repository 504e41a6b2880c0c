// How the CPU backend cuts a launch's blocks into the chunks its workers take
// (cpu_block_chunks.hpp): whole rows of a 2-D grid where that leaves every worker a chunk.
#include "backends/cpu/run/cpu_block_chunks.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>

namespace {

using kjit::Dim3;
using kjit::cpu::block_chunk;
using kjit::cpu::kTurnBlocks;

std::uint64_t chunks_of(const Dim3& grid, std::uint64_t chunk) {
  return (grid.volume() + chunk - 1) / chunk;
}

TEST(CpuBlockChunks, SideBySideBlocksOfA2DGridStayOnOneWorker) {
  // wsm5's 32 x 16 columns in 8 x 8 blocks on two workers: before, each block was a chunk, so
  // blocks (0, 0) and (1, 0) ran on two workers and wrote the same cache lines.
  const Dim3 grid{4, 2, 1};
  const std::uint64_t chunk = block_chunk(grid, false, 2);
  EXPECT_EQ(chunk, 4U);
  EXPECT_EQ(chunks_of(grid, chunk), 2U);
}

TEST(CpuBlockChunks, RandomGridsGetWholeRowsAndWorkForEveryThread) {
  std::mt19937 rng(20261129);
  std::uniform_int_distribution<std::uint32_t> side(1, 300);
  std::uniform_int_distribution<std::uint32_t> depth(1, 4);
  std::uniform_int_distribution<std::uint64_t> pool(1, 64);
  for (int i = 0; i < 20000; ++i) {
    const Dim3 grid{side(rng), side(rng) % 3 == 0 ? 1U : side(rng), depth(rng)};
    const std::uint64_t threads = pool(rng);
    const bool yields = (i % 2) != 0;
    const std::uint64_t chunk = block_chunk(grid, yields, threads);
    const std::uint64_t rows = grid.volume() / grid.x;
    SCOPED_TRACE(::testing::Message() << "grid " << grid.x << " x " << grid.y << " x " << grid.z
                                      << ", " << threads << " threads, yields " << yields);
    ASSERT_GE(chunk, 1U);
    const bool in_rows = grid.x > 1 && rows >= threads;
    if (in_rows) {
      ASSERT_EQ(chunk % grid.x, 0U) << "a chunk ends inside a row of blocks";
    }
    // Up to kTurnBlocks a chunk for blocks that take turns, rounded up from an even share: a
    // thread may then be left without one (5 blocks a chunk of 252 on 60 threads).
    const std::uint64_t share = (grid.volume() + threads - 1) / threads;
    if (!yields) {
      ASSERT_GE(chunks_of(grid, chunk), std::min(grid.volume(), threads))
          << "a thread is left without a chunk";
    } else if (in_rows) {
      ASSERT_GT(chunk + grid.x, std::min(kTurnBlocks, share))
          << "blocks that take turns get fewer partners than a row allows";
    } else {
      ASSERT_GE(chunk, std::min(kTurnBlocks, share))
          << "blocks that take turns get too few partners in a chunk";
    }
  }
}

TEST(CpuBlockChunks, LargeGridsKeepAboutEightChunksPerThread) {
  // A 1-D grid and a 2-D grid of many rows: small chunks, so that a worker that finishes early
  // takes more (a Mandelbrot's dark rows).
  EXPECT_EQ(chunks_of(Dim3{4096, 1, 1}, block_chunk(Dim3{4096, 1, 1}, false, 16)), 128U);
  const Dim3 tall{16, 1024, 1};
  EXPECT_EQ(chunks_of(tall, block_chunk(tall, false, 16)), 128U);
}

}  // namespace
