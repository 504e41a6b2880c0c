#include "backends/cpu/run/cpu_executor.hpp"

#include "backends/cpu/check/cpu_fault_signals.hpp"
#include "backends/cpu/check/cpu_memory_check.hpp"
#include "backends/cpu/run/cpu_block_chunks.hpp"
#include "backends/cpu/run/cpu_launch_failure.hpp"
#include "backends/cpu/run/cpu_memory.hpp"

#include <kjit/error.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <csetjmp>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <optional>

#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#endif

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
/// at its barriers, where its warps meet, and its fibers.
struct WorkerScratch {
  ScratchMemory shared{"shared memory"};
  ScratchMemory frame{"per-thread state for a block"};
  ScratchMemory warp{"warp-level state for a block"};
  std::unique_ptr<FiberBlockRunner> fibers;

  FiberBlockRunner& fiber_runner() {
    if (!fibers) {
      fibers = std::make_unique<FiberBlockRunner>();
    }
    return *fibers;
  }
};

/// Denormals flushed to zero (and read as zero) on this thread while a kernel compiled with fast
/// math runs, as nvcc's --use_fast_math makes GPU code do; the thread's own mode comes back after.
/// Without it, a fast-math loop that meets denormals ran 2.7 times slower than OpenMP built with
/// -ffast-math, which sets the mode for the whole process. (x86 only: elsewhere no change.)
class DenormalsFlushed {
 public:
  explicit DenormalsFlushed(bool flush) {
#if defined(__x86_64__) || defined(__i386__)
    if (flush) {
      saved_ = _mm_getcsr();
      _mm_setcsr(*saved_ | kFlushToZero | kDenormalsAreZero);
    }
#else
    (void)flush;
#endif
  }
  DenormalsFlushed(const DenormalsFlushed&) = delete;
  DenormalsFlushed& operator=(const DenormalsFlushed&) = delete;
  ~DenormalsFlushed() {
#if defined(__x86_64__) || defined(__i386__)
    if (saved_) {
      _mm_setcsr(*saved_);
    }
#endif
  }

 private:
  static constexpr unsigned kFlushToZero = 0x8000;       // MXCSR.FTZ
  static constexpr unsigned kDenormalsAreZero = 0x0040;  // MXCSR.DAZ
  std::optional<unsigned> saved_;
};

WorkerScratch& scratch() {
  thread_local WorkerScratch s;  // host code: ordinary TLS is fine here
  return s;
}

kjit_cpu_block block_record(const CpuLaunch& launch) {
  kjit_cpu_block b{};
  b.block_dim[0] = launch.block.x;
  b.block_dim[1] = launch.block.y;
  b.block_dim[2] = launch.block.z;
  b.grid_dim[0] = launch.grid.x;
  b.grid_dim[1] = launch.grid.y;
  b.grid_dim[2] = launch.grid.z;
  return b;
}

/// The bytes of a block's warp area (cpu_abi.h): whole warps, and the tail.
std::size_t warp_area_bytes(const CpuLaunch& launch) {
  if (!launch.warp) {
    return 0;
  }
  return KJIT_CPU_WARP_HEAD_BYTES +
         align_up(launch.block.volume(), KJIT_CPU_WARP_LANES) * KJIT_CPU_WARP_AREA_BYTES +
         KJIT_CPU_WARP_TAIL_BYTES;
}

/// Starts block `id` in record `b`: its index, and no warp meeting held yet (round 0).
void set_block_index(kjit_cpu_block& b, std::uint64_t id) {
  if (b.grid_dim[1] == 1 && b.grid_dim[2] == 1) {  // a 1-D grid: no divisions
    b.block_idx[0] = static_cast<unsigned>(id);
    b.block_idx[1] = 0;
    b.block_idx[2] = 0;
  } else {
    b.block_idx[0] = static_cast<unsigned>(id % b.grid_dim[0]);
    b.block_idx[1] = static_cast<unsigned>((id / b.grid_dim[0]) % b.grid_dim[1]);
    b.block_idx[2] = static_cast<unsigned>(id / (std::uint64_t{b.grid_dim[0]} * b.grid_dim[1]));
  }
  if (b.warp != nullptr) {
    const std::size_t threads = std::size_t{b.block_dim[0]} * b.block_dim[1] * b.block_dim[2];
    std::memset(b.warp, 0,
                KJIT_CPU_WARP_HEAD_BYTES +
                    align_up(threads, KJIT_CPU_WARP_LANES) * KJIT_CPU_WARP_ZERO_BYTES);
  }
}

