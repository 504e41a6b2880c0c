#include "core/cache/identity_memo.hpp"

#include "core/cache/cache_key.hpp"
#include "core/cache/disk_cache.hpp"
#include "support/library_search.hpp"
#include "support/logging.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <map>
#include <mutex>

namespace kjit::detail::cache {

namespace {

/// The format of an entry that holds a compiler identity instead of a binary.
constexpr std::string_view kIdentityFormat = "compiler-identity";

/// This process's, by compiler: a compiler's library, once chosen, does not change while the
/// process runs (and a compile checks the identity again: cached_build.cpp).
struct Remembered {
  std::mutex mutex;
  std::map<const backend::Compiler*, backend::TargetIdentity> by_compiler;
};

Remembered& remembered() {
  static Remembered r;
  return r;
}

}  // namespace

CacheKey identity_memo_key(const std::string& probe) {
  CacheKey key = key_for_this_kjit();
  key.components.emplace_back("compiler identity probe", probe);
  seal(key);
  return key;
}

namespace {

/// The identity an entry holds, if its files still have the stamps it recorded. `malformed`
/// tells an entry that is not an identity from one that is stale (the library was replaced).
std::optional<backend::TargetIdentity> read_memo(const FoundEntry& found, bool& malformed) {
  malformed = true;
  if (found.binary.format != kIdentityFormat) {
    return std::nullopt;
  }
  const auto json = nlohmann::json::parse(found.binary.bytes.begin(), found.binary.bytes.end(),
                                          nullptr, /*allow_exceptions=*/false);
  if (!json.is_object() || !json.contains("target") || !json.contains("facts") ||
      !json.contains("files")) {
    return std::nullopt;
  }
  try {
    backend::TargetIdentity identity;
    identity.target = json.at("target").get<std::string>();
    for (const auto& fact : json.at("facts")) {
      identity.facts.emplace_back(fact.at(0).get<std::string>(), fact.at(1).get<std::string>());
    }
    for (const auto& file : json.at("files")) {
      const std::filesystem::path path = file.at(0).get<std::string>();
      if (backend::file_stamp(path) != file.at(1).get<std::string>()) {
        malformed = false;
        log().debug("kjit: the compiler identity remembered in '{}' is stale: '{}' changed",
                    found.file.string(), path.string());
        return std::nullopt;
      }
      identity.files.push_back(path);
    }
    return identity;
  } catch (const nlohmann::json::exception&) {
    return std::nullopt;
  }
}

/// What to store for `identity`, or nullopt when one of its files cannot be stamped.
std::optional<backend::Binary> memo_entry(const backend::TargetIdentity& identity) {
  nlohmann::ordered_json json;
  json["target"] = identity.target;
  auto& facts = json["facts"] = nlohmann::ordered_json::array();
  for (const auto& [name, value] : identity.facts) {
    facts.push_back({name, value});
  }
  auto& files = json["files"] = nlohmann::ordered_json::array();
  for (const auto& file : identity.files) {
    const std::optional<std::string> stamp = backend::file_stamp(file);
    if (!stamp) {
      return std::nullopt;
    }
    files.push_back({file.string(), *stamp});
  }
  const std::string text = json.dump(2);
  backend::Binary binary;
  binary.program = "compiler identity for " + identity.target;
  binary.format = std::string(kIdentityFormat);
  binary.bytes.assign(text.begin(), text.end());
  return binary;
}

}  // namespace

backend::TargetIdentity remembered_identity(backend::Compiler& compiler, DiskCache& cache) {
  Remembered& r = remembered();
  {
    const std::lock_guard lock(r.mutex);
    if (const auto it = r.by_compiler.find(&compiler); it != r.by_compiler.end()) {
      return it->second;
    }
  }
  std::optional<std::string> probe;
  if (cache.enabled()) {
    probe = compiler.identity_probe();
  }
  if (!probe) {
    return compiler.identity();
  }
  const CacheKey key = identity_memo_key(*probe);
  std::optional<backend::TargetIdentity> identity;
  if (std::optional<FoundEntry> found = cache.lookup(key)) {
    bool malformed = false;
    identity = read_memo(*found, malformed);
    if (!identity && malformed) {
      cache.discard(*found, "it is not a usable compiler identity");
    }
  }
  if (!identity) {
    identity = compiler.identity();  // loads the compiler
    if (std::optional<backend::Binary> entry = memo_entry(*identity)) {
      cache.store(key, *entry, {entry->program, 0, /*counted=*/false});
    }
  }
  const std::lock_guard lock(r.mutex);
  return r.by_compiler.emplace(&compiler, *identity).first->second;
}

void forget_remembered_identities() {
  Remembered& r = remembered();
  const std::lock_guard lock(r.mutex);
  r.by_compiler.clear();
}

}  // namespace kjit::detail::cache
