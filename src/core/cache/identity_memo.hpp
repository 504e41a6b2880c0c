// A compiler's identity (the target half of every cache key), remembered in the disk cache under
// the compiler's probe, so that a start whose programs are all cached never loads the compiler.
#pragma once

#include "backends/kit/backend.hpp"
#include "core/cache/cache_key.hpp"

namespace kjit::detail::cache {

class DiskCache;

/// `compiler.identity()`, or the identity remembered for `compiler.identity_probe()` when the
/// files it names are unchanged. Anything unusable (no probe, cache off, a corrupt or stale
/// memo) falls back to identity(), which is then remembered if the cache is writable.
backend::TargetIdentity remembered_identity(backend::Compiler& compiler, DiskCache& cache);

/// The key an identity is remembered under, for `probe`.
CacheKey identity_memo_key(const std::string& probe);

/// Forgets what this process remembered (tests: a new process, or a compiler destroyed).
void forget_remembered_identities();

}  // namespace kjit::detail::cache
