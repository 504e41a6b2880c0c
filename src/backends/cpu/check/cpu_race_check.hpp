// Checked mode's race check (KJIT_CHECK=race) for shared memory, as compute-sanitizer's racecheck
// does on NVIDIA GPUs: two threads of a block that touch the same byte of shared memory with no
// barrier between, at least one of them writing, race (two atomic operations do not). Each worker
// keeps, for every byte of the shared memory of the block it runs, the last write (and an earlier
// atomic one of another thread) and up to two reads of different threads, each with the thread and
// how many barriers and warp meetings the thread had passed. An access is ordered after an earlier
// one when its thread has passed more barriers than the earlier thread had (a barrier waits for
// every thread of the block), or, in the same warp, more warp meetings (a warp-level operation such
// as __syncwarp(), or the lockstep wait kjit puts around volatile stores: the lanes of a warp meet
// there).
#pragma once

#include "backends/cpu/prelude/cpu_abi.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

namespace kjit::cpu {

/// One access to shared memory, as the check records it.
struct SharedAccess {
  std::uint32_t thread = 0;      // linear index in the block
  std::uint32_t barriers = 0;    // barriers the thread had passed
  std::uint32_t warp_meets = 0;  // warp meetings the thread had passed
  std::uint32_t flags = 0;       // KJIT_CPU_ACCESS_WRITE, KJIT_CPU_ACCESS_ATOMIC (cpu_abi.h)
  const char* where = nullptr;   // "file:line:col" of the access
  [[nodiscard]] bool writes() const {
    return (flags & (KJIT_CPU_ACCESS_WRITE | KJIT_CPU_ACCESS_ATOMIC)) != 0;
  }
  [[nodiscard]] bool atomic() const { return (flags & KJIT_CPU_ACCESS_ATOMIC) != 0; }
};

/// An access that races with an earlier one.
struct SharedRace {
  SharedAccess earlier;
  std::size_t offset = 0;  // of the first byte both touched
};

/// The records of one worker thread, for the block it runs.
class SharedRaceCheck {
 public:
  /// A block starts: nothing it does is ordered with what earlier blocks did.
  void begin_block(std::size_t shared_bytes, std::size_t threads);
  /// The calling thread passed a barrier.
  void passed_barrier(std::uint32_t thread);
  /// The calling thread arrives at a warp meeting, then passes it with the lanes of its warp
  /// that `lanes` names (bit j for lane j): what any of them did before is ordered before what
  /// each does after. Lanes of a warp may pass different numbers of meetings (those of a
  /// divergent branch), so each lane's count becomes one more than the largest any of them had
  /// when it arrived: the same for all of them, whatever order they go on in.
  void arriving_at_warp_meeting(std::uint32_t thread);
  void passed_warp_meeting(std::uint32_t thread, std::uint32_t lanes);
  /// Records `access` of `size` bytes at `offset` of the block's shared memory; the first earlier
  /// access it races with, if any. Bytes outside the block's shared memory are not looked at.
  std::optional<SharedRace> record(std::size_t offset, std::size_t size, SharedAccess access);
  /// What the thread of linear index `thread` has passed now, with `where` and `flags`.
  [[nodiscard]] SharedAccess now(std::uint32_t thread, const char* where,
                                 std::uint32_t flags) const;

 private:
  struct Record {
    SharedAccess access;
    std::uint32_t block = 0;  // block_ when recorded; 0: never
  };
  struct Byte {
    Record writes[2];  // the last; an earlier one of another thread it is not ordered after
    Record reads[2];   // of different threads
  };
  static_assert(sizeof(Byte) == 128, "docs/cpu-backend.md gives the records' size");
  struct Passed {
    std::uint32_t barriers = 0;
    std::uint32_t warp_meets = 0;
    std::uint32_t arrived = 0;  // warp_meets when it arrived at its last warp meeting
  };
  [[nodiscard]] bool current(const Record& r) const { return r.block == block_; }

  std::vector<Byte> bytes_;
  std::vector<Passed> threads_;
  std::uint32_t block_ = 0;  // this worker's count of blocks begun
};

/// The check of the running worker's checked launch; nullptr when races are not checked.
SharedRaceCheck* race_check() noexcept;
void set_race_check(SharedRaceCheck* check) noexcept;

/// The linear index of a thread in its block.
std::uint32_t linear_thread(const kjit_cpu_thread& thread) noexcept;

}  // namespace kjit::cpu
