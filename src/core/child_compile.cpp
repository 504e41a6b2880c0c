#include "core/child_compile.hpp"

#include "core/forked_compiles.hpp"
#include "core/tooling/compile_wire.hpp"
#include "support/child_process.hpp"
#include "support/dynamic_library.hpp"
#include "support/environment.hpp"
#include "support/logging.hpp"
#include "support/text.hpp"

#include <kjit/error.hpp>

#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
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
#include <mutex>
#include <set>
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

/// The compilers that have compiled in this process (never destroyed: asked at exit too).
struct CompiledHere {
  std::mutex mutex;
  std::set<const backend::Compiler*> compilers;
};

CompiledHere& compiled_here() {
  static auto* const here = new CompiledHere();
  return *here;
}

/// Marks `compiler` as having compiled here when it goes, whether the compile succeeded or not.
class MarkCompiledHere {
 public:
  explicit MarkCompiledHere(const backend::Compiler& compiler) : compiler_(compiler) {}
  MarkCompiledHere(const MarkCompiledHere&) = delete;
  MarkCompiledHere& operator=(const MarkCompiledHere&) = delete;
  ~MarkCompiledHere() {
    CompiledHere& here = compiled_here();
    const std::lock_guard lock(here.mutex);
    here.compilers.insert(&compiler_);
  }

 private:
  const backend::Compiler& compiler_;
};

}  // namespace

bool first_compile_here(const backend::Compiler& compiler) {
  if (environment::compile_isolation().in_child) {
    return false;
  }
  CompiledHere& here = compiled_here();
  const std::lock_guard lock(here.mutex);
  return !here.compilers.contains(&compiler);
}

backend::Binary compile_as_configured(backend::Compiler& compiler,
                                      const backend::CompileRequest& request,
                                      const std::string& target) {
  const environment::CompileIsolation isolation = environment::compile_isolation();
  if (!isolation.in_child) {
    const MarkCompiledHere mark(compiler);
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
