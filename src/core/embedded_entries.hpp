// The precompiled cache entries that kjit_add_kernels(... PRECOMPILE ...) embedded: the disk
// cache reads them as its first, read-only tier.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace kjit::detail {

struct EmbeddedEntryBytes {
  std::string key;    // the entry's own key, which its header holds
  std::string bytes;  // unchecked
};

/// The embedded entry for `key` (32 hex digits): the entry of that key, or the one whose key
/// without the compiler's identity it is; nullopt when none.
std::optional<EmbeddedEntryBytes> embedded_entry(std::string_view key);

/// Forgets the entry for `key` (its own): it is corrupt or does not load, and is not to be tried
/// again.
void drop_embedded_entry(std::string_view key);

/// How many entries are embedded.
std::size_t embedded_entry_count();

}  // namespace kjit::detail
