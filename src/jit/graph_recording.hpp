// What Graph::record notes while a stream records, besides what the backend records: the kernels
// the recorded launches run (kept loaded while the graph lives) and the buffers recorded
// operations use (each checked to be still allocated when the graph is launched).
#pragma once

#include "jit/device_impl.hpp"

#include <cstddef>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace kjit::detail {

class KernelImpl;
class RawBuffer;
struct KernelArg;

/// A buffer a recorded operation uses, and how messages name that use.
struct RecordedUse {
  static constexpr std::size_t kNotALaunch = static_cast<std::size_t>(-1);
  Allocation allocation;
  std::string what;                  // "argument 1 of kernel 'vadd' of 'vadd.cu' (operation 3)"
  std::size_t launch = kNotALaunch;  // which kernel launch uses it (0-based), if one does
};

/// The buffers among `args` (a launch's arguments) that live on `device`, as uses by launch
/// number `launch`; messages name the launch as `which` ("operation 3", "launch 1").
void note_argument_uses(DeviceImpl& device, const KernelImpl& kernel, const KernelArg* args,
                        std::size_t count, std::size_t launch, std::string_view which,
                        std::vector<RecordedUse>& uses);

class Recording {
 public:
  /// Calls `enqueue` (which enqueues a launch of `kernel` with `args` on the recording stream) and
  /// notes the launch, one launch at a time: the backend numbers launches as they reach the
  /// stream, and the numbers here must be the same.
  template <class Enqueue>
  void launch(const KernelImpl& kernel, const KernelArg* args, std::size_t count,
              Enqueue&& enqueue) {
    const std::lock_guard lock(mutex_);
    std::forward<Enqueue>(enqueue)();
    note_launch(kernel, args, count);
  }
  /// A copy between two buffers, just enqueued on the recording stream.
  void note_copy(const RawBuffer& dst, const RawBuffer& src);

  /// What the graph keeps: taken when the recording ends.
  std::vector<std::shared_ptr<const KernelImpl>> take_kernels();
  std::vector<RecordedUse> take_uses();
  [[nodiscard]] std::size_t operations();

 private:
  void note_launch(const KernelImpl& kernel, const KernelArg* args, std::size_t count);
  void use(DeviceImpl& device, std::uint64_t address, std::string what);
  std::mutex mutex_;  // other threads may launch on the recording stream
  std::vector<std::shared_ptr<const KernelImpl>> kernels_;
  std::vector<RecordedUse> uses_;
  std::size_t operations_ = 0;
};

}  // namespace kjit::detail
