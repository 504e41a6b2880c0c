// Runs a kernel's grid on the CPU: blocks are spread over the thread pool; each block runs its
// threads in a loop, or on fibers when the kernel synchronises (cpu_abi.h). Blocks of a kernel
// with loops in step take turns on their worker, an iteration each, so that they walk memory
// together as a GPU's resident blocks do. A kernel with a range entry (a grid-stride loop, one
// element per thread) runs a 1-D launch instead as one range of the grid's threads per worker,
// and a 2-D launch as rows of threads, a stretch of rows per worker (cpu_thread_ranges.hpp).
#pragma once

#include "backends/cpu/prelude/cpu_abi.h"
#include "backends/cpu/run/cpu_fibers.hpp"
#include "support/thread_pool.hpp"

#include <kjit/types.hpp>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>

namespace kjit::cpu {

class LinkedObject;
class LaunchFailure;

using BlockEntry = void (*)(void* const* args, kjit_cpu_block* block);
/// Threads [first, end) of row y of a launch; KJIT_CPU_RANGE_DECLINED when it declined to run
/// them, else how it runs them; with `run` clear, how it would (cpu_abi.h).
using RangeEntry = unsigned (*)(void* const* args, const kjit_cpu_block* block, std::uint64_t first,
                                std::uint64_t end, unsigned y, unsigned run);

/// How long a kernel's launches of one grid size took, spread over the pool and on the calling
/// thread alone, in ticks of a cheap clock (the time-stamp counter on x86): a small launch (an
/// empty launch of 4 blocks per core, a pipeline of tiny kernels) is done sooner by the calling
/// thread than by waking workers. Kept with the kernel; every launch of several blocks measures
/// itself, and now and then the way not taken is tried again.
struct LaunchHistory {
  std::atomic<std::uint64_t> blocks{0};  // the grid size the times below are for
  std::atomic<std::uint64_t> pool{0};    // the last launch spread over the pool; 0: none yet
  std::atomic<std::uint64_t> alone{0};   // the last launch on the calling thread; 0: none yet
  std::atomic<std::uint32_t> launches{0};
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
  bool flush_denormals = false;              // run with denormals flushed to zero (fast math)
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
  /// `pin`: each worker thread bound to a core of its own (ThreadPool). Installs kjit's fault
  /// handlers (cpu_fault_signals.hpp).
  CpuExecutor(unsigned threads, bool pin);
  [[nodiscard]] unsigned threads() const noexcept { return pool_.threads(); }
  /// Runs every block of the launch; returns when all have finished. When kernel code stops the
  /// launch (a failed assert, a fault), no further block starts and this throws LaunchError;
  /// after a fault every later launch throws too, saying why.
  void run(const CpuLaunch& launch);
  /// Throws LaunchError when an earlier kernel faulted.
  void check_usable(const std::string& kernel) const;
  /// The fault that made the device unusable, or empty.
  [[nodiscard]] std::string unusable_reason() const;

 private:
  /// run() with `threads` taking part (1: the caller alone).
  void run_blocks(const CpuLaunch& launch, std::uint64_t threads);
  /// Throws what stopped the launch, if anything did; a fault breaks the device.
  void finish(const LaunchFailure& failure, const CpuLaunch& launch);

  detail::ThreadPool pool_;
  std::atomic<bool> broken_flag_{false};
  mutable std::mutex broken_mutex_;
  std::string broken_;  // the fault that broke the device
};

}  // namespace kjit::cpu
