#include "support/hash.hpp"

#define XXH_INLINE_ALL  // header-only use: libkjit.so gains no run-time dependency
#include <xxhash.h>

#include <fmt/format.h>

namespace kjit::detail {

std::string hash128_hex(std::string_view data) {
  const XXH128_hash_t h = XXH3_128bits(data.data(), data.size());
  return fmt::format("{:016x}{:016x}", h.high64, h.low64);
}

std::uint64_t hash64(std::string_view data) {
  return XXH3_64bits(data.data(), data.size());
}

}  // namespace kjit::detail
