// A store of cache entries that many machines share: the remote tier behind the disk cache.
// Redis is the one store today (redis/redis_store.cpp); an HTTP or S3 store implements the same.
#pragma once

#include <kjit/error.hpp>

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace kjit::detail::cache {

/// Where the remote tier is: KJIT_CACHE_REMOTE's value, parsed.
struct RemoteAddress {
  std::string scheme;  // "redis" or "unix"
  std::string host;    // redis://
  int port = 6379;
  std::string socket;  // unix://: the socket's path
  std::string user;    // empty: the default user
  std::string password;
  int database = 0;
  /// The address without its password, for messages.
  [[nodiscard]] std::string describe() const;
};

/// Parses redis://[[user]:password@]host[:port][/db] or unix://[[user]:password@]/path[?db=N].
/// ConfigError naming `variable` for anything else.
RemoteAddress parse_remote_address(std::string_view text, const char* variable);

/// Thrown by a store that cannot answer (unreachable, timed out, refused): the tier then turns
/// itself off for the process. Not a kjit::Error: it never leaves the cache.
struct RemoteStoreFailure {
  std::string what;
  /// The server refused the command for lack of permission (a user that may only read): the
  /// store still answers others.
  bool no_permission = false;
};

class RemoteStore {
 public:
  virtual ~RemoteStore() = default;
  /// The bytes stored under `key`, or nullopt when there are none.
  virtual std::optional<std::string> get(const std::string& key) = 0;
  /// Stores `bytes` under `key`, replacing what was there.
  virtual void put(const std::string& key, std::string_view bytes) = 0;

  /// Takes the lease on compiling `key` for `ttl` when no one holds it: true when taken. Only
  /// `token` can renew or release it; it ends by itself after `ttl` (a holder that died).
  virtual bool take_lease(const std::string& key, const std::string& token,
                          std::chrono::milliseconds ttl) = 0;
  /// Extends the lease to `ttl` from now while `token` holds it: false when it no longer does.
  virtual bool renew_lease(const std::string& key, const std::string& token,
                           std::chrono::milliseconds ttl) = 0;
  /// Ends the lease if `token` holds it.
  virtual void release_lease(const std::string& key, const std::string& token) = 0;
  /// Turns the lease `token` holds into a mark that says its compile failed, for `ttl`: no one
  /// can take the lease meanwhile, and waiters compile at once instead of one after another.
  virtual void mark_failed(const std::string& key, const std::string& token,
                           std::chrono::milliseconds ttl) = 0;
  /// True when the lease on `key` is such a mark.
  virtual bool marked_failed(const std::string& key) = 0;
};

/// Connects to the store at `address`, waiting at most `timeout` for the connection and for each
/// command after it. Throws RemoteStoreFailure.
std::unique_ptr<RemoteStore> connect_remote_store(const RemoteAddress& address,
                                                  std::chrono::milliseconds timeout);

}  // namespace kjit::detail::cache
