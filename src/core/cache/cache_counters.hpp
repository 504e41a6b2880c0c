// The counters behind kjit::cache_stats(), updated lock-free from any thread.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>

namespace kjit::detail::cache {

struct Counters {
  std::atomic<std::uint64_t> hits{0}, misses{0}, compiles{0}, stored{0}, rejected{0}, evicted{0},
      waits{0};
  std::atomic<std::uint64_t> remote_hits{0}, remote_misses{0}, remote_stored{0}, remote_rejected{0},
      remote_failures{0}, remote_leases{0}, remote_waits{0}, remote_takeovers{0};
  std::atomic<std::uint64_t> compile_ns{0}, load_ns{0};

  static void add_time(std::atomic<std::uint64_t>& to, std::chrono::steady_clock::duration d) {
    to.fetch_add(
        static_cast<std::uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(d).count()),
        std::memory_order_relaxed);
  }
};

Counters& counters();

}  // namespace kjit::detail::cache
