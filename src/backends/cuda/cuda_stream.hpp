// CUDA streams and events: the shared GPU stream (backends/gpu/gpu_stream.hpp) on the CUDA
// driver, plus pinned staging of large synchronous copies. Graph capture is the stream's;
// replay is in cuda_graph.hpp.
#pragma once

#include "backends/cuda/cuda_vendor.hpp"
#include "backends/gpu/gpu_event.hpp"
#include "backends/gpu/gpu_stream.hpp"

namespace kjit::cuda {

using CudaEvent = gpu::GpuEvent<CudaVendor>;

class CudaStream final : public gpu::GpuStream<CudaVendor> {
 public:
  using GpuStream::GpuStream;
  /// Large copies go through the device's pinned staging buffers (cuda_staging.hpp).
  void copy_to_device_now(std::uint64_t dst, const void* src, std::size_t bytes) override;
  void copy_to_host_now(void* dst, std::uint64_t src, std::size_t bytes) override;
};

}  // namespace kjit::cuda

// Instantiated once, in cuda_stream.cpp.
extern template class kjit::gpu::GpuEvent<kjit::cuda::CudaVendor>;
extern template class kjit::gpu::GpuStream<kjit::cuda::CudaVendor>;
