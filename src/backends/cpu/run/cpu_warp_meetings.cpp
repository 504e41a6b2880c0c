#include "backends/cpu/run/cpu_warp_meetings.hpp"

#include "backends/cpu/prelude/cpu_abi.h"
#include "backends/cpu/run/cpu_memory.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <cstring>

namespace kjit::cpu {

namespace {

template <class T>
T load(const char* at) {
  T v;
  std::memcpy(&v, at, sizeof(T));
  return v;
}

template <class T>
void store(char* at, T v) {
  std::memcpy(at, &v, sizeof(T));
}

constexpr std::size_t kValueBytes = 16;  // at most, per lane

/// The lanes of one warp that the runtime holds in a round, of those at its meetings (`present`,
/// bit j for lane j), each at call site site[j] with mask mask[j].
unsigned held_warp_lanes(unsigned present, const unsigned* site, const unsigned* mask) {
  // The round's meetings: the lanes at one call site with one mask (as CUDA asks of the lanes of
  // one operation; a helper function's operation has one call site for all its callers), and the
  // lanes at others that the mask names.
  std::array<unsigned, KJIT_CPU_WARP_LANES> lanes{};
  std::array<unsigned, KJIT_CPU_WARP_LANES> waits{};
  std::size_t meetings = 0;
  for (unsigned left = present; left != 0;) {
    const int first = std::countr_zero(left);
    unsigned here = 0;
    for (unsigned rest = left; rest != 0; rest &= rest - 1) {
      const int j = std::countr_zero(rest);
      if (site[j] == site[first] && mask[j] == mask[first]) {
        here |= 1U << j;
      }
    }
    left &= ~here;
    if (meetings == 0 && left == 0) {
      return 0;  // one meeting, the converged warp's: it waits for nobody
    }
    lanes[meetings] = here;
    waits[meetings] = mask[first] & present & ~here;
    ++meetings;
  }
  // The meetings that wait for none go on; those that wait for lanes that will move (of those,
  // or of meetings held for those) stay. Where every meeting waits for another, all go on.
  unsigned going = 0;
  for (std::size_t i = 0; i < meetings; ++i) {
    going |= waits[i] == 0 ? lanes[i] : 0;
  }
  unsigned moving = going;
  for (bool grew = true; grew;) {
    grew = false;
    for (std::size_t i = 0; i < meetings; ++i) {
      if ((lanes[i] & moving) == 0 && (waits[i] & moving) != 0) {
        moving |= lanes[i];
        grew = true;
      }
    }
  }
  return moving & ~going;
}

}  // namespace

void next_warp_round(char* area) {
  store<std::uint32_t>(area, load<std::uint32_t>(area) + 1);
}

bool release_warp_meetings(char* area, std::size_t threads) {
  const std::size_t n = align_up(threads, KJIT_CPU_WARP_LANES);
  const std::uint32_t now = load<std::uint32_t>(area) + 1;
  const std::size_t place = now & 1U;
  const std::size_t other = place ^ 1U;
  char* stamps = area + KJIT_CPU_WARP_STAMPS_AT(n);
  char* masks = area + KJIT_CPU_WARP_MASKS_AT(n);
  char* held = area + KJIT_CPU_WARP_HELD_AT(n);
  char* values = area + KJIT_CPU_WARP_VALUES_AT(n);
  const auto stamp_at = [&](std::size_t p, std::size_t lane) {
    return stamps + (p * n + lane) * sizeof(std::uint64_t);
  };
  const auto mask_at = [&](std::size_t p, std::size_t lane) {
    return masks + (p * n + lane) * sizeof(std::uint64_t);
  };
  // A value of `bytes` in its size class (cpu_abi.h).
  const auto value_at = [&](std::size_t p, std::size_t lane, std::size_t bytes) {
    const std::size_t size_class = std::bit_ceil(bytes);
    return values + p * n * KJIT_CPU_WARP_PLACE_BYTES + (size_class - 1) * n + lane * size_class;
  };
  bool any = false;
  for (std::size_t base = 0; base < n; base += KJIT_CPU_WARP_LANES) {
    unsigned present = 0;
    std::array<unsigned, KJIT_CPU_WARP_LANES> site{};
    std::array<unsigned, KJIT_CPU_WARP_LANES> mask{};
    std::array<std::uint64_t, KJIT_CPU_WARP_LANES> gave{};  // mask | value bytes << 32
    for (unsigned j = 0; j < KJIT_CPU_WARP_LANES; ++j) {
      const auto stamp = load<std::uint64_t>(stamp_at(place, base + j));
      if (static_cast<std::uint32_t>(stamp) == now) {
        present |= 1U << j;
        site[j] = static_cast<unsigned>(stamp >> 32);
        gave[j] = load<std::uint64_t>(mask_at(place, base + j));
        mask[j] = static_cast<unsigned>(gave[j]);
      }
    }
    const unsigned holds = held_warp_lanes(present, site.data(), mask.data());
    for (unsigned j = 0; j < KJIT_CPU_WARP_LANES; ++j) {
      const bool stays = (holds >> j & 1U) != 0;
      store<std::uint32_t>(held + (base + j) * sizeof(std::uint32_t), stays ? 1 : 0);
      if (stays) {
        // It meets in the next round, in the place the lanes that go on write next: it is not
        // among those that meet in this one, though it may be at the same call site.
        store<std::uint64_t>(stamp_at(other, base + j),
                             (now + 1) | static_cast<std::uint64_t>(site[j]) << 32);
        store<std::uint64_t>(mask_at(other, base + j), gave[j]);
        const std::size_t bytes = std::clamp<std::size_t>(gave[j] >> 32, 1, kValueBytes);
        std::memcpy(value_at(other, base + j, bytes), value_at(place, base + j, bytes), bytes);
        store<std::uint64_t>(stamp_at(place, base + j), 0);
      }
    }
    any = any || holds != 0;
  }
  store<std::uint32_t>(area, now);
  return any;
}

bool warp_lane_held(const char* area, std::size_t threads, std::size_t tid) {
  const std::size_t n = align_up(threads, KJIT_CPU_WARP_LANES);
  return load<std::uint32_t>(area + KJIT_CPU_WARP_HELD_AT(n) + tid * sizeof(std::uint32_t)) != 0;
}

}  // namespace kjit::cpu

extern "C" void kjit_cpu_warp_release(char* area, unsigned long long threads) {
  if (area != nullptr) {
    kjit::cpu::release_warp_meetings(area, threads);
  }
}
