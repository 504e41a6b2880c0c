#include "core/tooling/cache_tools.hpp"

#include "core/cache/cache_entry.hpp"
#include "core/cache/cache_key.hpp"
#include "core/cache/cached_build.hpp"
#include "core/cache/disk_cache.hpp"
#include "core/cache/identity_memo.hpp"
#include "core/cache/remote_tier.hpp"
#include "core/device_impl.hpp"

#include <kjit/kjit.hpp>

#include <algorithm>
#include <fstream>
#include <iterator>

namespace kjit::tooling {
namespace {

namespace cache = detail::cache;

std::vector<Entry> to_entries(const std::vector<cache::EntryFile>& files) {
  std::vector<Entry> entries;
  entries.reserve(files.size());
  for (const cache::EntryFile& f : files) {
    entries.push_back({f.file, f.key, f.bytes});
  }
  return entries;
}

}  // namespace

void open_cache(const std::optional<std::filesystem::path>& dir) {
  cache::CacheSettings settings = cache::CacheSettings::from_environment();
  if (dir) {
    if (settings.mode == detail::environment::CacheMode::off) {
      settings.mode = detail::environment::CacheMode::read_write;
    }
    settings.user_dir = std::filesystem::absolute(*dir).lexically_normal();
  }
  cache::use_disk_cache(settings);
}

CacheState cache_state() {
  const cache::DiskCache& c = cache::disk_cache();
  const cache::CacheSettings& s = c.settings();
  return {s.user_dir, s.read_only_dirs, c.tiers(), s.max_bytes, c.enabled(), c.writable()};
}

std::vector<Entry> tier_entries(const std::filesystem::path& tier) {
  cache::CacheSettings one;
  one.mode = detail::environment::CacheMode::read_only;
  one.user_dir = tier;
  return to_entries(cache::DiskCache(one).entries(false));
}

std::vector<Entry> all_entries() {
  return to_entries(cache::disk_cache().entries(true));
}

std::string entry_problem(const Entry& entry) {
  std::ifstream in(entry.file, std::ios::binary);
  const std::string bytes{std::istreambuf_iterator<char>(in), {}};
  const cache::Decoded d = cache::decode_entry(bytes, entry.key);
  return d.binary ? std::string() : d.problem;
}

void remove_entry(const std::filesystem::path& file) {
  cache::DiskCache::remove_entry(file);
}

std::size_t evict_to(std::uint64_t max_bytes) {
  return cache::disk_cache().evict_to(max_bytes);
}

std::size_t remove_stale_temporaries(std::chrono::seconds age) {
  return cache::disk_cache().remove_stale_temporaries(age);
}

std::size_t clear_cache() {
  return cache::disk_cache().clear();
}

BuildKey build_key(const backend::CompileRequest& request, const backend::TargetIdentity& target) {
  const cache::KeyResult k = cache::make_key(request, target);
  if (!k.key) {
    return {{}, {}, k.uncacheable};
  }
  return {k.key->hex, k.key->components, {}};
}

std::string precompiled_key(const backend::CompileRequest& request, const std::string& target) {
  const cache::KeyResult k = cache::make_precompiled_key(request, target);
  return k.key ? k.key->hex : std::string();
}

bool build_into_cache(const backend::CompileRequest& request, backend::Compiler& compiler) {
  return cache::build_through_cache(request, compiler, nullptr).from_cache;
}

void open_remote(const std::string& url) {
  cache::RemoteSettings settings = cache::RemoteSettings::from_environment();
  settings.address = cache::parse_remote_address(url, "--remote");
  cache::use_remote_tier(std::move(settings));
}

bool publish_to_remote(const backend::CompileRequest& request, backend::Compiler& compiler) {
  cache::RemoteTier& remote = cache::remote_tier();
  cache::DiskCache& disk = cache::disk_cache();
  if (!remote.enabled() || !disk.enabled()) {
    return false;
  }
  const std::optional<cache::CacheKey> key =
      cache::make_key(request, cache::remembered_identity(compiler, disk)).key;
  if (!key || remote.holds(*key)) {
    return false;
  }
  std::optional<cache::FoundEntry> found = disk.lookup(*key);
  if (!found || found->embedded) {
    return false;
  }
  return remote.publish(*key, found->binary);
}

std::string remote_state() {
  cache::RemoteTier& remote = cache::remote_tier();
  return remote.enabled() ? remote.address() : std::string();
}

std::vector<std::string> detected_targets() {
  std::vector<std::string> targets;
  for (const Device& d : Device::all()) {
    std::string t = d.impl()->backend().compiler().identity().target;
    if (std::find(targets.begin(), targets.end(), t) == targets.end()) {
      targets.push_back(std::move(t));
    }
  }
  return targets;
}

}  // namespace kjit::tooling
