// The hashes kjit uses: 128-bit XXH3 for cache keys and file contents, 64-bit XXH3 for cache
// entries' checksums. Fast and well distributed; not cryptographic: the cache's protection against
// other users is file ownership and permissions, not the hash (docs/cache.md).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace kjit::detail {

/// XXH3-128 of `data` as 32 lowercase hex digits.
std::string hash128_hex(std::string_view data);
/// XXH3-64 of `data`.
std::uint64_t hash64(std::string_view data);

}  // namespace kjit::detail
