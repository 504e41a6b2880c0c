// The disk cache's key: a hash of everything that changes a compiled program's bytes.
#pragma once

#include "backends/kit/backend.hpp"

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace kjit::detail::cache {

/// Bumped whenever the entry layout or the key's recipe changes: old entries then miss.
inline constexpr unsigned kFormatVersion = 1;

struct CacheKey {
  std::string hex;  // 32 hex digits: the entry's file name
  /// What went into it, in order (name, value or hash): written beside the entry so that
  /// `kjit-warm explain` can say why a lookup missed.
  std::vector<std::pair<std::string, std::string>> components;
};

struct KeyResult {
  std::optional<CacheKey> key;
  std::string uncacheable;  // why there is no key, when there is none
};

/// A key whose components start with the cache format and kjit's version and sources: what
/// every key holds first. Add the rest, then seal().
CacheKey key_for_this_kjit();
/// Sets key.hex from key.components.
void seal(CacheKey& key);

/// The key of `request` compiled by a compiler of `target`.
KeyResult make_key(const backend::CompileRequest& request, const backend::TargetIdentity& target);
/// The second key of a build precompiled into a program (kjit_add_kernels' PRECOMPILE): the same
/// without the compiler's identity, for a process that cannot load the compiler to learn it.
KeyResult make_precompiled_key(const backend::CompileRequest& request, const std::string& target);

/// A fingerprint of kjit's own sources (computed at build time): a kjit built from other sources
/// never loads this one's entries.
const char* source_fingerprint();

}  // namespace kjit::detail::cache
