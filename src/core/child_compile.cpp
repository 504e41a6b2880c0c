#include "core/child_compile.hpp"

#include "core/forked_compiles.hpp"
#include "core/tooling/compile_wire.hpp"
#include "support/descriptor_io.hpp"
#include "support/dynamic_library.hpp"
#include "support/environment.hpp"
#include "support/logging.hpp"
#include "support/text.hpp"

#include <kjit/error.hpp>

#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <climits>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <span>
#include <string_view>
#include <system_error>
#include <vector>

extern char** environ;  // NOLINT(readability-redundant-declaration): POSIX declares it nowhere

namespace kjit::detail {

namespace {

using Clock = std::chrono::steady_clock;

/// The most of the child's stderr an error quotes (the end of it).
constexpr std::size_t kStderrTail = std::size_t{16} * 1024;

class FileDescriptor {
 public:
  explicit FileDescriptor(int fd = -1) : fd_(fd) {}
  FileDescriptor(const FileDescriptor&) = delete;
  FileDescriptor& operator=(const FileDescriptor&) = delete;
  ~FileDescriptor() { reset(); }
  [[nodiscard]] int get() const { return fd_; }
  void reset() {
    if (fd_ >= 0) {
      ::close(fd_);
      fd_ = -1;
    }
  }

 private:
  int fd_;
};

/// No deadline.
constexpr Clock::time_point kNever = Clock::time_point::max();

/// Milliseconds poll() may wait: until `deadline`, or forever (-1) when it is kNever.
int poll_ms(Clock::time_point deadline) {
  if (deadline == kNever) {
    return -1;
  }
  const auto left = std::chrono::ceil<std::chrono::milliseconds>(deadline - Clock::now()).count();
  return static_cast<int>(std::clamp<std::int64_t>(left, 0, INT_MAX));
}

/// What the child sent back: its reply on the socket and its stderr.
struct Exchange {
  std::vector<std::uint8_t> reply;
  std::string stderr_text;
  bool timed_out = false;
};

void keep_tail(std::string& text) {
  if (text.size() > 2 * kStderrTail) {
    text.erase(0, text.size() - kStderrTail);
  }
}

/// Sends `request` on `socket` and reads the reply and the child's stderr until both end, or
/// until `deadline`.
Exchange exchange(int socket, int error_pipe, std::span<const std::uint8_t> request,
                  Clock::time_point deadline) {
  Exchange out;
  std::size_t sent = 0;
  bool sending = true;
  bool reply_open = true;
  bool stderr_open = true;
  std::vector<std::uint8_t> chunk(std::size_t{64} * 1024);
  while (reply_open || stderr_open) {
    std::vector<pollfd> fds;
    if (reply_open) {
      fds.push_back({socket, static_cast<short>(POLLIN | (sending ? POLLOUT : 0)), 0});
    }
    if (stderr_open) {
      fds.push_back({error_pipe, POLLIN, 0});
    }
    const int ready = ::poll(fds.data(), fds.size(), poll_ms(deadline));
    if (ready < 0 && errno == EINTR) {
      continue;
    }
    if (ready < 0) {
      throw BackendError(fmt::format("kjit: poll() on the compile helper: {}", errno_text(errno)));
    }
    if (ready == 0) {
      out.timed_out = true;
      return out;
    }
    for (const pollfd& p : fds) {
      if (p.revents == 0) {
        continue;
      }
      if (p.fd == error_pipe) {
        const ssize_t n = ::read(error_pipe, chunk.data(), chunk.size());
        if (n > 0) {
          out.stderr_text.append(reinterpret_cast<const char*>(chunk.data()),
                                 static_cast<std::size_t>(n));
          keep_tail(out.stderr_text);
        } else if (n == 0 || errno != EINTR) {
          stderr_open = false;
        }
        continue;
      }
      if (sending && (p.revents & (POLLOUT | POLLERR | POLLHUP)) != 0) {
        const ssize_t n = ::send(socket, request.data() + sent, request.size() - sent,
                                 MSG_NOSIGNAL | MSG_DONTWAIT);
        if (n > 0) {
          sent += static_cast<std::size_t>(n);
        } else if (n < 0 && errno != EINTR && errno != EAGAIN) {
          sending = false;  // the child is gone; its status says why
        }
        if (sending && sent == request.size()) {
          sending = false;
          ::shutdown(socket, SHUT_WR);
        }
      }
      if ((p.revents & (POLLIN | POLLHUP | POLLERR)) != 0) {
        const ssize_t n = ::recv(socket, chunk.data(), chunk.size(), MSG_DONTWAIT);
        if (n > 0) {
          out.reply.insert(out.reply.end(), chunk.begin(), chunk.begin() + n);
        } else if (n == 0 || (errno != EINTR && errno != EAGAIN)) {
          reply_open = false;
        }
      }
    }
  }
  return out;
}

/// The exit status of `pid`; nullopt when it cannot be had (a program that reaps its children
/// itself, or ignores SIGCHLD).
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

/// A connected pair of sockets, closed on exec; BackendError saying what they were `for_what`.
std::array<int, 2> socket_pair(std::string_view for_what) {
  std::array<int, 2> sockets{-1, -1};
  if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sockets.data()) != 0) {
    throw BackendError(fmt::format("kjit: socketpair() for {}: {}", for_what, errno_text(errno)));
  }
  return sockets;
}

