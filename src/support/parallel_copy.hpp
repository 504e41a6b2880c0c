// memcpy on several threads: one core cannot saturate a host's memory bandwidth, so large copies
// into and out of pinned staging memory are split across a small pool.
#pragma once

#include <cstddef>

namespace kjit::detail {

/// Copies `bytes` from `src` to `dst` (which must not overlap), on several threads when large.
void parallel_copy(void* dst, const void* src, std::size_t bytes);

}  // namespace kjit::detail
