// libFuzzer target: the cache entry decoder. An entry read from disk may hold any bytes; decoding
// must never crash, and what it accepts must be exactly what encode_entry() would write.
//
// The first input byte picks how the rest is used: even, as a whole entry (the header checks);
// odd, as a payload under a header with the right key, length and checksum (the payload
// parser, which random bytes would never reach past the checksum).
#include "core/cache/cache_entry.hpp"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

namespace {

const std::string kKey = "0123456789abcdef0123456789abcdef";

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) {
    return 0;
  }
  const std::string_view rest(reinterpret_cast<const char*>(data) + 1, size - 1);
  const std::string entry =
      (data[0] & 1) != 0 ? kjit::detail::cache::frame_entry(kKey, rest) : std::string(rest);
  const auto decoded = kjit::detail::cache::decode_entry(entry, kKey);
  if (decoded.binary.has_value() == !decoded.problem.empty()) {
    std::abort();  // exactly one of a binary and a reason
  }
  if (decoded.binary && kjit::detail::cache::encode_entry(kKey, *decoded.binary) != entry) {
    std::abort();  // accepted bytes that kjit would not have written
  }
  return 0;
}
