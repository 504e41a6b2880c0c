// Runs a kernel's grid on the CPU: blocks are spread over the thread pool; each block runs its
// threads in a loop, or on fibers when the kernel synchronises (cpu_abi.h). Blocks of a kernel
// with loops in step take turns on their worker, an iteration each, so that they walk memory
// together as a GPU's resident blocks do. A kernel with a range entry (a grid-stride loop, one
// element per thread) runs a 1-D launch instead as one range of the grid's threads per worker,
// and a 2-D launch as rows of threads, a stretch of rows per worker (cpu_thread_ranges.hpp).
#pragma once

#include "backends/cpu/cpu_fibers.hpp"
#include "backends/cpu/prelude/cpu_abi.h"
#include "jit/thread_pool.hpp"

#include <kjit/types.hpp>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

namespace kjit::cpu {

class LinkedObject;

using BlockEntry = void (*)(void* const* args, kjit_cpu_block* block);
/// Threads [first, end) of row y of a launch; KJIT_CPU_RANGE_DECLINED when it declined to run
/// them, else how it runs them; with `run` clear, how it would (cpu_abi.h).
using RangeEntry = unsigned (*)(void* const* args, const kjit_cpu_block* block, std::uint64_t first,
                                std::uint64_t end, unsigned y, unsigned run);

/// What a kernel's last measured launch cost, kept with the kernel: a launch whose blocks took
/// less time all told than waking a worker takes runs on the calling thread alone next time (an
/// empty launch of 4 blocks per core, a pipeline of tiny kernels), as long as the grid keeps its
/// size and its blocks stay that quick.
struct LaunchHistory {
  std::atomic<std::uint64_t> blocks{0};   // the grid's blocks in the last launch measured
  std::atomic<std::uint64_t> work_ns{0};  // the time its blocks ran, summed over the threads
};

/// Everything one launch needs, owned, since it runs after launch() has returned.
struct CpuLaunch {
  std::string kernel;                        // its name, for errors
  std::shared_ptr<const LinkedObject> code;  // keeps the kernel's code loaded
  BlockEntry block_entry = nullptr;          // kernels without barriers
  ThreadEntry thread_entry = nullptr;        // kernels with barriers
  RangeEntry range_entry = nullptr;          // ranges of threads, on 1-D and 2-D launches
  bool yields = false;                       // block_entry can take turns (cpu_abi.h)
  bool warp = false;                         // needs a warp area (kjit_cpu_block.warp)
  Dim3 grid;
  Dim3 block;
  std::size_t shared_bytes = 0;  // static + dynamic, per block
  std::size_t frame_bytes = 0;   // per block, for a kernel split at its barriers
  std::unique_ptr<std::byte, void (*)(void*)> arguments{nullptr, nullptr};
  std::unique_ptr<void*[]> argument_pointers;
  std::shared_ptr<LaunchHistory> history;  // the kernel's; none: always spread over the pool
};

class CpuExecutor {
 public:
  explicit CpuExecutor(unsigned threads) : pool_(threads) {}
  [[nodiscard]] unsigned threads() const noexcept { return pool_.threads(); }
  /// Runs every block of the launch; returns when all have finished. When kernel code stops the
  /// launch (a failed assert), no further block starts and this throws LaunchError.
  void run(const CpuLaunch& launch);

 private:
  /// run() with `threads` taking part (1: the caller alone); adds the blocks' time to `work_ns`.
  void run_blocks(const CpuLaunch& launch, std::uint64_t threads,
                  std::atomic<std::uint64_t>& work_ns);

  detail::ThreadPool pool_;
};

}  // namespace kjit::cpu
