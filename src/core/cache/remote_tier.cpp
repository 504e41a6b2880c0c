#include "core/cache/remote_tier.hpp"

#include "core/cache/cache_counters.hpp"
#include "core/cache/cache_entry.hpp"
#include "support/environment.hpp"
#include "support/logging.hpp"

#include <fmt/format.h>

#include <charconv>

namespace kjit::detail::cache {

RemoteSettings RemoteSettings::from_environment() {
  RemoteSettings s;
  if (const auto url = environment::get("KJIT_CACHE_REMOTE"); url && !url->empty()) {
    s.address = parse_remote_address(*url, "KJIT_CACHE_REMOTE");
  }
  if (const auto ms = environment::get("KJIT_CACHE_REMOTE_TIMEOUT_MS")) {
    int value = 0;
    const auto [end, ec] = std::from_chars(ms->data(), ms->data() + ms->size(), value);
    if (ms->empty() || ec != std::errc() || end != ms->data() + ms->size() || value < 1 ||
        value > 60000) {
      throw ConfigError(fmt::format(
          "kjit: KJIT_CACHE_REMOTE_TIMEOUT_MS='{}' is not a number of milliseconds (1 to 60000)",
          *ms));
    }
    s.timeout = std::chrono::milliseconds(value);
  }
  return s;
}

bool RemoteTier::enabled() {
  const std::lock_guard lock(mutex_);
  return settings_.address && !failed_;
}

RemoteStore* RemoteTier::store() {
  if (!settings_.address || failed_) {
    return nullptr;
  }
  if (!store_) {
    try {
      store_ = connect_remote_store(*settings_.address, settings_.timeout);
    } catch (const RemoteStoreFailure& f) {
      fail(f);
      return nullptr;
    }
  }
  return store_.get();
}

void RemoteTier::fail(const RemoteStoreFailure& failure) {
  failed_ = true;
  store_.reset();
  counters().remote_failures.fetch_add(1, std::memory_order_relaxed);
  log().warn("kjit: the remote cache is off for this process: {}; compiling and caching locally",
             failure.what);
}

std::optional<backend::Binary> RemoteTier::lookup(const CacheKey& key) {
  const std::lock_guard lock(mutex_);
  RemoteStore* s = store();
  if (s == nullptr) {
    return std::nullopt;
  }
  std::optional<std::string> bytes;
  try {
    bytes = s->get(key.hex);
  } catch (const RemoteStoreFailure& f) {
    fail(f);
    return std::nullopt;
  }
  if (!bytes) {
    counters().remote_misses.fetch_add(1, std::memory_order_relaxed);
    return std::nullopt;
  }
  Decoded d = decode_entry(*bytes, key.hex);
  if (!d.binary) {
    counters().remote_rejected.fetch_add(1, std::memory_order_relaxed);
    log().warn("kjit: the remote cache's entry {} is refused ({}); compiling it again", key.hex,
               d.problem);
    return std::nullopt;
  }
  counters().remote_hits.fetch_add(1, std::memory_order_relaxed);
  return std::move(d.binary);
}

void RemoteTier::publish(const CacheKey& key, const backend::Binary& binary) {
  const std::lock_guard lock(mutex_);
  RemoteStore* s = store();
  if (s == nullptr) {
    return;
  }
  try {
    s->put(key.hex, encode_entry(key.hex, binary));
    counters().remote_stored.fetch_add(1, std::memory_order_relaxed);
  } catch (const RemoteStoreFailure& f) {
    fail(f);
  }
}

namespace {

std::mutex tier_mutex;
// Never freed, as the disk cache is not: a thread may still be using one that was replaced,
// and a process's exit must not wait on a store.
RemoteTier* current_tier = nullptr;

}  // namespace

RemoteTier& remote_tier() {
  const std::lock_guard lock(tier_mutex);
  if (current_tier == nullptr) {
    current_tier = new RemoteTier(RemoteSettings::from_environment());  // may throw ConfigError
  }
  return *current_tier;
}

RemoteTier& use_remote_tier(RemoteSettings settings) {
  const std::lock_guard lock(tier_mutex);
  current_tier = new RemoteTier(std::move(settings));
  return *current_tier;
}

}  // namespace kjit::detail::cache
