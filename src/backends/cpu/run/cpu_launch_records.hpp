// A kernel's launch records, reused: a CPU launch copies its arguments into a record that waits
// on a stream until the launch has run, then goes back to the kernel's spares. A launch thus
// allocates nothing once as many of the kernel's launches have been in flight at once before
// (tests/api/launch_allocations_test.cpp counts them).
#pragma once

#include "backends/cpu/run/cpu_executor.hpp"
#include "backends/cpu/run/cpu_stream.hpp"

#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace kjit::cpu {

class LaunchRecords;

/// One launch on a stream: what the executor runs, and where it goes when done.
class QueuedLaunch final : public StreamWork {
 public:
  CpuLaunch launch;

  void run() override { executor_->run(launch); }
  [[nodiscard]] std::string what() const override;
  void done() noexcept override;

 private:
  friend class LaunchRecords;
  CpuExecutor* executor_ = nullptr;
  std::shared_ptr<LaunchRecords> owner_;  // set while the record is out (in flight)
};

class LaunchRecords : public std::enable_shared_from_this<LaunchRecords> {
 public:
  /// Records of launches of the kernel `prototype` describes (its name, code, entries and
  /// history; grid and block are set per launch), with `argument_bytes` of arguments at the
  /// `offsets` of its parameters.
  LaunchRecords(CpuExecutor& executor, CpuLaunch prototype, std::size_t argument_bytes,
                std::vector<std::size_t> offsets);
  LaunchRecords(const LaunchRecords&) = delete;
  LaunchRecords& operator=(const LaunchRecords&) = delete;
  ~LaunchRecords();

  /// A record to fill in and enqueue; the stream hands it back through done(). Its argument
  /// slots are laid out (argument_pointers) and hold the previous launch's values.
  QueuedLaunch& take();

 private:
  friend class QueuedLaunch;
  void give_back(QueuedLaunch* record) noexcept;

  CpuExecutor& executor_;
  const CpuLaunch prototype_;
  std::size_t argument_bytes_;
  std::vector<std::size_t> offsets_;
  std::mutex mutex_;
  std::vector<std::unique_ptr<QueuedLaunch>> all_;
  std::vector<QueuedLaunch*> spare_;  // capacity kept at all_.size(): giving back never allocates
};

}  // namespace kjit::cpu