/// Calls a block entry; false when its kernel code stopped the launch (cpu_launch_failure.hpp).
/// Its own function, so that no caller's variable lives across the setjmp.
[[gnu::noinline]] bool enter(BlockEntry entry, void* const* args, kjit_cpu_block& block) {
  std::jmp_buf stopped;
  set_abort_target(&stopped);
  set_current_block(&block);
  if (setjmp(stopped) != 0) {  // NOLINT(cert-err52-cpp): see cpu_launch_failure.hpp
    unblock_fault_signals();   // where a fault's handler jumped from
    return false;
  }
  entry(args, &block);
  return true;
}

/// Blocks [begin, end) one after another.
void run_in_order(const CpuLaunch& launch, std::uint64_t begin, std::uint64_t end) {
  WorkerScratch& s = scratch();
  kjit_cpu_block b = block_record(launch);
  // Checked mode: the allocations as they are now, and red zones around the shared memory.
  // Its kernels are never split, so they always run here.
  std::shared_ptr<const AllocationTable> allocations;
  std::optional<CheckedLaunch> checked;
  std::size_t red_zone = 0;
  if (launches_checked()) {
    allocations = current_allocations();
    checked.emplace(allocations.get(), launch.shared_bytes);
    red_zone = memory_checked() ? kRedZone : 0;
  }
  b.shared = launch.shared_bytes > 0 ? s.shared.get(launch.shared_bytes + 2 * red_zone) + red_zone
                                     : nullptr;
  b.frame = launch.frame_bytes > 0 ? s.frame.get(launch.frame_bytes) : nullptr;
  b.warp = launch.warp ? s.warp.get(warp_area_bytes(launch)) : nullptr;
  void* const* args = launch.argument_pointers.get();
  for (std::uint64_t id = begin; id < end && !current_launch_failed(); ++id) {
    set_block_index(b, id);
    if (checked) {
      checked->begin_block(b);
    }
    if (launch.block_entry != nullptr) {
      if (!enter(launch.block_entry, args, b)) {
        return;
      }
    } else {
      set_current_block(&b);
      s.fiber_runner().run(launch.thread_entry, args, b);
    }
  }
}

/// Blocks [begin, end) of a kernel that yields, up to kTurnBlocks at a time, each with its own
/// shared memory and frame, taking turns: a call runs one block until its threads stop at a loop
/// in step (an iteration) or the block ends; an ended block's place goes to the next block.
/// Places open when a block first yields: blocks that never stop (a grid-stride loop over a grid
/// as large as the data) run one after another in one place, whose memory stays in the cache.
void run_in_turns(const CpuLaunch& launch, std::uint64_t begin, std::uint64_t end) {
  WorkerScratch& s = scratch();
  const std::uint64_t places = std::min(kTurnBlocks, end - begin);
  const std::size_t shared_stride = align_up(launch.shared_bytes, kCacheLine);
  const std::size_t frame_stride = align_up(launch.frame_bytes, kCacheLine);
  char* shared = shared_stride > 0 ? s.shared.get(shared_stride * places) : nullptr;
  char* frame = frame_stride > 0 ? s.frame.get(frame_stride * places) : nullptr;
  const std::size_t warp_stride = align_up(warp_area_bytes(launch), kCacheLine);
  char* warp = warp_stride > 0 ? s.warp.get(warp_stride * places) : nullptr;
  void* const* args = launch.argument_pointers.get();
  std::array<kjit_cpu_block, kTurnBlocks> blocks{};
  std::uint64_t next = begin;
  std::uint64_t open = 0;  // places in use
  std::uint64_t running = 0;
  const auto open_place = [&] {
    kjit_cpu_block& b = blocks[open];
    b = block_record(launch);
    b.shared = shared == nullptr ? nullptr : shared + open * shared_stride;
    b.frame = frame == nullptr ? nullptr : frame + open * frame_stride;
    b.warp = warp == nullptr ? nullptr : warp + open * warp_stride;
    b.yield = 1;
    set_block_index(b, next++);
    ++open;
    ++running;
  };
  open_place();
  while (running > 0 && !current_launch_failed()) {
    // Places opened in a round take their first turn in the same round, so that the blocks stay
    // at the same iteration.
    for (std::uint64_t p = 0; p < open; ++p) {
      kjit_cpu_block& b = blocks[p];
      if (b.yield == 0) {
        continue;  // this place has no block left to run
      }
      if (!enter(launch.block_entry, args, b)) {
        return;
      }
      if (b.resume != 0) {
        while (open < places && next < end) {
          open_place();
        }
      } else if (next < end) {  // the block has ended: the next one takes its place
        set_block_index(b, next++);
      } else {
        b.yield = 0;
        --running;
      }
    }
  }
}

enum class RangeRun { done, declined, stopped };

