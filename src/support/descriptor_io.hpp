// Whole reads and writes on a file descriptor (a pipe or a socket between kjit and a process it
// runs), retried across interrupted calls.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace kjit::detail {

/// Writes all of `bytes` to `fd`; false when the other end is gone or the write fails.
bool write_all(int fd, std::span<const std::uint8_t> bytes);

/// Reads `fd` to its end (or to its first error).
std::vector<std::uint8_t> read_all(int fd);

}  // namespace kjit::detail
