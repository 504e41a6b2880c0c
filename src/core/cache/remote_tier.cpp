#include "core/cache/remote_tier.hpp"

#include "core/cache/cache_counters.hpp"
#include "core/cache/cache_entry.hpp"
#include "support/environment.hpp"
#include "support/logging.hpp"
#include "support/text.hpp"

#include <fmt/format.h>

#include <random>
#include <thread>
#include <utility>
#include <vector>

#include <unistd.h>

namespace kjit::detail::cache {

namespace {

constexpr int kMostTimeoutMs = 60000;
constexpr int kMostWaitMs = 3600000;

/// `ms`, or a ConfigError naming `setting` when it is outside [1, most].
std::chrono::milliseconds checked_ms(std::chrono::milliseconds ms, const char* setting, int most) {
  if (ms.count() < 1 || ms.count() > most) {
    throw ConfigError(fmt::format("kjit: {} = {} ms is not a number of milliseconds (1 to {})",
                                  setting, ms.count(), most));
  }
  return ms;
}

/// A variable's milliseconds, `fallback` when it is unset; ConfigError outside [1, most].
std::chrono::milliseconds milliseconds_from(const char* variable, int most,
                                            std::chrono::milliseconds fallback) {
  const auto ms = environment::get(variable);
  if (!ms) {
    return fallback;
  }
  const std::optional<int> value = whole_number<int>(*ms);
  if (!value || *value < 1 || *value > most) {
    throw ConfigError(fmt::format("kjit: {}='{}' is not a number of milliseconds (1 to {})",
                                  variable, *ms, most));
  }
  return std::chrono::milliseconds(*value);
}

}  // namespace

RemoteSettings RemoteSettings::from_environment() {
  RemoteSettings s;
  if (const auto url = environment::get("KJIT_CACHE_REMOTE"); url && !url->empty()) {
    s.address = parse_remote_address(*url, "KJIT_CACHE_REMOTE");
  }
  s.timeout = milliseconds_from("KJIT_CACHE_REMOTE_TIMEOUT_MS", kMostTimeoutMs, s.timeout);
  s.wait = milliseconds_from("KJIT_CACHE_REMOTE_WAIT_MS", kMostWaitMs, s.wait);
  if (const auto file = environment::get("KJIT_CACHE_REMOTE_KEY"); file && !file->empty()) {
    s.key = read_key_file(*file, "KJIT_CACHE_REMOTE_KEY");
  }
  return s;
}

RemoteSettings RemoteSettings::from_options(const RemoteCacheOptions& options) {
  RemoteSettings s;
  if (!options.url.empty()) {
    s.address = parse_remote_address(options.url, "RemoteCacheOptions::url");
  }
  s.timeout = checked_ms(options.timeout, "RemoteCacheOptions::timeout", kMostTimeoutMs);
  s.wait = checked_ms(options.wait, "RemoteCacheOptions::wait", kMostWaitMs);
  if (!options.key_file.empty()) {
    s.key = read_key_file(options.key_file, "RemoteCacheOptions::key_file");
  }
  return s;
}

RemoteTier::RemoteTier(RemoteSettings settings) : settings_(std::move(settings)) {
  std::random_device random;
  token_ = fmt::format("{}-{:08x}{:08x}", ::getpid(), random(), random());
}

bool RemoteTier::enabled() {
  const std::lock_guard lock(mutex_);
  return settings_.address && !failed_;
}

std::string RemoteTier::address() const {
  return settings_.address ? settings_.address->describe() : std::string();
}

bool RemoteTier::holds(const CacheKey& key) {
  return read(key, false, false).found == Found::entry;
}

RemoteStore* RemoteTier::store() {
  if (!settings_.address || failed_) {
    return nullptr;
  }
  if (!store_) {
    try {
      if (settings_.key) {
        signer_ = std::make_unique<EntrySigner>(*settings_.key);
      }
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
  signer_.reset();
  leases_.clear();  // they end by themselves
  counters().remote_failures.fetch_add(1, std::memory_order_relaxed);
  log().warn("kjit: the remote cache is off for this process: {}; compiling and caching locally",
             failure.what);
}

RemoteTier::Read RemoteTier::read(const CacheKey& key, bool count_miss, bool count_hit) {
  const std::lock_guard lock(mutex_);
  RemoteStore* s = store();
  if (s == nullptr) {
    return {};
  }
  std::optional<std::string> bytes;
  try {
    bytes = s->get(key.hex);
  } catch (const RemoteStoreFailure& f) {
    fail(f);
    return {};
  }
  if (!bytes) {
    if (count_miss) {
      counters().remote_misses.fetch_add(1, std::memory_order_relaxed);
    }
    return {Found::missing, std::nullopt};
  }
  std::string problem;
  std::optional<std::string_view> entry =
      signer_ ? signer_->verify(*bytes, problem) : unsigned_view(*bytes);
  Decoded d;
  if (entry) {
    d = decode_entry(*entry, key.hex);
    problem = d.problem;
  }
  if (!d.binary) {
    counters().remote_rejected.fetch_add(1, std::memory_order_relaxed);
    log().warn("kjit: the remote cache's entry {} is refused ({}); compiling it again", key.hex,
               problem);
    return {Found::bad, std::nullopt};
  }
  if (count_hit) {
    counters().remote_hits.fetch_add(1, std::memory_order_relaxed);
  }
  return {Found::entry, std::move(d.binary)};
}

RemoteTier::Leased RemoteTier::take_lease(const CacheKey& key) {
  const std::lock_guard lock(mutex_);
  RemoteStore* s = store();
  if (s == nullptr) {
    return Leased::off;
  }
  try {
    if (!s->take_lease(key.hex, token_, settings_.lease)) {
      return Leased::held;
    }
  } catch (const RemoteStoreFailure& f) {
    if (!f.no_permission) {
      fail(f);
    }
    return Leased::off;  // a user that may not take leases compiles what it misses
  }
  leases_.insert(key.hex);
  counters().remote_leases.fetch_add(1, std::memory_order_relaxed);
  if (!renewer_started_) {
    renewer_started_ = true;
    // Detached: the tier is never freed, and a process may exit while it holds a lease.
    std::thread([this] { renew_leases(); }).detach();
  }
  return Leased::taken;
}

void RemoteTier::renew_leases() {
  // A connection of its own, so that a renewal never waits behind another thread's command (a
  // large entry on a slow link): a lease must not lapse while its holder compiles.
  std::unique_ptr<RemoteStore> own;
  for (;;) {
    std::this_thread::sleep_for(settings_.lease / 4);
    std::vector<std::string> held;
    {
      const std::lock_guard lock(mutex_);
      held.assign(leases_.begin(), leases_.end());
    }
    if (held.empty() || !settings_.address) {  // leases are only taken with an address
      continue;
    }
    std::vector<std::string> lost;
    try {
      if (!own) {
        own = connect_remote_store(*settings_.address, settings_.timeout);
      }
      for (const std::string& key : held) {
        if (!own->renew_lease(key, token_, settings_.lease)) {
          lost.push_back(key);
        }
      }
    } catch (const RemoteStoreFailure& f) {
      own.reset();
      const std::lock_guard lock(mutex_);
      if (f.no_permission) {
        leases_.clear();  // a user that may not renew: the leases end by themselves
      } else if (!failed_) {
        fail(f);
      }
      continue;
    }
    const std::lock_guard lock(mutex_);
    for (const std::string& key : lost) {
      leases_.erase(key);
    }
  }
}

std::chrono::milliseconds RemoteTier::wait_bound() const {
  const std::uint64_t compiles = counters().compiles.load(std::memory_order_relaxed);
  const std::uint64_t ns = counters().compile_ns.load(std::memory_order_relaxed);
  const auto mean = std::chrono::milliseconds(compiles == 0 ? 0 : ns / compiles / 1000000);
  return mean + settings_.wait;
}

std::optional<backend::Binary> RemoteTier::fetch(const CacheKey& key) {
  using Clock = std::chrono::steady_clock;
  const Clock::time_point start = Clock::now();
  bool waited = false;
  for (auto pause = std::chrono::milliseconds(5);;
       pause = std::min(pause * 2, std::chrono::milliseconds(100))) {
    Read r = read(key, !waited);
    if (r.found != Found::missing) {
      if (r.binary && waited) {
        counters().remote_waits.fetch_add(1, std::memory_order_relaxed);
      }
      return std::move(r.binary);
    }
    const Leased leased = take_lease(key);
    if (leased == Leased::off) {
      return std::nullopt;
    }
    if (leased == Leased::taken) {
      if (waited) {  // the holder's lease ended without an entry
        counters().remote_takeovers.fetch_add(1, std::memory_order_relaxed);
      }
      // Published between the read and the lease: no compile.
      Read again = read(key, false);
      if (again.binary) {
        abandon(key);
      }
      return std::move(again.binary);
    }
    if (marked_failed(key)) {  // its holder's compile failed: this process compiles it now
      return std::nullopt;
    }
    if (Clock::now() - start > wait_bound()) {
      const std::lock_guard lock(mutex_);
      if (!std::exchange(wait_reported_, true)) {
        log().warn("kjit: another process has compiled {} for more than {} ms; compiling it here",
                   key.hex, wait_bound().count());
      }
      return std::nullopt;
    }
    waited = true;
    std::this_thread::sleep_for(pause);
  }
}

bool RemoteTier::publish(const CacheKey& key, const backend::Binary& binary) {
  const std::lock_guard lock(mutex_);
  RemoteStore* s = store();
  if (s == nullptr) {
    return false;
  }
  bool stored = false;
  try {
    if (may_write_) {
      const std::string entry = encode_entry(key.hex, binary);
      s->put(key.hex, signer_ ? signer_->sign(entry) : entry);
      counters().remote_stored.fetch_add(1, std::memory_order_relaxed);
      stored = true;
    }
  } catch (const RemoteStoreFailure& f) {
    if (!f.no_permission) {
      fail(f);
      return false;
    }
    may_write_ = false;  // a user that may only read: reading goes on
    log().warn("kjit: the remote cache takes no entries from this process ({}); reading only",
               f.what);
  }
  release_lease(key);
  return stored;
}

void RemoteTier::abandon(const CacheKey& key, bool failed) {
  const std::lock_guard lock(mutex_);
  release_lease(key, failed);
}

bool RemoteTier::marked_failed(const CacheKey& key) {
  const std::lock_guard lock(mutex_);
  RemoteStore* s = store();
  if (s == nullptr) {
    return false;
  }
  try {
    return s->marked_failed(key.hex);
  } catch (const RemoteStoreFailure& f) {
    fail(f);
    return false;
  }
}

void RemoteTier::release_lease(const CacheKey& key, bool failed) {
  if (leases_.erase(key.hex) == 0 || store_ == nullptr) {
    return;
  }
  try {
    if (failed) {
      store_->mark_failed(key.hex, token_, settings_.failure_mark);
    } else {
      store_->release_lease(key.hex, token_);
    }
  } catch (const RemoteStoreFailure& f) {
    if (!f.no_permission) {  // may not release: it ends by itself
      fail(f);
    }
  }
}

namespace {

std::mutex tier_mutex;
// Never freed, as the disk cache is not: a thread may still be using one that was replaced,
// and a process's exit must not wait on a store.
RemoteTier* current_tier = nullptr;

/// Sets the process's tier aside: kept, not freed (a thread may be using it, its renewer runs
/// on), and reachable, so that it is not lost memory. Called under tier_mutex.
void retire_current_tier() {
  static auto* retired = new std::vector<RemoteTier*>();
  if (current_tier != nullptr) {
    retired->push_back(current_tier);
    current_tier = nullptr;
  }
}

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
  retire_current_tier();
  current_tier = new RemoteTier(std::move(settings));
  return *current_tier;
}

void forget_remote_tier() {
  const std::lock_guard lock(tier_mutex);
  retire_current_tier();
}

}  // namespace kjit::detail::cache
