// Tells when files change, for programs that reload their kernels (CompileOptions::watch).
// Linux's inotify watches the folders that hold the files (an editor often saves by renaming a
// new file over the old, which a watch on the file itself would miss), through one inotify
// instance for the whole process. Where inotify cannot be had (no instance or watch left), the
// files' modification times and sizes are compared instead, at most every 100 ms.
#pragma once

#include <chrono>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace kjit::detail {

class FileWatch {
 public:
  FileWatch();
  ~FileWatch();
  FileWatch(const FileWatch&) = delete;
  FileWatch& operator=(const FileWatch&) = delete;

  /// From now on watches exactly `files` (absolute paths), and forgets earlier changes.
  void watch(const std::vector<std::filesystem::path>& files);
  /// Whether a watched file was written, replaced, created or removed since watch() or since the
  /// last changed() that returned true. Cheap: one non-blocking read, or a few stat calls.
  [[nodiscard]] bool changed();
  /// "inotify" or "polling": how this watch learns of changes (for the log).
  [[nodiscard]] const char* how() const;

  struct Subscription;  // what the process's inotify instance flags (file_watch.cpp)

 private:
  std::unique_ptr<Subscription> subscription_;  // null while polling
  struct Stamp {
    std::filesystem::path file;
    std::optional<std::filesystem::file_time_type> time;  // nullopt: absent
    std::uintmax_t size = 0;
  };
  std::vector<Stamp> stamps_;  // polling only
  std::chrono::steady_clock::time_point polled_;
};

}  // namespace kjit::detail
