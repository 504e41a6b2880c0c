// What kjit needs to run a process of its own (the compile helper, a forked compile): an owned
// descriptor, a socket pair, reaping, and how much CPU time a child has used.
#pragma once

#include <sys/types.h>

#include <array>
#include <optional>
#include <string_view>

namespace kjit::detail {

/// A file descriptor that is closed when it goes.
class FileDescriptor {
 public:
  explicit FileDescriptor(int fd = -1) : fd_(fd) {}
  FileDescriptor(const FileDescriptor&) = delete;
  FileDescriptor& operator=(const FileDescriptor&) = delete;
  ~FileDescriptor() { reset(); }
  [[nodiscard]] int get() const { return fd_; }
  void reset();

 private:
  int fd_;
};

/// A connected pair of sockets, closed on exec; BackendError saying what they were `for_what`.
std::array<int, 2> socket_pair(std::string_view for_what);

/// The exit status of `pid`, waiting for it; nullopt when it cannot be had (a program that reaps
/// its children itself, or ignores SIGCHLD).
std::optional<int> reap(pid_t pid);

/// The CPU time `pid` has used so far (user and system, in clock ticks); nullopt when the
/// process is gone or /proc cannot say.
std::optional<unsigned long long> cpu_ticks(pid_t pid);

}  // namespace kjit::detail
