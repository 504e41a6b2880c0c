// Large synchronous copies between pageable host memory and a GPU, staged through two pinned
// buffers so that the host's copy of one chunk overlaps the DMA of the other. Pageable copies
// run at a fraction of the link's speed (TOOLCHAIN.md: 7.5 against 55 GB/s).
#pragma once

#include "backends/cuda/cuda_types.hpp"

#include <array>
#include <cstddef>
#include <mutex>

namespace kjit::cuda {

class CudaDevice;

class PinnedStaging {
 public:
  static constexpr std::size_t kChunkBytes = std::size_t{16} << 20;
  /// Below this, staging costs more than it saves.
  static constexpr std::size_t kMinimumBytes = std::size_t{1} << 20;

  explicit PinnedStaging(CudaDevice& device) : device_(device) {}
  PinnedStaging(const PinnedStaging&) = delete;
  PinnedStaging& operator=(const PinnedStaging&) = delete;
  ~PinnedStaging();

  /// Copies, waits until the data has arrived. Falls back to a direct copy when pinned memory
  /// cannot be had.
  void upload(CUstream stream, CUdeviceptr dst, const void* src, std::size_t bytes);
  void download(CUstream stream, void* dst, CUdeviceptr src, std::size_t bytes);

 private:
  /// Takes the pinned buffers for one staged copy of `host`, holding `lock`. False when the copy
  /// goes direct instead: `host` is pinned already (the DMA engine then reads or writes it at the
  /// link's speed), or no pinned buffers can be had.
  bool acquire(const void* host, std::unique_lock<std::mutex>& lock);
  bool ready();  // allocates the buffers on first use; false when that failed
  CudaDevice& device_;
  std::mutex mutex_;  // one staged copy at a time per device
  bool tried_ = false;
  std::array<void*, 2> buffers_{};
  std::array<CUevent, 2> events_{};
};

}  // namespace kjit::cuda