/// Calls a range entry for threads [first, end) of rows [row, row_end), as enter() calls a block
/// entry; `run` clear only asks whether it would run them all. Declined: at the first row
/// declined, having run nothing of it.
[[gnu::noinline]] RangeRun enter_range(RangeEntry entry, void* const* args,
                                       const kjit_cpu_block& block, std::uint64_t first,
                                       std::uint64_t end, unsigned row, unsigned row_end,
                                       bool run) {
  std::jmp_buf stopped;
  set_abort_target(&stopped);
  set_current_block(nullptr);
  if (setjmp(stopped) != 0) {  // NOLINT(cert-err52-cpp): see cpu_launch_failure.hpp
    unblock_fault_signals();   // where a fault's handler jumped from
    return RangeRun::stopped;
  }
  for (unsigned y = row; y < row_end; ++y) {
    if (entry(args, &block, first, end, y, run ? 1U : 0U) == KJIT_CPU_RANGE_DECLINED) {
      return RangeRun::declined;
    }
  }
  return RangeRun::done;
}

/// Blocks [begin, end) as blocks, for a range entry that declined.
void run_as_blocks(const CpuLaunch& launch, std::uint64_t begin, std::uint64_t end) {
  if (launch.yields && end - begin > 1) {
    run_in_turns(launch, begin, end);
  } else {
    run_in_order(launch, begin, end);
  }
}

/// Blocks [begin, end) of a 1-D launch through the range entry, as one range of threads; as
/// blocks when the entry declines (an index that could wrap).
void run_range(const CpuLaunch& launch, std::uint64_t begin, std::uint64_t end) {
  const kjit_cpu_block b = block_record(launch);
  const std::uint64_t dim = launch.block.x;
  if (enter_range(launch.range_entry, launch.argument_pointers.get(), b, begin * dim, end * dim, 0,
                  1, true) == RangeRun::declined) {
    run_as_blocks(launch, begin, end);
  }
}

/// Rows of blocks [begin, end) of a 2-D launch through the range entry, each row of threads a
/// range; as blocks when the entry would decline any of those rows (asked before running any).
void run_range_rows(const CpuLaunch& launch, std::uint64_t begin, std::uint64_t end) {
  const kjit_cpu_block b = block_record(launch);
  const std::uint64_t width = std::uint64_t{launch.grid.x} * launch.block.x;
  const auto first_row = static_cast<unsigned>(begin * launch.block.y);
  const auto end_row = static_cast<unsigned>(end * launch.block.y);
  void* const* args = launch.argument_pointers.get();
  switch (enter_range(launch.range_entry, args, b, 0, width, first_row, end_row, false)) {
    case RangeRun::stopped:
      return;
    case RangeRun::declined:
      run_as_blocks(launch, begin * launch.grid.x, end * launch.grid.x);
      return;
    case RangeRun::done:
      break;
  }
  if (enter_range(launch.range_entry, args, b, 0, width, first_row, end_row, true) ==
      RangeRun::declined) {
    // The rows said they would run: a decline now would leave some of them half run.
    throw BackendError(fmt::format(
        "kjit: internal error: kernel '{}': a range of threads declined after agreeing to run",
        launch.kernel));
  }
}

/// Whether the launch runs through its range entry: blocks and grid in at most two dimensions.
bool runs_in_ranges(const CpuLaunch& launch) {
  return launch.range_entry != nullptr && launch.block_entry != nullptr && launch.grid.z == 1 &&
         launch.block.z == 1 &&
         std::uint64_t{launch.grid.y} * launch.block.y <= std::numeric_limits<unsigned>::max();
}

/// A cheap clock for comparing two ways of running a launch: the time-stamp counter on x86 (a
/// clock_gettime cost 0.3 us on the 16-core VM measured, more than a small launch's blocks).
std::uint64_t ticks() {
#if defined(__x86_64__) || defined(__i386__)
  return __rdtsc();
#else
  return static_cast<std::uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count());
#endif
}

/// A launch spread over the pool that took less than this many ticks (about 20 us at 2 to 3 GHz)
/// is tried on the calling thread alone; the faster way is kept from then on.
constexpr std::uint64_t kTryAloneTicks = 50000;
/// Every this many launches of a kernel, the way not taken is measured again.
constexpr std::uint32_t kRetryEvery = 256;

/// Whether the next launch of `blocks` blocks runs on the calling thread alone.
bool run_alone(LaunchHistory& h, std::uint64_t blocks) {
  if (h.blocks.load(std::memory_order_relaxed) != blocks) {
    h.pool.store(0, std::memory_order_relaxed);
    h.alone.store(0, std::memory_order_relaxed);
    h.blocks.store(blocks, std::memory_order_relaxed);
  }
  const std::uint64_t pool = h.pool.load(std::memory_order_relaxed);
  const std::uint64_t alone = h.alone.load(std::memory_order_relaxed);
  if (pool == 0) {
    return false;  // measure the pool first
  }
  if (alone == 0) {
    return pool < kTryAloneTicks;
  }
  const bool faster_alone = alone < pool;
  const bool retry = h.launches.fetch_add(1, std::memory_order_relaxed) % kRetryEvery == 0;
  return retry ? !faster_alone : faster_alone;
}

}  // namespace

