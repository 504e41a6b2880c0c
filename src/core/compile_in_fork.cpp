// A compile in a process forked from this one: the child, its reply, and the watch the parent
// keeps on it.
#include "core/forked_compiles.hpp"

#include "core/tooling/compile_wire.hpp"
#include "support/child_process.hpp"
#include "support/descriptor_io.hpp"
#include "support/logging.hpp"
#include "support/text.hpp"

#include <kjit/error.hpp>

#include <poll.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <optional>
#include <vector>

namespace kjit::detail {

namespace {

using Clock = std::chrono::steady_clock;

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

/// What the parent got from its child.
struct ForkedReply {
  std::vector<std::uint8_t> bytes;  // the reply, without its length; empty unless whole
  std::optional<int> status;        // the child's exit status, where it ended while watched
  bool stalled = false;             // its CPU time stood still for the stall limit
};

/// The whole reply when `bytes` (its length, then its bytes) holds it.
bool take_whole(std::vector<std::uint8_t>& bytes) {
  std::uint64_t size = 0;
  if (bytes.size() < sizeof size) {
    return false;
  }
  std::memcpy(&size, bytes.data(), sizeof size);
  if (bytes.size() - sizeof size < size) {
    return false;
  }
  bytes.erase(bytes.begin(), bytes.begin() + sizeof size);
  return true;
}

/// Reads the child's reply. Other children forked meanwhile hold copies of this socket's other
/// end, so its end of file can come late: the length says when the reply is whole, and a child
/// that has ended has sent all it will. While nothing arrives, the child's CPU time is looked
/// at: a child that waits for a lock that a thread of the parent held at the fork waits for
/// ever, and uses none.
ForkedReply await_reply(int socket, pid_t pid, std::chrono::milliseconds stall_limit) {
  ForkedReply out;
  std::vector<std::uint8_t> chunk(std::size_t{64} * 1024);
  const int wait_ms = static_cast<int>(std::clamp<std::int64_t>(stall_limit.count() / 4, 1, 500));
  std::optional<unsigned long long> ticks = cpu_ticks(pid);
  Clock::time_point progress = Clock::now();
  bool ended = false;
  for (;;) {
    if (take_whole(out.bytes)) {
      return out;
    }
    pollfd p{socket, POLLIN, 0};
    const int ready = ended ? 1 : ::poll(&p, 1, wait_ms);
    if (ready > 0) {
      const ssize_t n = ::recv(socket, chunk.data(), chunk.size(), ended ? MSG_DONTWAIT : 0);
      if (n > 0) {
        out.bytes.insert(out.bytes.end(), chunk.begin(), chunk.begin() + n);
        progress = Clock::now();
        continue;
      }
      if (n < 0 && errno == EINTR) {
        continue;
      }
      out.bytes.clear();  // its end of file, or all an ended child sent: not whole
      return out;
    }
    if (ready < 0 && errno != EINTR) {
      out.bytes.clear();
      return out;
    }
    int status = 0;
    if (::waitpid(pid, &status, WNOHANG) == pid) {
      out.status = status;
      ended = true;  // read what it left in the socket, without waiting
      continue;
    }
    const std::optional<unsigned long long> now_ticks = cpu_ticks(pid);
    if (now_ticks != ticks) {
      ticks = now_ticks;
      progress = Clock::now();
    } else if (Clock::now() - progress >= stall_limit) {
      out.bytes.clear();
      out.stalled = true;
      return out;
    }
  }
}

}  // namespace

backend::Binary compile_in_fork(backend::Compiler& compiler, const backend::CompileRequest& request,
                                const std::string& target, std::shared_mutex& gate,
                                std::chrono::milliseconds stall_limit) {
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
  ForkedReply reply = await_reply(parent_end.get(), pid, stall_limit);
  if (reply.stalled) {
    ::kill(pid, SIGKILL);
    reap(pid);
    throw ForkedCompileStalled(fmt::format(
        "kjit: the process forked to compile '{}' for {} (pid {}) used no CPU time for {} ms; "
        "kjit killed it",
        request.program_name, target, pid, stall_limit.count()));
  }
  const std::optional<int> status = reply.status ? reply.status : reap(pid);
  if (reply.bytes.empty()) {
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
  return wire::decode_reply(reply.bytes, fmt::format("kjit's forked compile (pid {})", pid));
}

}  // namespace kjit::detail
