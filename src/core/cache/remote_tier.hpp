// The process's remote tier (KJIT_CACHE_REMOTE): searched after the disk cache misses, and
// given every program compiled. A remote entry is checked as a disk entry is (key, length,
// checksum) before it is used. A store that cannot be reached, times out or refuses is reported
// once and left alone for the rest of the process, which goes on as if none were configured.
#pragma once

#include "backends/kit/backend.hpp"
#include "core/cache/cache_key.hpp"
#include "core/cache/entry_signing.hpp"
#include "core/cache/remote_store.hpp"

#include <kjit/cache.hpp>

#include <chrono>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>

namespace kjit::detail::cache {

struct RemoteSettings {
  std::optional<RemoteAddress> address;  // none: no remote tier
  /// The fleet's secret (KJIT_CACHE_REMOTE_KEY's file): entries are signed with it, and entries
  /// without a valid tag are refused. None: entries are not signed, and no tag is checked.
  std::optional<std::string> key;
  /// How long connecting, and then each command, may wait.
  std::chrono::milliseconds timeout{50};
  /// A compile's lease lasts this long unless renewed (its holder renews it every quarter of it):
  /// how soon another process takes over from a holder that died.
  std::chrono::milliseconds lease{2000};
  /// How much longer than this process's own mean compile a process waits for another's compile
  /// before compiling itself (KJIT_CACHE_REMOTE_WAIT_MS).
  std::chrono::milliseconds wait{10000};
  /// How long a failed compile's mark stays on its lease: meanwhile, every process that misses
  /// the key compiles it at once (and meets the error itself) instead of waiting its turn.
  std::chrono::milliseconds failure_mark{30000};

  /// From KJIT_CACHE_REMOTE, KJIT_CACHE_REMOTE_TIMEOUT_MS, KJIT_CACHE_REMOTE_WAIT_MS and
  /// KJIT_CACHE_REMOTE_KEY; ConfigError
  /// when one is malformed (or the key file is short or open to others).
  static RemoteSettings from_environment();
  /// From the program's options (kjit::set_remote_cache), with the same checks.
  static RemoteSettings from_options(const RemoteCacheOptions& options);
};

class RemoteTier {
 public:
  explicit RemoteTier(RemoteSettings settings);

  /// True when a store is configured and has not failed.
  [[nodiscard]] bool enabled();
  /// The store's address without its password ("" without one).
  [[nodiscard]] std::string address() const;
  /// True when the store holds a valid entry for `key` (kjit-warm --remote: what to publish).
  [[nodiscard]] bool holds(const CacheKey& key);
  /// The verified entry under `key`, or nullopt, and then the caller compiles it. When no
  /// process compiles it, this one takes the lease on it (publish() or abandon() ends it); when
  /// another does, this waits for its entry, takes over when its lease ends without one (the
  /// holder died or failed), and compiles anyway past the wait bound. A bad entry (reported,
  /// counted as rejected) or a store that failed: nullopt, without a lease.
  std::optional<backend::Binary> fetch(const CacheKey& key);
  /// Stores `binary` under `key` for every process that shares the store, and ends this
  /// process's lease on it. True when the store took it.
  bool publish(const CacheKey& key, const backend::Binary& binary);
  /// Ends this process's lease on `key`, if it holds one, so that a waiter takes over at once;
  /// `failed`: its compile failed, and the lease becomes a mark that lets every waiter compile
  /// at once (and meet the error itself) rather than one after another.
  void abandon(const CacheKey& key, bool failed = false);

 private:
  enum class Found { entry, missing, bad, off };
  struct Read {
    Found found = Found::off;
    std::optional<backend::Binary> binary;
  };
  enum class Leased { taken, held, off };

  /// The connected store, or nullptr when there is none or it failed. Called under mutex_.
  RemoteStore* store();
  void fail(const RemoteStoreFailure& failure);
  /// Ends this process's lease on `key`, if it holds one (marking it `failed`). Called under
  /// mutex_.
  void release_lease(const CacheKey& key, bool failed = false);
  /// True when the lease on `key` marks a failed compile.
  bool marked_failed(const CacheKey& key);
  Read read(const CacheKey& key, bool count_miss, bool count_hit = true);
  Leased take_lease(const CacheKey& key);
  /// The renewer thread's loop: renews every lease held, a quarter of a lease apart, on a
  /// connection of its own.
  [[noreturn]] void renew_leases();
  [[nodiscard]] std::chrono::milliseconds wait_bound() const;

  RemoteSettings settings_;
  std::mutex mutex_;  // one command at a time on the one connection
  std::unique_ptr<RemoteStore> store_;
  std::unique_ptr<EntrySigner> signer_;  // with a key, made with the store
  bool failed_ = false;
  bool may_write_ = true;         // false once the store refused an entry for lack of permission
  std::string token_;             // this process's, in every lease it takes
  std::set<std::string> leases_;  // keys whose lease this process holds
  bool renewer_started_ = false;
  bool wait_reported_ = false;
};

/// The process's remote tier, configured from the environment on first use.
RemoteTier& remote_tier();
/// Replaces it (tests, kjit-warm --remote).
RemoteTier& use_remote_tier(RemoteSettings settings);
/// Makes the next remote_tier() configure itself from the environment again (tests).
void forget_remote_tier();

}  // namespace kjit::detail::cache
