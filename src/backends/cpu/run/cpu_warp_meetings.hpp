// Where the lanes of a warp meet (cpu_prelude_warp.h), as the runtime sees it: the block's rounds
// of warp meetings, and the meetings held for lanes still on their way to them.
//
// A lane leaves its value, its call site and its mask in the warp area (cpu_abi.h), stamped with
// the round in which it meets its warp, then waits. Every lane waiting at a meeting goes on in
// that round, and the lanes that left their values in the round at one call site met. A lane that
// skipped a meeting (the other side of an `if`) reaches its warp's next meeting a round early,
// while the branch's lanes are still at theirs: a __shfl_sync(0xffffffff, v, 3) after the branch
// would go on without them. So, before a round, the runtime holds each meeting whose mask names a
// lane at another meeting of the round that goes on (or is held itself for one that does): its
// lanes stay, stamped for the next round, and meet the others when they come. Meetings that wait
// only for each other (a full mask on both sides of a branch) all go on, as they would alone.
#pragma once

#include <cstddef>

namespace kjit::cpu {

/// Starts the next round of the warp meetings of a block whose warp area is `area`, in which no
/// lane waits at a meeting.
void next_warp_round(char* area);

/// Starts the next round, in which the lanes waiting at warp meetings go on, of a block of
/// `threads` threads whose warp area is `area`: sets the held flags (cpu_abi.h) of all lanes and
/// stamps the held lanes for the round after. Returns whether it holds any lane.
bool release_warp_meetings(char* area, std::size_t threads);

/// Whether the last release_warp_meetings of the block held lane `tid`.
bool warp_lane_held(const char* area, std::size_t threads, std::size_t tid);

}  // namespace kjit::cpu

/// release_warp_meetings, for block entries split at their barriers (cpu_abi.h).
extern "C" void kjit_cpu_warp_release(char* area, unsigned long long threads);
