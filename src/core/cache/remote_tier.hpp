// The process's remote tier (KJIT_CACHE_REMOTE): searched after the disk cache misses, and
// given every program compiled. A remote entry is checked as a disk entry is (key, length,
// checksum) before it is used. A store that cannot be reached, times out or refuses is reported
// once and left alone for the rest of the process, which goes on as if none were configured.
#pragma once

#include "backends/kit/backend.hpp"
#include "core/cache/cache_key.hpp"
#include "core/cache/remote_store.hpp"

#include <chrono>
#include <memory>
#include <mutex>
#include <optional>

namespace kjit::detail::cache {

struct RemoteSettings {
  std::optional<RemoteAddress> address;  // none: no remote tier
  /// How long connecting, and then each command, may wait.
  std::chrono::milliseconds timeout{50};

  /// From KJIT_CACHE_REMOTE and KJIT_CACHE_REMOTE_TIMEOUT_MS; ConfigError when malformed.
  static RemoteSettings from_environment();
};

class RemoteTier {
 public:
  explicit RemoteTier(RemoteSettings settings) : settings_(std::move(settings)) {}

  /// True when a store is configured and has not failed.
  [[nodiscard]] bool enabled();
  /// The verified entry under `key`, or nullopt: none there, a bad one (reported, counted as
  /// rejected; the compile that follows replaces it), or the store failed.
  std::optional<backend::Binary> lookup(const CacheKey& key);
  /// Stores `binary` under `key` for every process that shares the store.
  void publish(const CacheKey& key, const backend::Binary& binary);

 private:
  /// The connected store, or nullptr when there is none or it failed. Called under mutex_.
  RemoteStore* store();
  void fail(const RemoteStoreFailure& failure);

  RemoteSettings settings_;
  std::mutex mutex_;  // one command at a time on the one connection
  std::unique_ptr<RemoteStore> store_;
  bool failed_ = false;
};

/// The process's remote tier, configured from the environment on first use.
RemoteTier& remote_tier();
/// Replaces it (tests, kjit-warm --remote).
RemoteTier& use_remote_tier(RemoteSettings settings);

}  // namespace kjit::detail::cache
