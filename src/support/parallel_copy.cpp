#include "support/parallel_copy.hpp"

#include "support/thread_pool.hpp"

#include <algorithm>
#include <cstring>
#include <thread>

namespace kjit::detail {

namespace {

constexpr std::size_t kPieceBytes = std::size_t{1} << 20;

ThreadPool& copy_pool() {
  // Leaked on purpose, as the device registry: copies may run until the process ends.
  static ThreadPool* const pool =
      new ThreadPool(std::clamp(std::thread::hardware_concurrency() / 2, 1U, 8U));
  return *pool;
}

}  // namespace

void parallel_copy(void* dst, const void* src, std::size_t bytes) {
  if (bytes < 2 * kPieceBytes) {
    std::memcpy(dst, src, bytes);
    return;
  }
  auto* to = static_cast<unsigned char*>(dst);
  const auto* from = static_cast<const unsigned char*>(src);
  const std::size_t pieces = (bytes + kPieceBytes - 1) / kPieceBytes;
  copy_pool().run(pieces, 1, [&](std::uint64_t begin, std::uint64_t end) {
    for (std::uint64_t p = begin; p < end; ++p) {
      const std::size_t offset = p * kPieceBytes;
      std::memcpy(to + offset, from + offset, std::min(kPieceBytes, bytes - offset));
    }
  });
}

}  // namespace kjit::detail
