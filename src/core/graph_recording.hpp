// What Graph::record notes while streams record, besides what the backend records: the kernels
// the recorded launches run (kept loaded while the graph lives), the buffers recorded operations
// use (each checked to be still allocated when the graph is launched), and which streams joined
// the recording and whether each was joined back to the recording stream.
#pragma once

#include "core/device_impl.hpp"

#include <cstddef>
#include <memory>
#include <mutex>
#include <optional>
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

/// One Graph::record in progress. The stream it began on records; another stream of the device
/// joins it by waiting for an event recorded in it, and must be joined back (the recording stream
/// waits for an event recorded on it after its last work) before the recording ends, as CUDA's
/// stream capture demands: a graph has one start and one end.
class Recording : public std::enable_shared_from_this<Recording> {
 public:
  explicit Recording(StreamImpl& origin)
      : members_{Member{.stream = &origin, .operations = 0, .follows = {}, .kept = nullptr}} {}
  /// The stream Graph::record began on.
  [[nodiscard]] StreamImpl& origin();

  /// Calls `enqueue` (which enqueues a launch of `kernel` with `args` on `stream`, a stream of
  /// the recording) and notes the launch, one launch at a time: the backend numbers launches as
  /// they reach the streams, and the numbers here must be the same.
  template <class Enqueue>
  void launch(StreamImpl& stream, const KernelImpl& kernel, const KernelArg* args,
              std::size_t count, Enqueue&& enqueue) {
    const std::lock_guard lock(mutex_);
    std::forward<Enqueue>(enqueue)();
    note_launch(stream, kernel, args, count);
  }
  /// A copy between two buffers, just enqueued on `stream`, a stream of the recording.
  void note_copy(StreamImpl& stream, const RawBuffer& dst, const RawBuffer& src);

  /// Which work of each stream of the recording an event recorded on `stream` follows: what
  /// wait() takes.
  [[nodiscard]] std::vector<std::size_t> point(StreamImpl& stream);
  /// `stream` waits for `point`; a stream not in the recording joins it (and is kept until the
  /// recording ends, even if its last handle goes). The caller makes the backend do the same.
  void wait(const std::shared_ptr<StreamImpl>& stream, const std::vector<std::size_t>& point);
  /// The streams that joined and have work the recording stream does not wait for, numbered in
  /// the order they joined (from 1); empty when all are joined back.
  [[nodiscard]] std::vector<std::size_t> unjoined();
  /// The streams that joined (not the recording stream).
  [[nodiscard]] std::vector<StreamImpl*> joined();

  /// The recording is over: events recorded in it can no longer be waited for.
  void end();
  [[nodiscard]] bool ended();

  /// What the graph keeps: taken when the recording ends.
  std::vector<std::shared_ptr<const KernelImpl>> take_kernels();
  std::vector<RecordedUse> take_uses();

 private:
  /// A stream of the recording: the operations enqueued on it, and how many of each member's
  /// its later work follows (by index in members_).
  struct Member {
    StreamImpl* stream = nullptr;
    std::size_t operations = 0;
    std::vector<std::size_t> follows;
    std::shared_ptr<StreamImpl> kept;  // a stream that joined
  };
  std::size_t member(StreamImpl& stream);  // its index; with mutex_ held
  void note_operation(StreamImpl& stream);
  void note_launch(StreamImpl& stream, const KernelImpl& kernel, const KernelArg* args,
                   std::size_t count);
  void use(DeviceImpl& device, std::uint64_t address, std::string what);
  std::mutex mutex_;             // other threads may enqueue on the recording's streams
  std::vector<Member> members_;  // [0]: the stream Graph::record began on
  std::vector<std::shared_ptr<const KernelImpl>> kernels_;
  std::vector<RecordedUse> uses_;
  std::size_t operations_ = 0;
  bool ended_ = false;
};

}  // namespace kjit::detail
