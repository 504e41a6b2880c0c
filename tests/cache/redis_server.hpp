// A redis-server of a test's own, on a free loopback port and a unix socket in a temporary
// folder, stopped with the test. redis-cli drives it from outside, as an operator would.
#pragma once

#include <fmt/format.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

namespace kjit::test {

/// True when redis-server and redis-cli are on PATH.
inline bool have_redis() {
  return std::system(
             "command -v redis-server >/dev/null 2>&1 && "
             "command -v redis-cli >/dev/null 2>&1") == 0;
}

/// A TCP port no one listens on now.
inline int free_port() {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t size = sizeof(a);
  // NOLINTNEXTLINE(cppcoreguidelines-pro-type-reinterpret-cast): the sockets API
  ::bind(fd, reinterpret_cast<sockaddr*>(&a), size);
  // NOLINTNEXTLINE(cppcoreguidelines-pro-type-reinterpret-cast): the sockets API
  ::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &size);
  ::close(fd);
  return ntohs(a.sin_port);
}

class RedisServer {
 public:
  /// Starts redis-server with `extra` arguments ("--requirepass", "x"); waits until it answers.
  explicit RedisServer(const std::filesystem::path& dir, std::vector<std::string> extra = {})
      : port_(free_port()), socket_(dir / "redis.sock"), extra_(std::move(extra)) {
    std::filesystem::create_directories(dir);
    pid_ = ::fork();
    if (pid_ == 0) {
      std::vector<std::string> args = {"redis-server",   "--port",    std::to_string(port_),
                                       "--bind",         "127.0.0.1", "--unixsocket",
                                       socket_.string(), "--save",    "",
                                       "--appendonly",   "no",        "--loglevel",
                                       "warning",        "--dir",     dir.string()};
      args.insert(args.end(), extra_.begin(), extra_.end());
      std::vector<char*> argv;
      for (std::string& a : args) {
        argv.push_back(a.data());
      }
      argv.push_back(nullptr);
      ::execvp("redis-server", argv.data());
      ::_exit(127);
    }
    for (int i = 0; i < 500 && !answers(); ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
  }
  RedisServer(const RedisServer&) = delete;
  RedisServer& operator=(const RedisServer&) = delete;
  ~RedisServer() { stop(); }

  /// Kills the server (as a crash would) and waits for it.
  void stop() {
    if (pid_ > 0) {
      ::kill(pid_, SIGCONT);
      ::kill(pid_, SIGKILL);
      ::waitpid(pid_, nullptr, 0);
      pid_ = -1;
    }
  }
  void pause() const { ::kill(pid_, SIGSTOP); }
  void resume() const { ::kill(pid_, SIGCONT); }

  [[nodiscard]] int port() const { return port_; }
  [[nodiscard]] std::string url(const std::string& credentials = "") const {
    return fmt::format("redis://{}127.0.0.1:{}", credentials, port_);
  }
  [[nodiscard]] std::string socket_url() const { return "unix://" + socket_.string(); }

  /// redis-cli's output for `command` (run as the default user, with `auth` when given).
  [[nodiscard]] std::string cli(const std::string& command, const std::string& auth = "") const {
    const std::string line =
        fmt::format("redis-cli -p {} {} {} 2>&1", port_,
                    auth.empty() ? "" : fmt::format("--no-auth-warning -a '{}'", auth), command);
    std::string out;
    if (FILE* p = ::popen(line.c_str(), "r")) {
      char buffer[4096];  // NOLINT(cppcoreguidelines-avoid-c-arrays): fgets' buffer
      while (std::fgets(buffer, sizeof buffer, p) != nullptr) {
        out += buffer;
      }
      ::pclose(p);
    }
    return out;
  }

  /// How many times the server has run `command` ("set", "get"), from INFO commandstats.
  [[nodiscard]] long long calls(const std::string& command) const {
    const std::string stats = cli("INFO commandstats");
    const std::string field = "cmdstat_" + command + ":calls=";
    const auto at = stats.find(field);
    return at == std::string::npos ? 0 : std::stoll(stats.substr(at + field.size()));
  }

  /// The names of kjit's entries in the server.
  [[nodiscard]] std::vector<std::string> entry_names(const std::string& auth = "") const {
    std::vector<std::string> names;
    std::string all = cli("--scan --pattern 'kjit:entry:*'", auth);
    for (std::size_t start = 0, end = 0; (end = all.find('\n', start)) != std::string::npos;
         start = end + 1) {
      names.push_back(all.substr(start, end - start));
    }
    return names;
  }

 private:
  [[nodiscard]] bool answers() const {
    std::string auth;
    for (std::size_t i = 0; i + 1 < extra_.size(); ++i) {
      if (extra_[i] == "--requirepass") {
        auth = extra_[i + 1];
      }
    }
    return cli("PING", auth).starts_with("PONG");
  }

  int port_;
  std::filesystem::path socket_;
  std::vector<std::string> extra_;
  pid_t pid_ = -1;
};

}  // namespace kjit::test
