#include "support/file_text.hpp"

#include "support/text.hpp"

#include <kjit/error.hpp>

#include <fcntl.h>
#include <fmt/format.h>
#include <unistd.h>

#include <cerrno>
#include <fstream>
#include <random>
#include <sstream>
#include <system_error>

namespace kjit::detail {

namespace {

/// The text, or why not.
std::optional<std::string> read(const std::filesystem::path& path, std::string& why) {
  std::error_code ec;
  const std::filesystem::file_status status = std::filesystem::status(path, ec);
  if (std::filesystem::is_directory(status)) {
    why = "it is a directory";
    return std::nullopt;
  }
  if (std::filesystem::exists(status) && !std::filesystem::is_regular_file(status)) {
    // A device such as /dev/zero never ends, and a FIFO blocks until someone writes to it.
    why = "it is not a regular file (a device, a FIFO or a socket)";
    return std::nullopt;
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    why = errno_text(errno);
    return std::nullopt;
  }
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) {
    why = "an error while reading it";
    return std::nullopt;
  }
  return std::move(text).str();
}

}  // namespace

std::optional<std::string> read_file(const std::filesystem::path& path) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) {
    return std::nullopt;
  }
  std::string why;
  return read(path, why);
}

std::string read_file_or_throw(const std::filesystem::path& path, std::string_view what) {
  std::string why;
  std::optional<std::string> text = read(path, why);
  if (!text) {
    throw Error(fmt::format("kjit: cannot read {} '{}': {}", what, path.string(), why));
  }
  return std::move(*text);
}

std::optional<std::string> write_file_atomically(const std::filesystem::path& target,
                                                 std::string_view data) {
  static thread_local std::mt19937_64 random{std::random_device{}()};
  const std::filesystem::path temp =
      target.string() + fmt::format("{}{}-{:x}", kTempFileMark, getpid(), random());
  const int fd = open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0) {
    return fmt::format("cannot create '{}': {}", temp.string(), errno_text(errno));
  }
  std::size_t done = 0;
  while (done < data.size()) {
    const ssize_t n = write(fd, data.data() + done, data.size() - done);
    if (n < 0 && errno == EINTR) {
      continue;
    }
    if (n <= 0) {
      const int error = n < 0 ? errno : ENOSPC;
      close(fd);
      unlink(temp.c_str());
      return fmt::format("cannot write '{}': {}", temp.string(), errno_text(error));
    }
    done += static_cast<std::size_t>(n);
  }
  if (close(fd) != 0) {
    const int error = errno;
    unlink(temp.c_str());
    return fmt::format("cannot write '{}': {}", temp.string(), errno_text(error));
  }
  if (rename(temp.c_str(), target.c_str()) != 0) {
    const int error = errno;
    unlink(temp.c_str());
    return fmt::format("cannot rename '{}' into place: {}", temp.string(), errno_text(error));
  }
  return std::nullopt;
}

}  // namespace kjit::detail
