// What the tools (kjit-warm) need of the disk cache, and no more: open it, describe it, list,
// check and remove its entries, compile a build into it and say what its key is made of. The
// tools see only this folder of the core (their include roots hold no other), so the cache's
// internals change without them.
#pragma once

#include "backends/kit/backend.hpp"

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace kjit::tooling {

/// Makes the process's cache the one KJIT_CACHE, KJIT_CACHE_DIR, KJIT_CACHE_PATH and
/// KJIT_CACHE_MAX_BYTES describe, or, with `dir`, that folder as the user tier (read-write even
/// under KJIT_CACHE=off: naming a folder asks for it). ConfigError for a malformed variable.
void open_cache(const std::optional<std::filesystem::path>& dir);

/// Where the cache is and what it may do.
struct CacheState {
  std::filesystem::path user_dir;
  std::vector<std::filesystem::path> read_only_dirs;
  std::vector<std::filesystem::path> tiers;  // every folder searched, read-only ones first
  std::optional<std::uint64_t> max_bytes;
  bool enabled = false;
  bool writable = false;
};
CacheState cache_state();

/// One entry file.
struct Entry {
  std::filesystem::path file;
  std::string key;
  std::uint64_t bytes = 0;  // the entry and its key manifest
};
/// The entries of one tier's folder.
std::vector<Entry> tier_entries(const std::filesystem::path& tier);
/// The entries of every tier.
std::vector<Entry> all_entries();
/// Why the entry would not load (truncated, checksum mismatch, another key's), or "" when it
/// would.
std::string entry_problem(const Entry& entry);
/// Removes an entry file and the key manifest beside it.
void remove_entry(const std::filesystem::path& file);
/// Removes the least recently used entries of the user tier down to `max_bytes`; the count.
std::size_t evict_to(std::uint64_t max_bytes);
/// Removes temporary files older than `age` that killed writers left; the count.
std::size_t remove_stale_temporaries(std::chrono::seconds age);
/// Removes every entry of the user tier; the count.
std::size_t clear_cache();

/// A build's key and what went into it, in order (name, value or hash); `hex` is empty when
/// the build cannot be cached, and `uncacheable` says why.
struct BuildKey {
  std::string hex;
  std::vector<std::pair<std::string, std::string>> components;
  std::string uncacheable;
};
BuildKey build_key(const backend::CompileRequest& request, const backend::TargetIdentity& target);
/// The second key of a build precompiled into a program (without the compiler's identity), ""
/// when it has none.
std::string precompiled_key(const backend::CompileRequest& request, const std::string& target);

/// Compiles `request` with `compiler` into the cache unless an entry that verifies is there;
/// true when it was. Compile errors are thrown as kjit::Error.
bool build_into_cache(const backend::CompileRequest& request, backend::Compiler& compiler);

/// Uses the Redis server at `url` as the remote tier (kjit-warm --remote), with
/// KJIT_CACHE_REMOTE_TIMEOUT_MS and KJIT_CACHE_REMOTE_KEY as the environment sets them.
/// ConfigError for a malformed URL.
void open_remote(const std::string& url);
/// With a remote tier: makes sure it holds `request`'s entry, publishing the disk cache's when
/// it does not (an entry already on disk is otherwise never sent). True when it was published.
bool publish_to_remote(const backend::CompileRequest& request, backend::Compiler& compiler);
/// The remote tier's address without its password, "" when there is none or it failed.
std::string remote_state();

/// The targets of the devices present, as their runtime compilers name them, each once.
std::vector<std::string> detected_targets();

}  // namespace kjit::tooling
