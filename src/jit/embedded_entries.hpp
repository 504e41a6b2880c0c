// The precompiled cache entries that kjit_add_kernels(... PRECOMPILE ...) embedded: the disk
// cache reads them as its first, read-only tier.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace kjit::detail {

/// The bytes of the embedded entry for `key` (32 hex digits), unchecked; nullopt when none.
std::optional<std::string> embedded_entry(std::string_view key);

/// Forgets the entry for `key`: it is corrupt or does not load, and is not to be tried again.
void drop_embedded_entry(std::string_view key);

/// How many entries are embedded.
std::size_t embedded_entry_count();

}  // namespace kjit::detail
