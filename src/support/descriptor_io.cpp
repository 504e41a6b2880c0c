#include "support/descriptor_io.hpp"

#include <unistd.h>

#include <cerrno>

namespace kjit::detail {

bool write_all(int fd, std::span<const std::uint8_t> bytes) {
  std::size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR) {
      continue;
    }
    if (n <= 0) {
      return false;
    }
    done += static_cast<std::size_t>(n);
  }
  return true;
}

std::vector<std::uint8_t> read_all(int fd) {
  std::vector<std::uint8_t> bytes;
  std::vector<std::uint8_t> chunk(std::size_t{64} * 1024);
  for (;;) {
    const ssize_t n = ::read(fd, chunk.data(), chunk.size());
    if (n > 0) {
      bytes.insert(bytes.end(), chunk.begin(), chunk.begin() + n);
    } else if (n == 0 || errno != EINTR) {
      return bytes;
    }
  }
}

}  // namespace kjit::detail
