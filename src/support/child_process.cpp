#include "support/child_process.hpp"

#include "support/text.hpp"

#include <kjit/error.hpp>

#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fmt/format.h>

#include <cerrno>
#include <fstream>
#include <sstream>
#include <string>

namespace kjit::detail {

void FileDescriptor::reset() {
  if (fd_ >= 0) {
    ::close(fd_);
    fd_ = -1;
  }
}

std::array<int, 2> socket_pair(std::string_view for_what) {
  std::array<int, 2> sockets{-1, -1};
  if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sockets.data()) != 0) {
    throw BackendError(fmt::format("kjit: socketpair() for {}: {}", for_what, errno_text(errno)));
  }
  return sockets;
}

std::optional<int> reap(pid_t pid) {
  int status = 0;
  for (;;) {
    if (::waitpid(pid, &status, 0) == pid) {
      return status;
    }
    if (errno != EINTR) {
      return std::nullopt;
    }
  }
}

std::optional<unsigned long long> cpu_ticks(pid_t pid) {
  std::ifstream file(fmt::format("/proc/{}/stat", pid));
  std::string line;
  if (!std::getline(file, line)) {
    return std::nullopt;
  }
  // The command's name comes in parentheses and may hold spaces: the fields follow the last ')'.
  const std::size_t close = line.rfind(')');
  if (close == std::string::npos) {
    return std::nullopt;
  }
  std::istringstream fields(line.substr(close + 1));
  // After the name: state (field 3) ... utime (14) and stime (15).
  std::string field;
  for (int i = 3; i < 14; ++i) {
    fields >> field;
  }
  unsigned long long user = 0;
  unsigned long long system = 0;
  if (!(fields >> user >> system)) {
    return std::nullopt;
  }
  return user + system;
}

}  // namespace kjit::detail
