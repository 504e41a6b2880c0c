// kjit-compile: the helper process libkjit compiles in under KJIT_COMPILE_ISOLATION=process or
// KJIT_COMPILE_TIMEOUT. It reads one compile request on stdin, runs the offline compiler of the
// request's target, and writes one reply (the binary, or the error) on stdout. A crash, a fatal
// error or a hang here costs the host program one compile; the host reads the exit status.
#include "core/tooling/compile_wire.hpp"
#include "core/tooling/offline_compilers.hpp"
#include "support/descriptor_io.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <vector>

namespace {

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
  const bool written =
      kjit::detail::write_all(STDOUT_FILENO, compile(kjit::detail::read_all(STDIN_FILENO)));
  std::fflush(stderr);
  // _exit: the reply is out, and the compilers' static destructors would only cost time.
  ::_exit(written ? 0 : 1);
}
