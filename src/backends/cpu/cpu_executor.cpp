#include "backends/cpu/cpu_executor.hpp"

#include "backends/cpu/cpu_memory.hpp"

#include <kjit/error.hpp>

#include <fmt/format.h>

#include <cstdlib>

namespace kjit::cpu {

namespace {

/// Memory a worker reuses from block to block, grown on demand.
class ScratchMemory {
 public:
  explicit ScratchMemory(const char* what) : what_(what) {}

  char* get(std::size_t bytes) {
    if (bytes > capacity_) {
      memory_.reset(static_cast<char*>(allocate_aligned(bytes)));
      if (!memory_) {
        capacity_ = 0;
        throw BackendError(fmt::format("kjit: cannot allocate {} bytes of {}", bytes, what_));
      }
      capacity_ = align_up(bytes, kCacheLine);
    }
    return memory_.get();
  }

 private:
  const char* what_;
  std::unique_ptr<char, void (*)(void*)> memory_{nullptr, std::free};
  std::size_t capacity_ = 0;
};

/// What each worker thread keeps between blocks: its shared memory, the frame of a kernel split
/// at its barriers, and its fibers.
struct WorkerScratch {
  ScratchMemory shared{"shared memory"};
  ScratchMemory frame{"per-thread state for a block"};
  std::unique_ptr<FiberBlockRunner> fibers;

  FiberBlockRunner& fiber_runner() {
    if (!fibers) {
      fibers = std::make_unique<FiberBlockRunner>();
    }
    return *fibers;
  }
};

WorkerScratch& scratch() {
  thread_local WorkerScratch s;  // host code: ordinary TLS is fine here
  return s;
}

}  // namespace

void CpuExecutor::run(const CpuLaunch& launch) {
  const Dim3 grid = launch.grid;
  const std::uint64_t blocks = grid.volume();
  const std::uint64_t grain =
      std::max<std::uint64_t>(1, blocks / (std::uint64_t{pool_.threads()} * 8));
  void* const* args = launch.argument_pointers.get();
  pool_.run(blocks, grain, [&](std::uint64_t begin, std::uint64_t end) {
    WorkerScratch& s = scratch();
    kjit_cpu_block b{};
    b.block_dim[0] = launch.block.x;
    b.block_dim[1] = launch.block.y;
    b.block_dim[2] = launch.block.z;
    b.grid_dim[0] = grid.x;
    b.grid_dim[1] = grid.y;
    b.grid_dim[2] = grid.z;
    b.shared = launch.shared_bytes > 0 ? s.shared.get(launch.shared_bytes) : nullptr;
    b.frame = launch.frame_bytes > 0 ? s.frame.get(launch.frame_bytes) : nullptr;
    for (std::uint64_t id = begin; id < end; ++id) {
      b.block_idx[0] = static_cast<unsigned>(id % grid.x);
      b.block_idx[1] = static_cast<unsigned>((id / grid.x) % grid.y);
      b.block_idx[2] = static_cast<unsigned>(id / (std::uint64_t{grid.x} * grid.y));
      if (launch.block_entry != nullptr) {
        launch.block_entry(args, &b);
      } else {
        s.fiber_runner().run(launch.thread_entry, args, b);
      }
    }
  });
}

}  // namespace kjit::cpu