std::string with_stderr(std::string text, const std::string& child_stderr) {
  if (!child_stderr.empty()) {
    text += "\nits stderr:\n";
    text += child_stderr.size() > kStderrTail
                ? child_stderr.substr(child_stderr.size() - kStderrTail)
                : child_stderr;
  }
  return text;
}

}  // namespace

std::filesystem::path compile_helper_path() {
  if (auto helper = environment::compile_helper()) {
    return *helper;
  }
  const std::filesystem::path dir = backend::kjit_code_directory();
  // Beside libkjit.so in a build tree; where `cmake --install` puts it, once installed.
  const std::vector<std::filesystem::path> candidates = {
      dir / "kjit-compile", (dir / KJIT_HELPER_FROM_LIBDIR / "kjit-compile").lexically_normal()};
  for (const auto& candidate : candidates) {
    if (::access(candidate.c_str(), X_OK) == 0) {
      return candidate;
    }
  }
  throw BackendError(fmt::format(
      "kjit: compiling in a child process (KJIT_COMPILE_ISOLATION, KJIT_COMPILE_TIMEOUT) needs "
      "the kjit-compile helper, and there is none at {} or {}; set KJIT_COMPILE_HELPER to it "
      "(kjit builds it with KJIT_BUILD_TOOLS=ON)",
      candidates[0].string(), candidates[1].string()));
}

backend::Binary compile_in_child(const std::filesystem::path& helper, const std::string& target,
                                 const backend::CompileRequest& request,
                                 std::optional<std::chrono::milliseconds> timeout) {
  const Clock::time_point deadline = timeout ? Clock::now() + *timeout : kNever;
  const std::vector<std::uint8_t> message = wire::encode_request(target, request);

  const std::array<int, 2> sockets = socket_pair("the compile helper");
  FileDescriptor parent_end(sockets[0]);
  FileDescriptor child_end(sockets[1]);
  std::array<int, 2> pipe{-1, -1};
  if (::pipe2(pipe.data(), O_CLOEXEC) != 0) {
    throw BackendError(fmt::format("kjit: pipe() for the compile helper: {}", errno_text(errno)));
  }
  FileDescriptor error_read(pipe[0]);
  FileDescriptor error_write(pipe[1]);

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, child_end.get(), STDIN_FILENO);
  posix_spawn_file_actions_adddup2(&actions, child_end.get(), STDOUT_FILENO);
  posix_spawn_file_actions_adddup2(&actions, error_write.get(), STDERR_FILENO);
  std::string program = helper.string();
  std::array<char*, 2> argv{program.data(), nullptr};
  pid_t pid = 0;
  const int spawned = ::posix_spawn(&pid, program.c_str(), &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (spawned != 0) {
    throw BackendError(
        fmt::format("kjit: cannot run the compile helper {}: {}", program, errno_text(spawned)));
  }
  child_end.reset();
  error_write.reset();

  Exchange got;
  try {
    got = exchange(parent_end.get(), error_read.get(), message, deadline);
  } catch (...) {
    ::kill(pid, SIGKILL);
    reap(pid);
    throw;
  }
  if (got.timed_out) {
    ::kill(pid, SIGKILL);
    reap(pid);
    const double seconds =
        static_cast<double>(timeout.value_or(std::chrono::milliseconds(0)).count()) / 1000.0;
    throw CompileError(
        request.program_name, target, {},
        with_stderr(fmt::format("the compile did not finish within {} s (KJIT_COMPILE_TIMEOUT); "
                                "kjit killed its process ({}, pid {})",
                                seconds, program, pid),
                    got.stderr_text));
  }
  const std::optional<int> status = reap(pid);
  if (status && WIFSIGNALED(*status)) {
    const int signal = WTERMSIG(*status);
    throw CompileError(request.program_name, target, {},
                       with_stderr(fmt::format("the compiler's process ({}, pid {}) died of "
                                               "signal {} ({}) before it finished",
                                               program, pid, signal, ::strsignal(signal)),
                                   got.stderr_text));
  }
  if (got.reply.empty() || (status && WEXITSTATUS(*status) != 0)) {
    throw CompileError(
        request.program_name, target, {},
        with_stderr(
            fmt::format("the compiler's process ({}, pid {}) exited with status {} "
                        "without a result",
                        program, pid, status ? std::to_string(WEXITSTATUS(*status)) : "unknown"),
            got.stderr_text));
  }
  if (!got.stderr_text.empty()) {  // the child's log lines, as an in-process compile writes them
    std::fwrite(got.stderr_text.data(), 1, got.stderr_text.size(), stderr);
  }
  return wire::decode_reply(got.reply, program);
}

