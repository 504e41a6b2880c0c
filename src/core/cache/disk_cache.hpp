// The on-disk cache: read-only tiers (KJIT_CACHE_PATH) ahead of the user's tier (KJIT_CACHE_DIR),
// verified reads, atomic publication, per-key locks across processes, LRU eviction under a size
// cap, and refusal of files another user could have written. docs/cache.md says why each rule.
#pragma once

#include "backends/kit/backend.hpp"
#include "core/cache/cache_key.hpp"
#include "support/environment.hpp"

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace kjit::detail::cache {

struct CacheSettings {
  environment::CacheMode mode = environment::CacheMode::read_write;
  std::filesystem::path user_dir;
  std::vector<std::filesystem::path> read_only_dirs;  // searched first, in order
  std::optional<std::uint64_t> max_bytes;
  /// How long to wait for another process compiling the same key before compiling too.
  std::chrono::milliseconds lock_timeout{std::chrono::minutes(5)};

  /// From KJIT_CACHE, KJIT_CACHE_DIR, KJIT_CACHE_PATH, KJIT_CACHE_MAX_BYTES; ConfigError when
  /// one is malformed.
  static CacheSettings from_environment();
};

/// A verified entry read from a tier.
struct FoundEntry {
  backend::Binary binary;
  std::filesystem::path file;
  bool user_tier = false;
  bool embedded = false;  // precompiled into the program: file is "<embedded>/<key>"
};

/// One entry file as maintenance sees it.
struct EntryFile {
  std::filesystem::path file;
  std::string key;
  std::uint64_t bytes = 0;  // the entry and its key manifest
  std::filesystem::file_time_type used;
};

/// What a program's compile adds to the key manifest beside its entry.
struct EntryNotes {
  std::string program;
  double compile_ms = 0;
  bool counted = true;  // false for what is not a program (a remembered compiler identity)
};

/// Held while this process compiles a key; other processes wait on it.
class KeyLock {
 public:
  KeyLock(std::filesystem::path path, int fd) : path_(std::move(path)), fd_(fd) {}
  KeyLock(KeyLock&& other) noexcept : path_(std::move(other.path_)), fd_(other.fd_) {
    other.fd_ = -1;
  }
  KeyLock& operator=(KeyLock&& other) noexcept;
  KeyLock(const KeyLock&) = delete;
  KeyLock& operator=(const KeyLock&) = delete;
  ~KeyLock() { release(); }

 private:
  void release() noexcept;
  std::filesystem::path path_;
  int fd_;
};

class DiskCache {
 public:
  /// Creates the user tier (0700) when it is writable; a tier that cannot be used is reported
  /// once (warning) and left out.
  explicit DiskCache(CacheSettings settings);

  [[nodiscard]] const CacheSettings& settings() const noexcept { return settings_; }
  [[nodiscard]] bool enabled() const noexcept {
    return settings_.mode != environment::CacheMode::off;
  }
  /// True when entries can be written (mode rw and a usable user tier).
  [[nodiscard]] bool writable() const noexcept { return writable_; }

  /// The verified entry for `key` from the first tier that has one. A corrupt entry is a miss:
  /// it is removed (when writable) and a warning names the file and the problem.
  std::optional<FoundEntry> lookup(const CacheKey& key);
  /// An entry that verified but would not load: removed like a corrupt one.
  void discard(const FoundEntry& entry, const std::string& why);
  /// Waits for the key's lock (another process compiling it). nullopt when the cache is not
  /// writable, the file system has no locks, or the wait timed out (then the caller compiles
  /// anyway: correct, only slower).
  std::optional<KeyLock> lock(const CacheKey& key);
  /// Publishes `binary` under `key`: temporary file, then rename. Failures are warnings.
  void store(const CacheKey& key, const backend::Binary& binary, const EntryNotes& notes);

  /// The entries of the user tier, or of every tier.
  [[nodiscard]] std::vector<EntryFile> entries(bool all_tiers) const;
  /// The directories searched, read-only ones first.
  [[nodiscard]] std::vector<std::filesystem::path> tiers() const;
  /// Removes the least recently used entries of the user tier until it holds at most
  /// `max_bytes`, sparing those this process uses. Returns how many it removed.
  std::size_t evict_to(std::uint64_t max_bytes);
  /// Removes temporary files older than `age` that a killed writer left. Returns the count.
  std::size_t remove_stale_temporaries(std::chrono::seconds age);
  /// Removes every entry of the user tier. Returns the count.
  std::size_t clear();

  /// Removes an entry file and the key manifest beside it; missing files are no error.
  static void remove_entry(const std::filesystem::path& file);

  /// The path of `key`'s entry in `dir`.
  static std::filesystem::path entry_path(const std::filesystem::path& dir, const std::string& key);

 private:
  std::optional<FoundEntry> read_entry(const std::filesystem::path& dir, const CacheKey& key,
                                       bool user_tier);
  void note_in_use(const std::string& key);

  CacheSettings settings_;
  bool writable_ = false;
  bool user_readable_ = false;
  std::mutex in_use_mutex_;
  std::set<std::string> in_use_;
};

/// The process's cache, configured from the environment on first use.
DiskCache& disk_cache();
/// Replaces the process's cache (kjit-warm's --cache-dir, tests). Programs already loaded keep
/// their binaries; later lookups use the new one.
DiskCache& use_disk_cache(CacheSettings settings);

}  // namespace kjit::detail::cache
