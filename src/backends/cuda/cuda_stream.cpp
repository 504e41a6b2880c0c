#include "backends/cuda/cuda_stream.hpp"

#include "backends/cuda/cuda_device.hpp"
#include "backends/cuda/cuda_errors.hpp"
#include "backends/cuda/cuda_staging.hpp"
#include "backends/optional_function.hpp"
#include "jit/logging.hpp"

#include <kjit/error.hpp>

#include <fmt/format.h>

namespace kjit::cuda {

CudaEvent::~CudaEvent() {
  const CUresult r = device_.api().cuEventDestroy(event_);
  if (r != CUDA_SUCCESS) {
    detail::log().warn("cuEventDestroy on {}: {}", device_.id(),
                       describe_result(&device_.api(), r));
  }
}

void CudaEvent::synchronize() {
  check(device_.api(), device_.api().cuEventSynchronize(event_), "cuEventSynchronize",
        device_.id());
}

bool CudaEvent::ready() {
  const CUresult r = device_.api().cuEventQuery(event_);
  if (r == CUDA_ERROR_NOT_READY) {
    return false;
  }
  check(device_.api(), r, "cuEventQuery", device_.id());
  return true;
}

double CudaEvent::elapsed_ms_since(backend::Event& start) {
  float ms = 0;
  check(device_.api(),
        device_.api().cuEventElapsedTime(&ms, static_cast<CudaEvent&>(start).event_, event_),
        "cuEventElapsedTime", device_.id());
  return ms;
}

CudaStream::~CudaStream() {
  const CUstream stream = stream_.load();
  if (stream == nullptr) {
    return;
  }
  const DriverApi& api = device_.api();
  try {
    device_.make_current();
    CUresult r = api.cuStreamSynchronize(stream);
    if (r != CUDA_SUCCESS) {
      detail::log().warn("a stream of {} was destroyed with an unreported error: {}", device_.id(),
                         describe_result(&api, r));
    }
    r = api.cuStreamDestroy(stream);
    if (r != CUDA_SUCCESS) {
      detail::log().warn("cuStreamDestroy on {}: {}", device_.id(), describe_result(&api, r));
    }
  } catch (const std::exception& e) {
    detail::log().warn("destroying a stream of {}: {}", device_.id(), e.what());
  }
}

CUstream CudaStream::handle() {
  device_.make_current();
  CUstream stream = stream_.load(std::memory_order_acquire);
  if (stream != nullptr) {
    return stream;
  }
  const std::lock_guard lock(create_mutex_);
  stream = stream_.load(std::memory_order_acquire);
  if (stream == nullptr) {
    check(device_.api(), device_.api().cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING),
          "cuStreamCreate", device_.id());
    stream_.store(stream, std::memory_order_release);
  }
  return stream;
}

void CudaStream::copy_to_device(std::uint64_t dst, const void* src, std::size_t bytes) {
  const CUstream s = handle();
  check(device_.api(), device_.api().cuMemcpyHtoDAsync(dst, src, bytes, s), "cuMemcpyHtoDAsync",
        fmt::format("{}, {} bytes", device_.id(), bytes));
}

void CudaStream::copy_to_host(void* dst, std::uint64_t src, std::size_t bytes) {
  const CUstream s = handle();
  check(device_.api(), device_.api().cuMemcpyDtoHAsync(dst, src, bytes, s), "cuMemcpyDtoHAsync",
        fmt::format("{}, {} bytes", device_.id(), bytes));
}

void CudaStream::copy_on_device(std::uint64_t dst, std::uint64_t src, std::size_t bytes) {
  const CUstream s = handle();
  check(device_.api(), device_.api().cuMemcpyDtoDAsync(dst, src, bytes, s), "cuMemcpyDtoDAsync",
        fmt::format("{}, {} bytes", device_.id(), bytes));
}

void CudaStream::copy_to_device_now(std::uint64_t dst, const void* src, std::size_t bytes) {
  if (bytes < PinnedStaging::kMinimumBytes) {
    backend::Stream::copy_to_device_now(dst, src, bytes);
    return;
  }
  device_.staging().upload(handle(), dst, src, bytes);
}

