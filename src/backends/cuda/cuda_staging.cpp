#include "backends/cuda/cuda_staging.hpp"

#include "backends/cuda/cuda_device.hpp"
#include "backends/cuda/cuda_errors.hpp"
#include "support/logging.hpp"
#include "support/parallel_copy.hpp"

#include <algorithm>

namespace kjit::cuda {

PinnedStaging::~PinnedStaging() {
  const DriverApi& api = device_.api();
  for (void* b : buffers_) {
    if (b != nullptr) {
      api.cuMemFreeHost(b);
    }
  }
  for (CUevent e : events_) {
    if (e != nullptr) {
      api.cuEventDestroy(e);
    }
  }
}

bool PinnedStaging::ready() {
  if (tried_) {
    return buffers_[1] != nullptr;
  }
  tried_ = true;
  const DriverApi& api = device_.api();
  for (std::size_t i = 0; i < 2; ++i) {
    CUresult r = api.cuMemAllocHost(&buffers_[i], kChunkBytes);
    if (r == CUDA_SUCCESS) {
      r = api.cuEventCreate(&events_[i], CU_EVENT_DEFAULT);
    }
    if (r != CUDA_SUCCESS) {
      detail::log().warn("{}: no pinned staging memory ({}); large copies go direct, slower",
                         device_.id(), describe_result(&api, r));
      buffers_[1] = nullptr;
      return false;
    }
  }
  return true;
}

bool PinnedStaging::acquire(const void* host, std::unique_lock<std::mutex>& lock) {
  if (device_.is_pinned(host)) {
    return false;
  }
  lock = std::unique_lock(mutex_);
  return ready();
}

void PinnedStaging::upload(CUstream stream, CUdeviceptr dst, const void* src, std::size_t bytes) {
  const DriverApi& api = device_.api();
  const std::string context = device_.id() + ", upload";
  std::unique_lock<std::mutex> lock;
  if (!acquire(src, lock)) {
    check(api, api.cuMemcpyHtoDAsync(dst, src, bytes, stream), "cuMemcpyHtoDAsync", context);
    check(api, api.cuStreamSynchronize(stream), "cuStreamSynchronize", context);
    return;
  }
  const auto* from = static_cast<const unsigned char*>(src);
  for (std::size_t offset = 0, i = 0; offset < bytes; offset += kChunkBytes, ++i) {
    const std::size_t b = i % 2;
    const std::size_t n = std::min(kChunkBytes, bytes - offset);
    if (i >= 2) {  // this buffer's previous chunk must have left
      check(api, api.cuEventSynchronize(events_[b]), "cuEventSynchronize", context);
    }
    detail::parallel_copy(buffers_[b], from + offset, n);
    check(api, api.cuMemcpyHtoDAsync(dst + offset, buffers_[b], n, stream), "cuMemcpyHtoDAsync",
          context);
    check(api, api.cuEventRecord(events_[b], stream), "cuEventRecord", context);
  }
  check(api, api.cuStreamSynchronize(stream), "cuStreamSynchronize", context);
}

void PinnedStaging::download(CUstream stream, void* dst, CUdeviceptr src, std::size_t bytes) {
  const DriverApi& api = device_.api();
  const std::string context = device_.id() + ", download";
  std::unique_lock<std::mutex> lock;
  if (!acquire(dst, lock)) {
    check(api, api.cuMemcpyDtoHAsync(dst, src, bytes, stream), "cuMemcpyDtoHAsync", context);
    check(api, api.cuStreamSynchronize(stream), "cuStreamSynchronize", context);
    return;
  }
  auto* to = static_cast<unsigned char*>(dst);
  const std::size_t chunks = (bytes + kChunkBytes - 1) / kChunkBytes;
  const auto issue = [&](std::size_t i) {
    const std::size_t offset = i * kChunkBytes;
    const std::size_t n = std::min(kChunkBytes, bytes - offset);
    check(api, api.cuMemcpyDtoHAsync(buffers_[i % 2], src + offset, n, stream), "cuMemcpyDtoHAsync",
          context);
    check(api, api.cuEventRecord(events_[i % 2], stream), "cuEventRecord", context);
  };
  issue(0);
  for (std::size_t i = 0; i < chunks; ++i) {
    if (i + 1 < chunks) {
      issue(i + 1);  // its buffer's previous chunk was copied out in the last round
    }
    check(api, api.cuEventSynchronize(events_[i % 2]), "cuEventSynchronize", context);
    const std::size_t offset = i * kChunkBytes;
    detail::parallel_copy(to + offset, buffers_[i % 2], std::min(kChunkBytes, bytes - offset));
  }
}

}  // namespace kjit::cuda
