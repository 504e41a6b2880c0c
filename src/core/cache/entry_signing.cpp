#include "core/cache/entry_signing.hpp"

#include "core/cache/remote_store.hpp"
#include "support/dynamic_library.hpp"
#include "support/file_text.hpp"

#include <kjit/error.hpp>

#include <sys/stat.h>

#include <fmt/format.h>

#include <array>
#include <cstdint>
#include <mutex>

namespace kjit::detail::cache {

namespace {

constexpr std::string_view kMagic = "KJITSIG1";  // then the 32-byte tag, then the entry
constexpr std::size_t kTagBytes = 32;            // crypto_auth_hmacsha256_BYTES
constexpr std::size_t kKeyBytes = 32;            // crypto_auth_hmacsha256_KEYBYTES

}  // namespace

/// libsodium's calls kjit uses, opened once; never closed.
struct SodiumCalls {
  std::unique_ptr<backend::DynamicLibrary> library;
  int (*init)() = nullptr;
  int (*hmac)(unsigned char*, const unsigned char*, unsigned long long,
              const unsigned char*) = nullptr;
  int (*hmac_verify)(const unsigned char*, const unsigned char*, unsigned long long,
                     const unsigned char*) = nullptr;
  int (*generichash)(unsigned char*, std::size_t, const unsigned char*, unsigned long long,
                     const unsigned char*, std::size_t) = nullptr;
};

namespace {

const SodiumCalls* load_sodium(std::string& why);

}  // namespace

std::string read_key_file(const std::filesystem::path& file, const char* variable) {
  struct stat st {};
  if (::stat(file.c_str(), &st) != 0) {
    throw ConfigError(fmt::format("kjit: {}='{}' cannot be read", variable, file.string()));
  }
  if ((st.st_mode & (S_IRWXG | S_IRWXO)) != 0) {
    throw ConfigError(fmt::format(
        "kjit: {}='{}' is open to others (mode {:o}); a key must be readable by its owner "
        "alone: chmod 600 it",
        variable, file.string(), st.st_mode & 07777));
  }
  std::optional<std::string> secret = read_file(file);
  if (!secret) {
    throw ConfigError(fmt::format("kjit: {}='{}' cannot be read", variable, file.string()));
  }
  if (secret->size() < kKeyBytes) {
    throw ConfigError(
        fmt::format("kjit: {}='{}' holds {} bytes; a key needs at least {} (head -c 32 "
                    "/dev/urandom makes one)",
                    variable, file.string(), secret->size(), kKeyBytes));
  }
  return std::move(*secret);
}

EntrySigner::EntrySigner(std::string_view secret)
    : sodium_([]() -> const SodiumCalls& {
        std::string why;
        const SodiumCalls* s = load_sodium(why);
        if (s == nullptr) {
          throw RemoteStoreFailure{why};
        }
        return *s;
      }()),
      key_(kKeyBytes, '\0') {
  // Any secret of 32 bytes or more, hashed to the 32 bytes HMAC-SHA-256 takes.
  // NOLINTBEGIN(cppcoreguidelines-pro-type-reinterpret-cast): libsodium takes unsigned bytes
  sodium_.generichash(reinterpret_cast<unsigned char*>(key_.data()), kKeyBytes,
                      reinterpret_cast<const unsigned char*>(secret.data()), secret.size(), nullptr,
                      0);
  // NOLINTEND(cppcoreguidelines-pro-type-reinterpret-cast)
}

EntrySigner::~EntrySigner() = default;

std::string EntrySigner::sign(std::string_view entry) const {
  std::array<unsigned char, kTagBytes> tag{};
  // NOLINTBEGIN(cppcoreguidelines-pro-type-reinterpret-cast): libsodium takes unsigned bytes
  sodium_.hmac(tag.data(), reinterpret_cast<const unsigned char*>(entry.data()), entry.size(),
               reinterpret_cast<const unsigned char*>(key_.data()));
  // NOLINTEND(cppcoreguidelines-pro-type-reinterpret-cast)
  std::string out;
  out.reserve(kMagic.size() + kTagBytes + entry.size());
  out.append(kMagic);
  out.append(tag.begin(), tag.end());
  out.append(entry);
  return out;
}

std::optional<std::string_view> EntrySigner::verify(std::string_view stored,
                                                    std::string& why) const {
  if (!stored.starts_with(kMagic) || stored.size() < kMagic.size() + kTagBytes) {
    why = "it has no tag: a process without KJIT_CACHE_REMOTE_KEY published it";
    return std::nullopt;
  }
  const std::string_view tag = stored.substr(kMagic.size(), kTagBytes);
  const std::string_view entry = stored.substr(kMagic.size() + kTagBytes);
  // NOLINTBEGIN(cppcoreguidelines-pro-type-reinterpret-cast): libsodium takes unsigned bytes
  const int valid =
      sodium_.hmac_verify(reinterpret_cast<const unsigned char*>(tag.data()),
                          reinterpret_cast<const unsigned char*>(entry.data()), entry.size(),
                          reinterpret_cast<const unsigned char*>(key_.data()));
  // NOLINTEND(cppcoreguidelines-pro-type-reinterpret-cast)
  if (valid != 0) {
    why = "its tag does not match: another key signed it, or its bytes changed";
    return std::nullopt;
  }
  return entry;
}

std::string_view unsigned_view(std::string_view stored) {
  if (stored.starts_with(kMagic) && stored.size() >= kMagic.size() + kTagBytes) {
    return stored.substr(kMagic.size() + kTagBytes);
  }
  return stored;
}

namespace {

const SodiumCalls* load_sodium(std::string& why) {
  static std::once_flag once;
  static SodiumCalls* sodium = nullptr;  // set once it loaded
  // Never freed, and reachable whether or not it loaded: signing may run while the process exits.
  static SodiumCalls* const made = new SodiumCalls;
  static std::string failure;
  std::call_once(once, [] {
    SodiumCalls* s = made;
    std::string reason;
    s->library = backend::DynamicLibrary::open({"libsodium.so.23", "libsodium.so"}, reason);
    const std::vector<backend::SymbolEntry> symbols = {
        {"sodium_init", nullptr, reinterpret_cast<void**>(&s->init), true},
        {"crypto_auth_hmacsha256", nullptr, reinterpret_cast<void**>(&s->hmac), true},
        {"crypto_auth_hmacsha256_verify", nullptr, reinterpret_cast<void**>(&s->hmac_verify), true},
        {"crypto_generichash", nullptr, reinterpret_cast<void**>(&s->generichash), true}};
    if (!s->library) {
      failure = fmt::format("signed entries (KJIT_CACHE_REMOTE_KEY) need libsodium: {}", reason);
    } else if (!backend::load_symbols(*s->library, symbols, reason)) {
      failure = fmt::format("{} lacks what signing needs: {}", s->library->name(), reason);
    } else if (s->init() < 0) {
      failure = "libsodium failed to initialise";
    } else {
      sodium = s;
    }
  });
  why = failure;
  return sodium;
}

}  // namespace

}  // namespace kjit::detail::cache
