#include "backends/cuda/cuda_stream.hpp"

#include "backends/cuda/cuda_device.hpp"
#include "backends/cuda/cuda_graph.hpp"
#include "backends/cuda/cuda_staging.hpp"

template class kjit::gpu::GpuEvent<kjit::cuda::CudaVendor>;
template class kjit::gpu::GpuStream<kjit::cuda::CudaVendor>;

namespace kjit::cuda {

void CudaStream::copy_to_device_now(std::uint64_t dst, const void* src, std::size_t bytes) {
  if (bytes < PinnedStaging::kMinimumBytes) {
    backend::Stream::copy_to_device_now(dst, src, bytes);
    return;
  }
  device().staging().upload(handle(), dst, src, bytes);
}

void CudaStream::copy_to_host_now(void* dst, std::uint64_t src, std::size_t bytes) {
  if (bytes < PinnedStaging::kMinimumBytes) {
    backend::Stream::copy_to_host_now(dst, src, bytes);
    return;
  }
  device().staging().download(handle(), dst, src, bytes);
}

}  // namespace kjit::cuda
