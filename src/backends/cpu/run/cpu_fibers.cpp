#include "backends/cpu/run/cpu_fibers.hpp"

#include "backends/cpu/check/cpu_fault_signals.hpp"
#include "backends/cpu/check/cpu_race_check.hpp"
#include "backends/cpu/run/cpu_launch_failure.hpp"
#include "backends/cpu/run/cpu_warp_meetings.hpp"
#include "backends/cpu/run/fiber_sanitizers.hpp"

#include <kjit/error.hpp>

#include <fmt/format.h>
#include <boost/context/fiber.hpp>
#include <boost/context/stack_context.hpp>

#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <csetjmp>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace kjit::cpu {

namespace {

std::size_t page_size() {
  static const auto size = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
  return size;
}

std::size_t slot_bytes() {
  return FiberStacks::kStackBytes + page_size();
}

/// Hands Boost.Context a stack of ours; nothing to free when the fiber ends.
class BorrowedStack {
 public:
  explicit BorrowedStack(char* top) : top_(top) {}
  boost::context::stack_context allocate() {
    boost::context::stack_context sc;
    sc.sp = top_;
    sc.size = FiberStacks::kStackBytes;
    return sc;
  }
  void deallocate(boost::context::stack_context& /*sc*/) noexcept {}

 private:
  char* top_;
};

}  // namespace

FiberStacks::~FiberStacks() {
  if (base_ != nullptr) {
    munmap(base_, mapped_);
  }
}

void FiberStacks::reserve(std::size_t count) {
  if (count <= count_) {
    return;
  }
  const std::size_t bytes = count * slot_bytes();
  void* memory = mmap(nullptr, bytes, PROT_READ | PROT_WRITE,
                      MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (memory == MAP_FAILED) {
    throw BackendError(fmt::format("kjit: cannot map {} fiber stacks of {} KiB for a block: {}",
                                   count, kStackBytes / 1024, std::strerror(errno)));
  }
  auto* base = static_cast<char*>(memory);
  for (std::size_t i = 0; i < count; ++i) {
    if (mprotect(base + i * slot_bytes(), page_size(), PROT_NONE) != 0) {
      const int error = errno;
      munmap(memory, bytes);
      throw BackendError(
          fmt::format("kjit: cannot protect fiber stack guard pages: {}", std::strerror(error)));
    }
  }
  if (base_ != nullptr) {
    munmap(base_, mapped_);
  }
  base_ = base;
  count_ = count;
  mapped_ = bytes;
}

char* FiberStacks::top(std::size_t i) const {
  return base_ + (i + 1) * slot_bytes();
}

class FiberBlockRunner::State {
 public:
  std::vector<boost::context::fiber> fibers;  // each thread's continuation
  std::vector<unsigned char> finished;
  std::vector<unsigned char> at_warp;      // waiting where its warp meets (__kjit_warp_wait)
  std::vector<std::jmp_buf*> stopped;      // where each thread's kernel code goes when it stops
  std::size_t current = 0;                 // the thread running now
  boost::context::fiber scheduler;         // where a yielding thread returns to
  fiber_sanitizer::Stack scheduler_stack;  // the worker thread's own, for sanitizers
  std::vector<void*> tsan_fibers;          // TSan's record of each fiber (nullptr without TSan)
};

FiberBlockRunner::FiberBlockRunner() : state_(std::make_unique<State>()) {}

FiberBlockRunner::~FiberBlockRunner() = default;

void FiberBlockRunner::run(ThreadEntry entry, void* const* args, kjit_cpu_block& block) {
  const unsigned nx = block.block_dim[0];
  const unsigned ny = block.block_dim[1];
  const std::size_t count = std::size_t{nx} * ny * block.block_dim[2];
  stacks_.reserve(count);
  State& s = *state_;
  s.fibers.clear();
  s.finished.assign(count, 0);
  s.at_warp.assign(count, 0);
  s.stopped.assign(count, nullptr);
  s.scheduler_stack.tsan_fiber = fiber_sanitizer::current_fiber();
  s.tsan_fibers.resize(count);
  block.barrier = &s;
  for (std::size_t i = 0; i < count; ++i) {
    s.tsan_fibers[i] = fiber_sanitizer::create_fiber();
    const auto x = static_cast<unsigned>(i % nx);
    const auto y = static_cast<unsigned>((i / nx) % ny);
    const auto z = static_cast<unsigned>(i / (std::size_t{nx} * ny));
    s.fibers.emplace_back(std::allocator_arg, BorrowedStack(stacks_.top(i)),
                          [&s, &block, entry, args, i, x, y, z](boost::context::fiber&& back) {
                            fiber_sanitizer::arrived(nullptr, &s.scheduler_stack);
                            s.scheduler = std::move(back);
                            std::jmp_buf stopped;
                            s.stopped[i] = &stopped;
                            set_abort_target(&stopped);
                            // NOLINTNEXTLINE(cert-err52-cpp): see cpu_launch_failure.hpp
                            if (setjmp(stopped) == 0) {
                              entry(args, &block, x, y, z);
                            } else {
                              unblock_fault_signals();  // a fault's handler may have jumped
                            }
                            s.finished[i] = 1;
                            fiber_sanitizer::leaving(nullptr, s.scheduler_stack);
                            return std::move(s.scheduler);
                          });
  }
  // Round robin: each round runs every unfinished thread up to its next barrier, so a thread
  // resumes past a barrier only after all others reached it (or ended, as on a GPU). While any
  // thread waits where its warp meets, a round runs only those: the others wait at a barrier.
  // Each round is the next of the block's warp meetings (cpu_warp_meetings.hpp): in a round of
  // warp meetings, the lanes whose meeting the runtime holds wait on.
  std::size_t remaining = count;
  bool warps_only = false;
  while (remaining > 0) {
    bool warps_next = false;
    bool holds = false;
    if (block.warp != nullptr) {
      if (warps_only) {
        holds = release_warp_meetings(block.warp, count);
      } else {
        next_warp_round(block.warp);
      }
    }
    for (std::size_t i = 0; i < count; ++i) {
      if (warps_only && holds && s.at_warp[i] != 0 && warp_lane_held(block.warp, count, i)) {
        warps_next = true;
        continue;
      }
      if (s.finished[i] == 0 && (!warps_only || s.at_warp[i] != 0)) {
        s.at_warp[i] = 0;
        void* fake_stack = nullptr;
        fiber_sanitizer::leaving(&fake_stack, {stacks_.top(i) - FiberStacks::kStackBytes,
                                               FiberStacks::kStackBytes, s.tsan_fibers[i]});
        s.current = i;
        s.fibers[i] = std::move(s.fibers[i]).resume();
        fiber_sanitizer::arrived(fake_stack, nullptr);
        if (s.finished[i] != 0) {
          fiber_sanitizer::destroy_fiber(s.tsan_fibers[i]);
          --remaining;
        }
        warps_next = warps_next || s.at_warp[i] != 0;
      }
    }
    warps_only = warps_next;
  }
  block.barrier = nullptr;
}

}  // namespace kjit::cpu

