// The bytes of one cache entry: a header (magic, format version, key, payload length, payload
// checksum) and the compiled program. Pure functions: no files here, so they can be fuzzed.
#pragma once

#include "backends/kit/backend.hpp"

#include <optional>
#include <string>
#include <string_view>

namespace kjit::detail::cache {

inline constexpr std::size_t kHeaderBytes = 64;

/// The entry for `binary` under the key `key_hex` (32 hex digits).
std::string encode_entry(const std::string& key_hex, const backend::Binary& binary);

/// The entry around an already encoded `payload`: the header, with its length and checksum.
/// encode_entry() ends with it; the cache entry fuzzer frames raw payloads with it.
std::string frame_entry(const std::string& key_hex, std::string_view payload);

struct Decoded {
  std::optional<backend::Binary> binary;
  std::string problem;  // why there is no binary: "truncated: ...", "checksum mismatch", ...
};

/// Checks every field of `bytes` against `expected_key` and returns the binary, or why not.
/// Never throws on malformed input.
Decoded decode_entry(std::string_view bytes, const std::string& expected_key);

}  // namespace kjit::detail::cache
