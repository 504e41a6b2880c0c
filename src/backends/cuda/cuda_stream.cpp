#include "backends/cuda/cuda_stream.hpp"

#include "backends/cuda/cuda_device.hpp"
#include "backends/cuda/cuda_errors.hpp"
#include "backends/cuda/cuda_staging.hpp"
#include "support/logging.hpp"
#include "support/optional_function.hpp"

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
  captured_launches_.clear();
  recording_into_ = this;
  recording_.store(true, std::memory_order_release);
}

// Waiting for an event recorded in a capture draws this stream into the capture.
void CudaStream::join_recording(backend::Stream& origin, backend::Event& event) {
  wait(event);
  recording_into_ = &static_cast<CudaStream&>(origin);
  recording_.store(true, std::memory_order_release);
}

void CudaStream::leave_recording() {
  recording_.store(false, std::memory_order_release);
  recording_into_ = nullptr;
}

void CudaStream::note_recorded_launch() {
  const DriverApi& api = device_.api();
  if (api.cuStreamGetCaptureInfo == nullptr) {
    recording_into_->captured_launches_.push_back(nullptr);  // set_arguments says why it cannot
    return;
  }
  CUstreamCaptureStatus status{};
  const CUgraphNode* leaves = nullptr;
  std::size_t count = 0;
  check(api, api.cuStreamGetCaptureInfo(handle(), &status, nullptr, nullptr, &leaves, &count),
        "cuStreamGetCaptureInfo_v2", device_.id());
  // A stream captures in order: the node just added is the one the next work will follow.
  recording_into_->captured_launches_.push_back(
      status == CU_STREAM_CAPTURE_STATUS_ACTIVE && count == 1 ? leaves[0] : nullptr);
}

std::unique_ptr<backend::Graph> CudaStream::end_recording() {
  const CUstream stream = handle();
  const DriverApi& api = device_.api();
  recording_.store(false, std::memory_order_release);
  recording_into_ = nullptr;
  std::vector<CUgraphNode> launches = std::move(captured_launches_);
  captured_launches_.clear();
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
  return std::make_unique<CudaGraph>(device_, graph, exec, nodes, std::move(launches));
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

void CudaGraph::set_arguments(std::size_t launch, const backend::Function& function,
                              const void* const* args) {
  const DriverApi& api = device_.api();
  const auto get = backend::optional_function(
      api.cuGraphKernelNodeGetParams, "cuGraphKernelNodeGetParams_v2", device_.id(), "CUDA driver");
  const auto set =
      backend::optional_function(api.cuGraphExecKernelNodeSetParams,
                                 "cuGraphExecKernelNodeSetParams_v2", device_.id(), "CUDA driver");
  const CUgraphNode node = launches_.at(launch);
  if (node == nullptr) {
    throw BackendError(fmt::format(
        "kjit: {}: the CUDA driver did not say which graph node launch {} of kernel '{}' became "
        "(cuStreamGetCaptureInfo_v2), so its arguments cannot be set",
        device_.id(), launch, function.name()));
  }
  device_.make_current();
  std::optional<CUDA_KERNEL_NODE_PARAMS>& known = params_.at(launch);  // the caller serialises
  if (!known) {
    CUDA_KERNEL_NODE_PARAMS params{};
    check(api, get(node, &params), "cuGraphKernelNodeGetParams_v2", device_.id());
    params.extra = nullptr;
    known = params;
  }
  CUDA_KERNEL_NODE_PARAMS params = *known;
  params.kernelParams = const_cast<void**>(args);  // NOLINT: the driver copies, never writes
  check(api, set(exec_, node, &params), "cuGraphExecKernelNodeSetParams_v2", device_.id());
}

void CudaGraph::launch(backend::Stream& stream) {
  const CUstream s = static_cast<CudaStream&>(stream).handle();
  check(device_.api(), device_.api().cuGraphLaunch(exec_, s), "cuGraphLaunch", device_.id());
}

}  // namespace kjit::cuda