namespace {

/// Yields the calling fiber to its block's scheduler, at a barrier or (`warp`) a warp meeting.
void wait_on_fiber(const kjit_cpu_thread* thread, bool warp) {
  auto* state = static_cast<kjit::cpu::FiberBlockRunner::State*>(thread->block->barrier);
  if (state == nullptr) {
    // Cannot happen: the lowering runs every kernel that reaches a barrier on fibers, or splits it.
    std::fputs("kjit: internal error: a barrier outside a fiber block\n", stderr);
    std::abort();
  }
  state->at_warp[state->current] = warp ? 1 : 0;
  void* fake_stack = nullptr;
  kjit::cpu::fiber_sanitizer::leaving(&fake_stack, state->scheduler_stack);
  state->scheduler = std::move(state->scheduler).resume();
  kjit::cpu::fiber_sanitizer::arrived(fake_stack, &state->scheduler_stack);
  // Back on this thread's fiber: its own abort target, and an end if the launch has stopped.
  kjit::cpu::set_abort_target(state->stopped[state->current]);
  if (kjit::cpu::current_launch_failed()) {
    kjit::cpu::abort_kernel_code();
  }
}

/// The mask that thread `at` gave the warp meeting it arrives at, stamped in the place of the
/// round it meets in, the one after the block's (cpu_abi.h); the whole warp for a meeting that
/// left no stamp (those the lowering adds around legacy volatile stores).
std::uint32_t meeting_lanes(const kjit_cpu_block& block, std::uint32_t at) {
  const std::size_t threads =
      std::size_t{block.block_dim[0]} * block.block_dim[1] * block.block_dim[2];
  const std::size_t n =
      (threads + KJIT_CPU_WARP_LANES - 1) / KJIT_CPU_WARP_LANES * KJIT_CPU_WARP_LANES;
  unsigned round = 0;
  std::memcpy(&round, block.warp, sizeof(round));
  const std::size_t slot = (((round + 1) & 1U) * n + at) * sizeof(std::uint64_t);
  std::uint64_t stamp = 0;
  std::uint64_t mask = 0;
  std::memcpy(&stamp, block.warp + KJIT_CPU_WARP_STAMPS_AT(n) + slot, sizeof(stamp));
  std::memcpy(&mask, block.warp + KJIT_CPU_WARP_MASKS_AT(n) + slot, sizeof(mask));
  return static_cast<std::uint32_t>(stamp) == round + 1 ? static_cast<std::uint32_t>(mask)
                                                        : 0xffffffffU;
}

}  // namespace

extern "C" void kjit_cpu_barrier_wait(const kjit_cpu_thread* thread) {
  if (kjit::cpu::SharedRaceCheck* races = kjit::cpu::race_check()) {
    races->passed_barrier(kjit::cpu::linear_thread(*thread));
  }
  wait_on_fiber(thread, false);
}

extern "C" void kjit_cpu_warp_wait(const kjit_cpu_thread* thread) {
  kjit::cpu::SharedRaceCheck* races = kjit::cpu::race_check();
  if (races == nullptr) {
    wait_on_fiber(thread, true);
    return;
  }
  const std::uint32_t at = kjit::cpu::linear_thread(*thread);
  const std::uint32_t lanes = meeting_lanes(*thread->block, at);  // before the round moves on
  races->arriving_at_warp_meeting(at);
  wait_on_fiber(thread, true);
  races->passed_warp_meeting(at, lanes);
}
