#include "backends/cpu/cpu_executor.hpp"

#include "backends/cpu/cpu_memory.hpp"

#include <kjit/error.hpp>

#include <fmt/format.h>

#include <cstdlib>

namespace kjit::cpu {

namespace {

/// What each worker thread keeps between blocks: its shared memory and its fibers.
struct WorkerScratch {
  std::unique_ptr<char, void (*)(void*)> shared{nullptr, std::free};
  std::size_t shared_capacity = 0;
  std::unique_ptr<FiberBlockRunner> fibers;

  char* shared_memory(std::size_t bytes) {
    if (bytes > shared_capacity) {
      shared.reset(static_cast<char*>(allocate_aligned(bytes)));
      if (!shared) {
        shared_capacity = 0;
        throw BackendError(fmt::format("kjit: cannot allocate {} bytes of shared memory", bytes));
      }
      shared_capacity = align_up(bytes, kCacheLine);
    }
    return shared.get();
  }

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
    b.shared = launch.shared_bytes > 0 ? s.shared_memory(launch.shared_bytes) : nullptr;
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
