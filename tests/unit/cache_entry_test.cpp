// The entry format: every way a file can be damaged is detected, and nothing is trusted blindly.
#include "core/cache/cache_entry.hpp"

#include <gtest/gtest.h>

#include <random>

namespace kjit::detail::cache {
namespace {

const std::string kKey = "0123456789abcdef0123456789abcdef";

backend::Binary sample() {
  backend::Binary b;
  b.program = "saxpy.cu";
  b.format = "cubin";
  b.kernel_symbols = {"_Z5saxpyfPKfPfi", "_Z4vaddPKfS0_Pfi"};
  b.log = "warning: something";
  std::mt19937 rng(7);
  for (int i = 0; i < 5000; ++i) {
    b.bytes.push_back(static_cast<std::uint8_t>(rng()));
  }
  return b;
}

TEST(CacheEntry, RoundTrips) {
  const backend::Binary b = sample();
  const Decoded d = decode_entry(encode_entry(kKey, b), kKey);
  ASSERT_TRUE(d.binary) << d.problem;
  EXPECT_EQ(d.binary->program, b.program);
  EXPECT_EQ(d.binary->format, b.format);
  EXPECT_EQ(d.binary->kernel_symbols, b.kernel_symbols);
  EXPECT_EQ(d.binary->log, b.log);
  EXPECT_EQ(d.binary->bytes, b.bytes);
}

TEST(CacheEntry, EveryTruncationIsDetected) {
  const std::string bytes = encode_entry(kKey, sample());
  for (std::size_t n = 0; n < bytes.size(); n += (n < 200 ? 1 : 97)) {
    const Decoded d = decode_entry(std::string_view(bytes).substr(0, n), kKey);
    EXPECT_FALSE(d.binary) << "accepted a file cut to " << n << " bytes";
    EXPECT_FALSE(d.problem.empty());
  }
}

TEST(CacheEntry, EveryFlippedByteIsDetected) {
  const std::string bytes = encode_entry(kKey, sample());
  for (std::size_t at = 0; at < bytes.size(); at += (at < 200 ? 1 : 31)) {
    std::string damaged = bytes;
    damaged[at] = static_cast<char>(damaged[at] ^ 0x5A);
    const Decoded d = decode_entry(damaged, kKey);
    EXPECT_FALSE(d.binary) << "accepted a file with byte " << at << " flipped";
  }
}

TEST(CacheEntry, WrongMagicKeyVersionAndPaddingAreNamed) {
  const std::string bytes = encode_entry(kKey, sample());
  std::string magic = bytes;
  magic[0] = 'X';
  EXPECT_NE(decode_entry(magic, kKey).problem.find("magic"), std::string::npos);
  EXPECT_NE(decode_entry(bytes, "ffffffffffffffffffffffffffffffff").problem.find("key"),
            std::string::npos);
  std::string version = bytes;
  version[8] = 99;
  EXPECT_NE(decode_entry(version, kKey).problem.find("format"), std::string::npos);
  EXPECT_NE(decode_entry(bytes + "x", kKey).problem.find("padded"), std::string::npos);
  EXPECT_FALSE(decode_entry("", kKey).binary);
  EXPECT_FALSE(decode_entry(std::string(100000, '\0'), kKey).binary);
}

TEST(CacheEntry, RandomGarbageNeverDecodes) {
  std::mt19937_64 rng(11);
  for (int trial = 0; trial < 500; ++trial) {
    std::string junk(rng() % 300, '\0');
    for (char& c : junk) {
      c = static_cast<char>(rng());
    }
    if (trial % 2 == 0 && junk.size() >= 8) {
      junk.replace(0, 8, "KJITENTR");  // past the magic, into the header's other checks
    }
    EXPECT_FALSE(decode_entry(junk, kKey).binary);
  }
}

}  // namespace
}  // namespace kjit::detail::cache
