// Reading and writing whole files, once, for every part of kjit that needs it: kernel sources,
// headers the cache key covers, cache entries, manifests.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace kjit::detail {

/// The bytes of the regular file at `path`, or nullopt when it is missing, not a regular file, or
/// unreadable.
std::optional<std::string> read_file(const std::filesystem::path& path);

/// The same, or Error "kjit: cannot read <what> '<path>': <reason>".
std::string read_file_or_throw(const std::filesystem::path& path, std::string_view what);

/// What the name of a temporary file of write_file_atomically() contains: "<target>.tmp-<pid>-<n>".
inline constexpr std::string_view kTempFileMark = ".tmp-";

/// Writes `data` to a new temporary file beside `target` and renames it over `target`, so that a
/// reader sees the old file or the whole new one, never part of it. No fsync: readers that must
/// survive a power cut verify what they read. Returns why it failed, or nullopt.
std::optional<std::string> write_file_atomically(const std::filesystem::path& target,
                                                 std::string_view data);

}  // namespace kjit::detail
