// libFuzzer target: the cache entry decoder. An entry read from disk may hold any bytes; decoding
// must never crash, and what it accepts must be exactly what encode_entry() would write.
//
// The first input byte picks how the rest is used: even, as a whole entry (the header checks);
// odd, as a payload under a header with the right key, length and checksum (the payload
// parser, which random bytes would never reach past the checksum).
#include "jit/cache/cache_entry.hpp"
#include "jit/cache/cache_hash.hpp"
#include "jit/cache/cache_key.hpp"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>

namespace {

const std::string kKey = "0123456789abcdef0123456789abcdef";

template <class T>
void put(std::string& out, T value) {
  char bytes[sizeof(T)];
  std::memcpy(bytes, &value, sizeof(T));
  out.append(bytes, sizeof(T));
}

/// A header that the decoder accepts, around `payload`.
std::string framed(std::string_view payload) {
  std::string out = "KJITENTR";
  put(out, static_cast<std::uint32_t>(kjit::detail::cache::kFormatVersion));
  put(out, static_cast<std::uint32_t>(kjit::detail::cache::kHeaderBytes));
  out += kKey;
  put(out, static_cast<std::uint64_t>(payload.size()));
  put(out, kjit::detail::cache::hash64(payload));
  out += payload;
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) {
    return 0;
  }
  const std::string_view rest(reinterpret_cast<const char*>(data) + 1, size - 1);
  const std::string entry = (data[0] & 1) != 0 ? framed(rest) : std::string(rest);
  const auto decoded = kjit::detail::cache::decode_entry(entry, kKey);
  if (decoded.binary.has_value() == !decoded.problem.empty()) {
    std::abort();  // exactly one of a binary and a reason
  }
  if (decoded.binary && kjit::detail::cache::encode_entry(kKey, *decoded.binary) != entry) {
    std::abort();  // accepted bytes that kjit would not have written
  }
  return 0;
}