namespace {

/// The forked child's whole life: compile, send the reply's length and the reply, and leave
/// without running the parent's exit handlers or destructors.
[[noreturn]] void forked_child(int socket, spdlog::logger& logger, backend::Compiler& compiler,
                               const backend::CompileRequest& request) {
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);
  ::signal(SIGPIPE, SIG_IGN);  // a parent that is gone is a failed write, not a signal
  logger.set_level(spdlog::level::off);
  std::vector<std::uint8_t> reply;
  try {
    reply = wire::encode_binary(compiler.compile(request));
  } catch (...) {
    reply = wire::encode_current_error();
  }
  const std::uint64_t size = reply.size();
  std::array<std::uint8_t, sizeof size> header{};
  std::memcpy(header.data(), &size, sizeof size);
  const bool sent = write_all(socket, header) && write_all(socket, reply);
  ::_exit(sent ? 0 : 1);
}

/// The reply a forked child sends: its length, then its bytes. Other children forked meanwhile
/// hold copies of this socket's other end, so its end of file can come late: the length says
/// when the reply is whole. Empty when the child ended before sending all of it.
std::vector<std::uint8_t> read_forked_reply(int socket) {
  std::vector<std::uint8_t> bytes;
  std::vector<std::uint8_t> chunk(std::size_t{64} * 1024);
  std::uint64_t size = 0;
  for (;;) {
    if (bytes.size() >= sizeof size) {
      std::memcpy(&size, bytes.data(), sizeof size);
      if (bytes.size() - sizeof size >= size) {
        bytes.erase(bytes.begin(), bytes.begin() + sizeof size);
        return bytes;
      }
    }
    const ssize_t n = ::recv(socket, chunk.data(), chunk.size(), 0);
    if (n > 0) {
      bytes.insert(bytes.end(), chunk.begin(), chunk.begin() + n);
    } else if (n == 0 || errno != EINTR) {
      return {};
    }
  }
}

}  // namespace

backend::Binary compile_in_fork(backend::Compiler& compiler, const backend::CompileRequest& request,
                                const std::string& target, std::shared_mutex& gate) {
  const std::array<int, 2> sockets = socket_pair("a forked compile");
  FileDescriptor parent_end(sockets[0]);
  FileDescriptor child_end(sockets[1]);
  spdlog::logger& logger = log();  // made here: the child must not be the first to ask
  pid_t pid = -1;
  {
    const std::unique_lock exclusive(gate);
    pid = ::fork();
    if (pid == 0) {
      forked_child(child_end.get(), logger, compiler, request);
    }
  }
  if (pid < 0) {
    throw BackendError(fmt::format("kjit: fork() for compiling '{}': {}", request.program_name,
                                   errno_text(errno)));
  }
  child_end.reset();
  const std::vector<std::uint8_t> reply = read_forked_reply(parent_end.get());
  const std::optional<int> status = reap(pid);
  if (reply.empty()) {
    const std::string how = !status ? "ended"
                            : WIFSIGNALED(*status)
                                ? fmt::format("died of signal {} ({})", WTERMSIG(*status),
                                              ::strsignal(WTERMSIG(*status)))
                                : fmt::format("exited with status {}", WEXITSTATUS(*status));
    throw CompileError(request.program_name, target, {},
                       fmt::format("the process kjit forked to compile it (pid {}) {} before it "
                                   "sent a result",
                                   pid, how));
  }
  return wire::decode_reply(reply, fmt::format("kjit's forked compile (pid {})", pid));
}

backend::Binary compile_as_configured(backend::Compiler& compiler,
                                      const backend::CompileRequest& request,
                                      const std::string& target) {
  const environment::CompileIsolation isolation = environment::compile_isolation();
  if (!isolation.in_child) {
    if (compiler.serial_library() != nullptr) {
      return compile_sharing_cores(compiler, request,
                                   target.empty() ? compiler.identity().target : target);
    }
    return compiler.compile(request);
  }
  const auto start = Clock::now();
  const std::string& named = target.empty() ? compiler.identity().target : target;
  backend::Binary binary =
      compile_in_child(compile_helper_path(), named, request, isolation.timeout);
  log().debug("kjit: compiled '{}' for {} in a child process ({:.1f} ms)", request.program_name,
              named, std::chrono::duration<double, std::milli>(Clock::now() - start).count());
  return binary;
}

}  // namespace kjit::detail
