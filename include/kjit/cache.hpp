// kjit's disk cache, seen from the program: what it did in this process. The cache itself is
// configured by the environment (KJIT_CACHE, KJIT_CACHE_DIR, KJIT_CACHE_PATH,
// KJIT_CACHE_MAX_BYTES, KJIT_CACHE_REMOTE*) and maintained with kjit-warm; docs/cache.md
// describes both. The remote tier can also be set from the program (set_remote_cache).
#pragma once

#include <kjit/export.hpp>

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace kjit {

/// Counters since the process started, over every program and device.
struct CacheStats {
  std::uint64_t hits = 0;      // programs loaded from the disk cache, no compiler run
  std::uint64_t misses = 0;    // lookups that found no usable entry
  std::uint64_t compiles = 0;  // programs compiled (whether or not the cache is on)
  std::uint64_t stored = 0;    // entries written
  std::uint64_t rejected = 0;  // entries refused: corrupt, unloadable, or writable by others
  std::uint64_t evicted = 0;   // entries removed to stay under KJIT_CACHE_MAX_BYTES
  std::uint64_t waits = 0;     // times another process's compile of the same key was awaited
  // The remote tier (KJIT_CACHE_REMOTE), searched when the disk cache misses:
  std::uint64_t remote_hits = 0;       // programs taken from it (and written to the disk cache)
  std::uint64_t remote_misses = 0;     // lookups it had no entry for
  std::uint64_t remote_stored = 0;     // entries given to it
  std::uint64_t remote_rejected = 0;   // its entries refused: corrupt, or another key's
  std::uint64_t remote_failures = 0;   // times it failed (unreachable, timed out, refused) and
                                       // was turned off for the process
  std::uint64_t remote_leases = 0;     // compiles this process took on for every process
  std::uint64_t remote_waits = 0;      // programs another process compiled while this one waited
  std::uint64_t remote_takeovers = 0;  // leases taken over from a process that died or failed
  double compile_ms = 0;               // time in compilers
  double load_ms = 0;                  // time reading entries and loading binaries
};

/// A snapshot of the counters. Thread-safe.
KJIT_API CacheStats cache_stats();

/// Where the cache lives, as the environment configured it.
struct CacheConfig {
  bool enabled = false;   // false with KJIT_CACHE=off
  bool writable = false;  // KJIT_CACHE=rw and a user directory that could be used
  std::filesystem::path directory;
  std::vector<std::filesystem::path> read_only_directories;
  std::uint64_t max_bytes = 0;  // 0: no cap
  /// Entries precompiled into this program (kjit_add_kernels' PRECOMPILE): the first tier
  /// searched, read only, and not searched with KJIT_CACHE=off.
  std::size_t embedded_entries = 0;
  /// The remote tier's address, its password masked; "" when there is none.
  std::string remote;
};

/// Throws ConfigError when a KJIT_CACHE* variable is malformed.
KJIT_API CacheConfig cache_config();

/// The remote tier, as a program that reads its settings from its own configuration sets it:
/// what KJIT_CACHE_REMOTE, _TIMEOUT_MS, _WAIT_MS and _KEY say otherwise (docs/cache.md).
struct RemoteCacheOptions {
  /// redis://[[user]:password@]host[:port][/db] or unix://[[user]:password@]/path[?db=N];
  /// empty: no remote tier.
  std::string url;
  /// How long connecting, and then each command, may wait: 1 ms to 60 s.
  std::chrono::milliseconds timeout{50};
  /// How much longer than its own compiles take a process waits for another's compile of the
  /// same program before compiling it itself: 1 ms to 1 h.
  std::chrono::milliseconds wait{10000};
  /// A file holding the fleet's secret (at least 32 bytes, readable by its owner only): entries
  /// are signed with it, and entries without a valid tag are refused. Empty: neither.
  std::filesystem::path key_file;
};

/// Makes `options` the remote tier of this process for every lookup that starts after the call;
/// the KJIT_CACHE_REMOTE* variables are not read after it. ConfigError for a malformed URL, a
/// time out of range or an unusable key file, and the tier stays as it was. Thread-safe.
KJIT_API void set_remote_cache(const RemoteCacheOptions& options);

}  // namespace kjit
