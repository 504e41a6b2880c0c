// Signed remote entries (KJIT_CACHE_REMOTE_KEY): an entry goes to the remote tier with an
// HMAC-SHA-256 tag made with a secret every process of the fleet reads from a file, and an entry
// without a valid tag is refused, so that whoever can write to the store cannot make the fleet
// run their code. libsodium computes the tags; it is opened only when a key is configured.
#pragma once

#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace kjit::detail::cache {

/// The bytes of a secret key file, checked: at least 32 bytes, and readable by its owner alone.
/// ConfigError naming `variable` otherwise.
std::string read_key_file(const std::filesystem::path& file, const char* variable);

struct SodiumCalls;  // libsodium's calls, in entry_signing.cpp

class EntrySigner {
 public:
  /// A signer for `secret`; RemoteStoreFailure when libsodium cannot be loaded.
  explicit EntrySigner(std::string_view secret);
  EntrySigner(const EntrySigner&) = delete;
  EntrySigner& operator=(const EntrySigner&) = delete;
  ~EntrySigner();

  /// `entry` framed with its tag: what the store holds.
  [[nodiscard]] std::string sign(std::string_view entry) const;
  /// The entry inside `stored` when its tag is valid; nullopt otherwise, with `why` saying what
  /// was wrong ("no tag", "a tag that does not match").
  [[nodiscard]] std::optional<std::string_view> verify(std::string_view stored,
                                                       std::string& why) const;

 private:
  const SodiumCalls& sodium_;
  std::string key_;  // 32 bytes derived from the secret
};

/// The entry inside `stored` for a process without a key: a signed frame's tag is skipped (it
/// cannot be checked, and such a process checks no tags), anything else is returned as it is.
std::string_view unsigned_view(std::string_view stored);

}  // namespace kjit::detail::cache
