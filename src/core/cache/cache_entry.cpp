#include "core/cache/cache_entry.hpp"

#include "core/cache/cache_key.hpp"
#include "support/hash.hpp"

#include <fmt/format.h>

#include <bit>
#include <cstring>

namespace kjit::detail::cache {

static_assert(std::endian::native == std::endian::little, "entries are written little-endian");

namespace {

constexpr std::string_view kMagic = "KJITENTR";
constexpr std::size_t kKeyDigits = 32;

template <class T>
void put(std::string& out, T value) {
  char bytes[sizeof(T)];
  std::memcpy(bytes, &value, sizeof(T));
  out.append(bytes, sizeof(T));
}

void put_string(std::string& out, std::string_view s) {
  put(out, static_cast<std::uint32_t>(s.size()));
  out.append(s);
}

/// Reads fields from a payload; any read past its end sets `failed` and yields empty values.
class Reader {
 public:
  explicit Reader(std::string_view data) : data_(data) {}

  template <class T>
  T get() {
    T value{};
    if (!take(sizeof(T))) {
      return value;
    }
    std::memcpy(&value, data_.data() + at_ - sizeof(T), sizeof(T));
    return value;
  }

  std::string get_bytes(std::uint64_t n) {
    if (n > data_.size() - at_ || !take(static_cast<std::size_t>(n))) {
      failed_ = true;
      return {};
    }
    return std::string(data_.substr(at_ - n, n));
  }

  std::string get_string() { return get_bytes(get<std::uint32_t>()); }
  [[nodiscard]] bool failed() const noexcept { return failed_; }
  [[nodiscard]] bool at_end() const noexcept { return at_ == data_.size(); }

 private:
  bool take(std::size_t n) {
    if (failed_ || n > data_.size() - at_) {
      failed_ = true;
      return false;
    }
    at_ += n;
    return true;
  }
  std::string_view data_;
  std::size_t at_ = 0;
  bool failed_ = false;
};

}  // namespace

std::string encode_entry(const std::string& key_hex, const backend::Binary& binary) {
  std::string payload;
  put_string(payload, binary.format);
  put_string(payload, binary.program);
  put(payload, static_cast<std::uint32_t>(binary.kernel_symbols.size()));
  for (const std::string& s : binary.kernel_symbols) {
    put_string(payload, s);
  }
  put_string(payload, binary.log);
  put(payload, static_cast<std::uint64_t>(binary.bytes.size()));
  payload.append(reinterpret_cast<const char*>(binary.bytes.data()), binary.bytes.size());
  return frame_entry(key_hex, payload);
}

std::string frame_entry(const std::string& key_hex, std::string_view payload) {
  std::string out;
  out.reserve(kHeaderBytes + payload.size());
  out.append(kMagic);
  put(out, static_cast<std::uint32_t>(kFormatVersion));
  put(out, static_cast<std::uint32_t>(kHeaderBytes));
  std::string key = key_hex;
  key.resize(kKeyDigits, '0');
  out.append(key);
  put(out, static_cast<std::uint64_t>(payload.size()));
  put(out, hash64(payload));
  out.append(payload);
  return out;
}

Decoded decode_entry(std::string_view bytes, const std::string& expected_key) {
  if (bytes.size() < kHeaderBytes) {
    return {std::nullopt, fmt::format("truncated: {} bytes, shorter than the {}-byte header",
                                      bytes.size(), kHeaderBytes)};
  }
  Reader header(bytes.substr(0, kHeaderBytes));
  if (header.get_bytes(kMagic.size()) != kMagic) {
    return {std::nullopt, "not a kjit cache entry (wrong magic)"};
  }
  const auto version = header.get<std::uint32_t>();
  const auto header_bytes = header.get<std::uint32_t>();
  if (version != kFormatVersion || header_bytes != kHeaderBytes) {
    return {std::nullopt,
            fmt::format("cache format {} (this kjit reads format {})", version, kFormatVersion)};
  }
  const std::string key = header.get_bytes(kKeyDigits);
  if (key != expected_key) {
    return {std::nullopt, fmt::format("it holds key {}, not {}", key, expected_key)};
  }
  const auto length = header.get<std::uint64_t>();
  const auto checksum = header.get<std::uint64_t>();
  const std::string_view payload = bytes.substr(kHeaderBytes);
  if (length != payload.size()) {
    return {std::nullopt, fmt::format("truncated or padded: the header promises {} payload bytes, "
                                      "the file has {}",
                                      length, payload.size())};
  }
  if (hash64(payload) != checksum) {
    return {std::nullopt, "checksum mismatch: the payload was altered"};
  }
  Reader r(payload);
  backend::Binary b;
  b.format = r.get_string();
  b.program = r.get_string();
  const auto symbols = r.get<std::uint32_t>();
  for (std::uint32_t i = 0; i < symbols && !r.failed(); ++i) {
    b.kernel_symbols.push_back(r.get_string());
  }
  b.log = r.get_string();
  const std::string code = r.get_bytes(r.get<std::uint64_t>());
  if (r.failed() || !r.at_end()) {
    return {std::nullopt, "malformed payload (its checksum matched: written by another kjit?)"};
  }
  b.bytes.assign(code.begin(), code.end());
  return {std::move(b), {}};
}

}  // namespace kjit::detail::cache
