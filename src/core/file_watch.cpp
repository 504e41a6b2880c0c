#include "core/file_watch.hpp"

#include "support/logging.hpp"

#include <array>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <map>
#include <mutex>
#include <set>
#include <utility>

#include <sys/inotify.h>
#include <unistd.h>

namespace kjit::detail {

namespace fs = std::filesystem;

struct FileWatch::Subscription {
  std::set<std::pair<int, std::string>> files;  // (folder's watch, file name)
  std::atomic<bool> changed{false};
};

namespace {

constexpr std::uint32_t kEvents =
    IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_CREATE | IN_DELETE | IN_DELETE_SELF;

/// The process's one inotify instance: watches folders, and flags the subscriptions that watch a
/// file of a folder by the name an event carries.
class Hub {
 public:
  /// nullptr when this system gives no inotify instance.
  static Hub* get() {
    static Hub* const hub = [] {
      const int fd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
      if (fd < 0) {
        log().info("hot reload: no inotify instance ({}); watched files are polled",
                   std::strerror(errno));
        return static_cast<Hub*>(nullptr);
      }
      return new Hub(fd);  // lives as long as the process: programs may outlive main()
    }();
    return hub;
  }

  /// Watches the folders of `files` for `s`; false (and nothing kept) when the system refuses one.
  bool add(FileWatch::Subscription& s, const std::vector<fs::path>& files) {
    const std::lock_guard lock(mutex_);
    for (const fs::path& file : files) {
      const fs::path dir = file.parent_path();
      const int wd = inotify_add_watch(fd_, dir.c_str(), kEvents);
      if (wd < 0) {
        log().info("hot reload: cannot watch {} ({}); its files are polled", dir.string(),
                   std::strerror(errno));
        release(s);
        return false;
      }
      if (s.files.emplace(wd, file.filename().string()).second) {
        ++users_[wd];
      }
    }
    subscriptions_.insert(&s);
    return true;
  }

  void remove(FileWatch::Subscription& s) {
    const std::lock_guard lock(mutex_);
    release(s);
  }

  /// Reads the events that arrived since the last call and flags their subscriptions.
  void drain() {
    const std::lock_guard lock(mutex_);
    alignas(inotify_event) std::array<char, 8192> buffer{};
    for (;;) {
      const ssize_t got = ::read(fd_, buffer.data(), buffer.size());
      if (got <= 0) {
        return;  // EAGAIN: nothing more
      }
      for (ssize_t at = 0; at < got;) {
        const auto* event = reinterpret_cast<const inotify_event*>(buffer.data() + at);
        at += static_cast<ssize_t>(sizeof(inotify_event) + event->len);
        const bool whole_folder =
            (event->mask & (IN_Q_OVERFLOW | IN_IGNORED | IN_DELETE_SELF)) != 0;
        const std::string name = event->len > 0 ? std::string(event->name) : std::string();
        for (FileWatch::Subscription* s : subscriptions_) {
          const bool hit = whole_folder
                               ? (event->mask & IN_Q_OVERFLOW) != 0 || watches_folder(*s, event->wd)
                               : s->files.count({event->wd, name}) != 0;
          if (hit) {
            s->changed = true;
          }
        }
      }
    }
  }

 private:
  explicit Hub(int fd) : fd_(fd) {}

  static bool watches_folder(const FileWatch::Subscription& s, int wd) {
    const auto it = s.files.lower_bound({wd, std::string()});
    return it != s.files.end() && it->first == wd;
  }

  // With mutex_ held.
  void release(FileWatch::Subscription& s) {
    subscriptions_.erase(&s);
    for (const auto& [wd, name] : s.files) {
      if (--users_[wd] == 0) {
        users_.erase(wd);
        inotify_rm_watch(fd_, wd);
      }
    }
    s.files.clear();
  }

  int fd_;
  std::mutex mutex_;
  std::map<int, int> users_;  // folder watch -> files watched in it, over all subscriptions
  std::set<FileWatch::Subscription*> subscriptions_;
};

}  // namespace

FileWatch::FileWatch() = default;

FileWatch::~FileWatch() {
  if (subscription_) {
    Hub::get()->remove(*subscription_);
  }
}

void FileWatch::watch(const std::vector<fs::path>& files) {
  if (subscription_) {
    Hub::get()->remove(*subscription_);
    subscription_.reset();
  }
  stamps_.clear();
  if (Hub* hub = Hub::get()) {
    auto s = std::make_unique<Subscription>();
    if (hub->add(*s, files)) {
      subscription_ = std::move(s);
      return;
    }
  }
  for (const fs::path& file : files) {
    Stamp stamp{file, std::nullopt, 0};
    std::error_code ec;
    const auto time = fs::last_write_time(file, ec);
    if (!ec) {
      stamp.time = time;
      stamp.size = fs::file_size(file, ec);
    }
    stamps_.push_back(std::move(stamp));
  }
  polled_ = std::chrono::steady_clock::now();
}

bool FileWatch::changed() {
  if (subscription_) {
    Hub::get()->drain();
    return subscription_->changed.exchange(false);
  }
  const auto now = std::chrono::steady_clock::now();
  if (now - polled_ < std::chrono::milliseconds(100)) {
    return false;
  }
  polled_ = now;
  bool changed = false;
  for (Stamp& stamp : stamps_) {
    std::error_code ec;
    std::optional<fs::file_time_type> time = fs::last_write_time(stamp.file, ec);
    std::uintmax_t size = 0;
    if (ec) {
      time.reset();
    } else {
      size = fs::file_size(stamp.file, ec);
    }
    if (time != stamp.time || size != stamp.size) {
      stamp.time = time;
      stamp.size = size;
      changed = true;
    }
  }
  return changed;
}

const char* FileWatch::how() const {
  return subscription_ ? "inotify" : "polling";
}

}  // namespace kjit::detail
