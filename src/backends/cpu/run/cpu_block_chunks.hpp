// How many blocks of a launch a worker takes at a time (a chunk of consecutive block indices,
// x fastest): enough chunks that workers finishing early take more, and chunk edges where
// workers do not write each other's cache lines.
#pragma once

#include <kjit/types.hpp>

#include <cstdint>

namespace kjit::cpu {

/// At most this many blocks take turns on one worker: enough to walk whole pages of memory
/// together, few enough that their frames and shared memory stay in the core's caches.
inline constexpr std::uint64_t kTurnBlocks = 8;

/// The blocks per chunk of a launch of `grid` run block by block on `threads` threads. About 8
/// chunks per thread; a kernel whose blocks take turns (`yields`) gets up to kTurnBlocks in a
/// chunk, since its blocks take turns only within one. A grid with at least as many rows of
/// blocks as threads is cut at whole rows, as OpenMP's static schedule cuts a loop nest: blocks
/// side by side write the same cache lines of a row-major array (an 8 x 8 block of floats shares
/// every line with its neighbour), and two workers writing one line in turn ran wsm5's blocks 7
/// times slower than one worker running both.
std::uint64_t block_chunk(const Dim3& grid, bool yields, std::uint64_t threads);

}  // namespace kjit::cpu
