// kjit-compile: the helper process libkjit compiles in under KJIT_COMPILE_ISOLATION=process or
// KJIT_COMPILE_TIMEOUT. It reads one compile request on stdin, runs the offline compiler of the
// request's target, and writes one reply (the binary, or the error) on stdout. A crash, a fatal
// error or a hang here costs the host program one compile; the host reads the exit status.
#include "core/tooling/compile_wire.hpp"
#include "core/tooling/offline_compilers.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <vector>

namespace {

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

bool write_all(int fd, const std::vector<std::uint8_t>& bytes) {
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

std::vector<std::uint8_t> compile(const std::vector<std::uint8_t>& message) {
  try {
    auto [target, request] = kjit::detail::wire::decode_request(message);
    kjit::tooling::OfflineCompilers compilers;
    return kjit::detail::wire::encode_binary(compilers.compiler(target, request).compile(request));
  } catch (...) {
    return kjit::detail::wire::encode_current_error();
  }
}

}  // namespace

int main() {
  if (::isatty(STDIN_FILENO) != 0) {
    std::fputs(
        "kjit-compile is libkjit's compile helper: it reads a compile request on stdin.\n"
        "libkjit runs it under KJIT_COMPILE_ISOLATION=process or KJIT_COMPILE_TIMEOUT.\n",
        stderr);
    return 2;
  }
  const bool written = write_all(STDOUT_FILENO, compile(read_all(STDIN_FILENO)));
  std::fflush(stderr);
  // _exit: the reply is out, and the compilers' static destructors would only cost time.
  ::_exit(written ? 0 : 1);
}
