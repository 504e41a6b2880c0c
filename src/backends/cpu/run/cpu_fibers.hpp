// Runs the threads of one block as cooperative fibers, for kernels that call __syncthreads() or
// warp-level operations and cannot be split at them (cpu_barrier_regions.hpp): each thread runs
// until it reaches a barrier (or ends), and no thread passes a barrier before every thread of the
// block has reached it. Barriers inside loops and branches work as in CUDA.
#pragma once

#include "backends/cpu/prelude/cpu_abi.h"

#include <cstddef>
#include <memory>
#include <vector>

namespace kjit::cpu {

using ThreadEntry = void (*)(void* const* args, const kjit_cpu_block* block, unsigned x, unsigned y,
                             unsigned z);

/// Fiber stacks, reused from block to block: one mapping, with a guard page below each stack so
/// that an overflow faults instead of corrupting a neighbour.
class FiberStacks {
 public:
  static constexpr std::size_t kStackBytes = std::size_t{256} * 1024;

  FiberStacks() = default;
  FiberStacks(const FiberStacks&) = delete;
  FiberStacks& operator=(const FiberStacks&) = delete;
  ~FiberStacks();

  /// Makes room for `count` stacks; throws BackendError when the memory cannot be mapped.
  void reserve(std::size_t count);
  /// The top (highest address) of stack i.
  [[nodiscard]] char* top(std::size_t i) const;

 private:
  char* base_ = nullptr;
  std::size_t count_ = 0;
  std::size_t mapped_ = 0;
};

/// One per worker thread.
class FiberBlockRunner {
 public:
  FiberBlockRunner();
  FiberBlockRunner(const FiberBlockRunner&) = delete;
  FiberBlockRunner& operator=(const FiberBlockRunner&) = delete;
  ~FiberBlockRunner();

  /// Runs every thread of `block` to completion. Sets block.barrier for the duration.
  void run(ThreadEntry entry, void* const* args, kjit_cpu_block& block);

  class State;  // the scheduler of the block being run (fiber records, current thread)

 private:
  FiberStacks stacks_;
  std::unique_ptr<State> state_;
};

}  // namespace kjit::cpu

/// __syncthreads() of JIT-compiled kernels: yields the calling fiber to its block's scheduler.
extern "C" void kjit_cpu_barrier_wait(const kjit_cpu_thread* thread);
/// Where the lanes of a warp meet (cpu_prelude_warp.h): yields as a barrier does, but goes on
/// before the threads at barriers, once no thread of the block can run but those at warps.
extern "C" void kjit_cpu_warp_wait(const kjit_cpu_thread* thread);
