#include "backends/cpu/check/cpu_race_check.hpp"

#include <algorithm>

namespace kjit::cpu {

namespace {

// Initial-exec: every barrier, warp meeting and shared-memory access of a checked kernel reads it.
constinit thread_local SharedRaceCheck* t_check __attribute__((tls_model("initial-exec"))) =
    nullptr;

/// Whether `later` is ordered after `earlier` (the same thread, or a barrier or warp meeting
/// between).
bool ordered(const SharedAccess& earlier, const SharedAccess& later) {
  return earlier.thread == later.thread || later.barriers > earlier.barriers ||
         (earlier.thread / KJIT_CPU_WARP_LANES == later.thread / KJIT_CPU_WARP_LANES &&
          later.warp_meets > earlier.warp_meets);
}

bool races(const SharedAccess& earlier, const SharedAccess& later) {
  if (!earlier.writes() && !later.writes()) {
    return false;
  }
  if (earlier.atomic() && later.atomic()) {
    return false;
  }
  return !ordered(earlier, later);
}

}  // namespace

void SharedRaceCheck::begin_block(std::size_t shared_bytes, std::size_t threads) {
  if (++block_ == 0) {  // the count wrapped: no record may pass for the new block's
    std::fill(bytes_.begin(), bytes_.end(), Byte{});
    block_ = 1;
  }
  if (bytes_.size() < shared_bytes) {
    bytes_.resize(shared_bytes);
  }
  threads_.assign(threads, Passed{});
}

void SharedRaceCheck::passed_barrier(std::uint32_t thread) {
  if (thread < threads_.size()) {
    ++threads_[thread].barriers;
  }
}

void SharedRaceCheck::arriving_at_warp_meeting(std::uint32_t thread) {
  if (thread < threads_.size()) {
    threads_[thread].arrived = threads_[thread].warp_meets;
  }
}

void SharedRaceCheck::passed_warp_meeting(std::uint32_t thread, std::uint32_t lanes) {
  if (thread >= threads_.size()) {
    return;
  }
  const std::size_t base = std::size_t{thread / KJIT_CPU_WARP_LANES} * KJIT_CPU_WARP_LANES;
  std::uint32_t largest = threads_[thread].arrived;
  for (std::size_t j = 0; j < KJIT_CPU_WARP_LANES && base + j < threads_.size(); ++j) {
    if ((lanes >> j & 1U) != 0) {
      largest = std::max(largest, threads_[base + j].arrived);
    }
  }
  threads_[thread].warp_meets = largest + 1;
}

SharedAccess SharedRaceCheck::now(std::uint32_t thread, const char* where,
                                  std::uint32_t flags) const {
  SharedAccess a;
  a.thread = thread;
  if (thread < threads_.size()) {
    a.barriers = threads_[thread].barriers;
    a.warp_meets = threads_[thread].warp_meets;
  }
  a.where = where;
  a.flags = flags;
  return a;
}

std::optional<SharedRace> SharedRaceCheck::record(std::size_t offset, std::size_t size,
                                                  SharedAccess access) {
  const std::size_t end = std::min(offset + size, bytes_.size());
  for (std::size_t at = offset; at < end; ++at) {
    Byte& byte = bytes_[at];
    for (const Record& write : byte.writes) {
      if (current(write) && races(write.access, access)) {
        return SharedRace{write.access, at};
      }
    }
    if (!access.writes()) {
      // Two reads are kept, of different threads: a later write races with either.
      Record& slot = !current(byte.reads[0]) || byte.reads[0].access.thread == access.thread
                         ? byte.reads[0]
                         : byte.reads[1];
      slot = Record{access, block_};
      continue;
    }
    for (const Record& read : byte.reads) {
      if (current(read) && races(read.access, access)) {
        return SharedRace{read.access, at};
      }
    }
    // Atomic operations of two threads are not ordered, yet do not race: a later plain access
    // races with either, so the other thread's is kept as well.
    if (current(byte.writes[0]) && !ordered(byte.writes[0].access, access)) {
      byte.writes[1] = byte.writes[0];
    }
    byte.writes[0] = Record{access, block_};
  }
  return std::nullopt;
}

SharedRaceCheck* race_check() noexcept {
  return t_check;
}

void set_race_check(SharedRaceCheck* check) noexcept {
  t_check = check;
}

std::uint32_t linear_thread(const kjit_cpu_thread& thread) noexcept {
  const kjit_cpu_block& b = *thread.block;
  return thread.thread_idx[0] +
         b.block_dim[0] * (thread.thread_idx[1] + b.block_dim[1] * thread.thread_idx[2]);
}

}  // namespace kjit::cpu