void CudaStream::copy_to_host_now(void* dst, std::uint64_t src, std::size_t bytes) {
  if (bytes < PinnedStaging::kMinimumBytes) {
    backend::Stream::copy_to_host_now(dst, src, bytes);
    return;
  }
  device_.staging().download(handle(), dst, src, bytes);
}

std::unique_ptr<backend::Event> CudaStream::record() {
  const CUstream s = handle();
  const DriverApi& api = device_.api();
  CUevent event = nullptr;
  check(api, api.cuEventCreate(&event, CU_EVENT_DEFAULT), "cuEventCreate", device_.id());
  auto owned = std::make_unique<CudaEvent>(device_, event);
  check(api, api.cuEventRecord(event, s), "cuEventRecord", device_.id());
  return owned;
}

void CudaStream::wait(backend::Event& event) {
  const CUstream s = handle();
  check(device_.api(),
        device_.api().cuStreamWaitEvent(s, static_cast<CudaEvent&>(event).handle(), 0),
        "cuStreamWaitEvent", device_.id());
}

void CudaStream::synchronize() {
  const CUresult r = device_.api().cuStreamSynchronize(handle());
  if (r != CUDA_SUCCESS) {
    throw BackendError(
        fmt::format("kjit: work on a stream of {} failed: {} (the last kernel "
                    "launched on it was {})",
                    device_.id(), describe_result(&device_.api(), r), last_launch_.describe()));
  }
}

void CudaStream::note_launch(const std::string* kernel) noexcept {
  last_launch_.note(kernel);
  device_.note_launch(kernel);
}

void CudaStream::begin_recording() {
  const CUstream stream = handle();
  const DriverApi& api = device_.api();
  check(
      api,
      backend::optional_function(api.cuStreamBeginCapture, "cuStreamBeginCapture_v2", device_.id(),
                                 "CUDA driver")(stream, CU_STREAM_CAPTURE_MODE_RELAXED),
      "cuStreamBeginCapture", device_.id());
}

std::unique_ptr<backend::Graph> CudaStream::end_recording() {
  const CUstream stream = handle();
  const DriverApi& api = device_.api();
  CUgraph graph = nullptr;
  check(api,
        backend::optional_function(api.cuStreamEndCapture, "cuStreamEndCapture", device_.id(),
                                   "CUDA driver")(stream, &graph),
        "cuStreamEndCapture", device_.id());
  std::size_t nodes = 0;
  CUgraphExec exec = nullptr;
  try {
    check(api,
          backend::optional_function(api.cuGraphGetNodes, "cuGraphGetNodes", device_.id(),
                                     "CUDA driver")(graph, nullptr, &nodes),
          "cuGraphGetNodes", device_.id());
    check(api,
          backend::optional_function(api.cuGraphInstantiate, "cuGraphInstantiateWithFlags",
                                     device_.id(), "CUDA driver")(&exec, graph, 0),
          "cuGraphInstantiateWithFlags", device_.id());
  } catch (...) {
    if (api.cuGraphDestroy != nullptr) {
      (void)api.cuGraphDestroy(graph);
    }
    throw;
  }
  return std::make_unique<CudaGraph>(device_, graph, exec, nodes);
}

CudaGraph::~CudaGraph() {
  try {
    device_.make_current();
    const DriverApi& api = device_.api();
    const CUresult a = api.cuGraphExecDestroy(exec_);
    const CUresult b = api.cuGraphDestroy(graph_);
    if (a != CUDA_SUCCESS || b != CUDA_SUCCESS) {
      detail::log().warn("destroying a graph on {}: {}", device_.id(),
                         describe_result(&api, a != CUDA_SUCCESS ? a : b));
    }
  } catch (const std::exception& e) {
    detail::log().warn("destroying a graph on {}: {}", device_.id(), e.what());
  }
}

void CudaGraph::launch(backend::Stream& stream) {
  const CUstream s = static_cast<CudaStream&>(stream).handle();
  check(device_.api(), device_.api().cuGraphLaunch(exec_, s), "cuGraphLaunch", device_.id());
}

}  // namespace kjit::cuda
