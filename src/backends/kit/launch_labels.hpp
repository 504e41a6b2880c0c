// The last kernel launched on a device or stream, for messages about asynchronous failures
// ("... failed (the last kernel launched there was 'vadd')"). Names are interned once, when a
// kernel is looked up, so that a launch records its kernel with one atomic store.
#pragma once

#include <atomic>
#include <mutex>
#include <set>
#include <string>

namespace kjit::backend {

/// Kernel names kept as long as their device.
class KernelLabels {
 public:
  /// A stable copy of `label`.
  const std::string* intern(const std::string& label);

 private:
  std::mutex mutex_;
  std::set<std::string> labels_;
};

class LastLaunch {
 public:
  /// `kernel` comes from KernelLabels::intern.
  void note(const std::string* kernel) noexcept { last_.store(kernel, std::memory_order_relaxed); }
  /// "'vadd'", or "none" before the first launch.
  [[nodiscard]] std::string describe() const;

 private:
  std::atomic<const std::string*> last_{nullptr};
};

}  // namespace kjit::backend