CpuExecutor::CpuExecutor(unsigned threads, bool pin) : pool_(threads, pin) {
  install_fault_handlers();
}

void CpuExecutor::finish(const LaunchFailure& failure, const CpuLaunch& launch) {
  if (!failure.failed()) {
    return;
  }
  const std::string why = failure.describe(launch.kernel);
  if (failure.faulted()) {
    const std::lock_guard lock(broken_mutex_);
    if (broken_.empty()) {
      constexpr std::string_view prefix = "kjit: ";  // quoted after kjit's own in later errors
      broken_ = why.starts_with(prefix) ? why.substr(prefix.size()) : why;
    }
    broken_flag_.store(true, std::memory_order_release);
  }
  throw LaunchError(why);
}

std::string CpuExecutor::unusable_reason() const {
  const std::lock_guard lock(broken_mutex_);
  return broken_;
}

void CpuExecutor::check_usable(const std::string& kernel) const {
  if (broken_flag_.load(std::memory_order_acquire)) {
    const std::lock_guard lock(broken_mutex_);
    throw LaunchError(fmt::format(
        "kjit: kernel '{}' cannot run: the CPU device is unusable since an earlier kernel faulted: "
        "{}",
        kernel, broken_));
  }
}

void CpuExecutor::run(const CpuLaunch& launch) {
  check_usable(launch.kernel);
  const std::uint64_t blocks = launch.grid.volume();
  LaunchHistory* history = blocks > 1 ? launch.history.get() : nullptr;
  if (history == nullptr) {
    run_blocks(launch, pool_.threads());
    return;
  }
  const bool alone = run_alone(*history, blocks);
  const std::uint64_t start = ticks();
  run_blocks(launch, alone ? 1 : pool_.threads());
  // At least 1: 0 means not measured.
  const std::uint64_t took = std::max<std::uint64_t>(1, ticks() - start);
  (alone ? history->alone : history->pool).store(took, std::memory_order_relaxed);
}

void CpuExecutor::run_blocks(const CpuLaunch& launch, std::uint64_t threads) {
  const std::uint64_t blocks = launch.grid.volume();
  const bool turns = launch.yields && launch.block_entry != nullptr;
  LaunchFailure failure;
  if (runs_in_ranges(launch)) {
    const kjit_cpu_block record = block_record(launch);
    // Contiguous ranges: of the grid's blocks on a 1-D launch, of its rows of blocks on a 2-D
    // one. A small 1-D grid (a grid-stride loop's few blocks per core) gets one range per
    // worker, as OpenMP's static schedule: each walks its stretch of every row of the loop, and
    // smaller stretches walk memory in smaller pieces. Larger grids get about 8 ranges per
    // worker, taken in turn, so that workers that finish early (a Mandelbrot's dark rows) take
    // more: a static split ran Mandelbrot's 16 x 16 blocks 2.9 times slower than OpenMP's dynamic
    // schedule on 16 cores.
    const bool linear = launch.grid.y == 1 && launch.block.y == 1;
    const std::uint64_t items = linear ? blocks : launch.grid.y;
    // A grid-stride loop that runs as one flat loop splits its index space as finely as its
    // ranges: it may take ranges in turn like a large grid, which spreads the work of workers
    // that wake late. Asked once for the whole grid; the answer is the same for every range.
    const bool in_rows = linear && items <= threads * kTurnBlocks &&
                         launch.range_entry(launch.argument_pointers.get(), &record, 0,
                                            items * launch.block.x, 0, 0) != KJIT_CPU_RANGE_FLAT;
    const std::uint64_t range_grain = in_rows ? (items + threads - 1) / threads
                                              : std::max<std::uint64_t>(1, items / (threads * 8));
    const auto body = [&](std::uint64_t begin, std::uint64_t end) {
      const CurrentLaunch current(failure, launch.kernel);
      const DenormalsFlushed mode(launch.flush_denormals);
      if (linear) {
        run_range(launch, begin, end);
      } else {
        run_range_rows(launch, begin, end);
      }
    };
    pool_.run(items, threads == 1 ? items : range_grain, body);
    finish(failure, launch);
    return;
  }
  const auto body = [&](std::uint64_t begin, std::uint64_t end) {
    const CurrentLaunch current(failure, launch.kernel);
    const DenormalsFlushed mode(launch.flush_denormals);
    if (turns && end - begin > 1) {
      run_in_turns(launch, begin, end);
    } else {
      run_in_order(launch, begin, end);
    }
  };
  pool_.run(blocks, threads == 1 ? blocks : block_chunk(launch.grid, turns, threads), body);
  finish(failure, launch);
}

}  // namespace kjit::cpu
