// kjit::cache_stats() and kjit::cache_config(): the public view of the disk cache.
#include "core/cache/cache_counters.hpp"
#include "core/cache/disk_cache.hpp"
#include "core/cache/remote_tier.hpp"
#include "core/embedded_entries.hpp"

#include <kjit/cache.hpp>

namespace kjit {

CacheStats cache_stats() {
  const detail::cache::Counters& c = detail::cache::counters();
  const auto get = [](const std::atomic<std::uint64_t>& v) {
    return v.load(std::memory_order_relaxed);
  };
  CacheStats s;
  s.hits = get(c.hits);
  s.misses = get(c.misses);
  s.compiles = get(c.compiles);
  s.stored = get(c.stored);
  s.rejected = get(c.rejected);
  s.evicted = get(c.evicted);
  s.waits = get(c.waits);
  s.remote_hits = get(c.remote_hits);
  s.remote_misses = get(c.remote_misses);
  s.remote_stored = get(c.remote_stored);
  s.remote_rejected = get(c.remote_rejected);
  s.remote_failures = get(c.remote_failures);
  s.remote_leases = get(c.remote_leases);
  s.remote_waits = get(c.remote_waits);
  s.remote_takeovers = get(c.remote_takeovers);
  s.compile_ms = static_cast<double>(get(c.compile_ns)) / 1e6;
  s.load_ms = static_cast<double>(get(c.load_ns)) / 1e6;
  return s;
}

CacheConfig cache_config() {
  detail::cache::DiskCache& cache = detail::cache::disk_cache();
  const detail::cache::CacheSettings& s = cache.settings();
  CacheConfig c;
  c.enabled = cache.enabled();
  c.writable = cache.writable();
  c.directory = s.user_dir;
  c.read_only_directories = s.read_only_dirs;
  c.max_bytes = s.max_bytes.value_or(0);
  c.embedded_entries = detail::embedded_entry_count();
  c.remote = detail::cache::remote_tier().address();
  return c;
}

void set_remote_cache(const RemoteCacheOptions& options) {
  detail::cache::use_remote_tier(detail::cache::RemoteSettings::from_options(options));
}

}  // namespace kjit
