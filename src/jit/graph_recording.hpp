// What Graph::record notes while a stream records, besides what the backend records: the kernels
// the recorded launches run (kept loaded while the graph lives) and the buffers recorded
// operations use (each checked to be still allocated when the graph is launched).
#pragma once

#include "jit/device_impl.hpp"

#include <cstddef>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace kjit::detail {

class KernelImpl;
class RawBuffer;
struct KernelArg;

/// A buffer a recorded operation uses, and how messages name that use.
struct RecordedUse {
  Allocation allocation;
  std::string what;  // "argument 1 of kernel 'vadd' of 'vadd.cu' (operation 3)"
};

class Recording {
 public:
  /// A launch of `kernel` with `args`, just enqueued on the recording stream.
  void note_launch(const KernelImpl& kernel, const KernelArg* args, std::size_t count);
  /// A copy between two buffers, just enqueued on the recording stream.
  void note_copy(const RawBuffer& dst, const RawBuffer& src);

  /// What the graph keeps: taken when the recording ends.
  std::vector<std::shared_ptr<const KernelImpl>> take_kernels();
  std::vector<RecordedUse> take_uses();
  [[nodiscard]] std::size_t operations();

 private:
  void use(DeviceImpl& device, std::uint64_t address, std::string what);
  std::mutex mutex_;  // other threads may launch on the recording stream
  std::vector<std::shared_ptr<const KernelImpl>> kernels_;
  std::vector<RecordedUse> uses_;
  std::size_t operations_ = 0;
};

}  // namespace kjit::detail
