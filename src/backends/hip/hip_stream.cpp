#include "backends/hip/hip_stream.hpp"

#include "backends/hip/hip_device.hpp"
#include "backends/hip/hip_errors.hpp"
#include "support/logging.hpp"
#include "support/optional_function.hpp"

#include <kjit/error.hpp>

#include <fmt/format.h>

namespace kjit::hip {

namespace {

void* address(std::uint64_t a) {
  return reinterpret_cast<void*>(a);  // NOLINT(performance-no-int-to-ptr): device addresses
}

}  // namespace

HipEvent::~HipEvent() {
  const hipError_t r = device_.api().hipEventDestroy(event_);
  if (r != hipSuccess) {
    detail::log().warn("hipEventDestroy on {}: {}", device_.id(),
                       describe_result(device_.api(), r));
  }
}

void HipEvent::synchronize() {
  check(device_.api(), device_.api().hipEventSynchronize(event_), "hipEventSynchronize",
        device_.id());
}

bool HipEvent::ready() {
  const hipError_t r = device_.api().hipEventQuery(event_);
  if (r == hipErrorNotReady) {
    return false;
  }
  check(device_.api(), r, "hipEventQuery", device_.id());
  return true;
}

double HipEvent::elapsed_ms_since(backend::Event& start) {
  float ms = 0;
  check(device_.api(),
        device_.api().hipEventElapsedTime(&ms, static_cast<HipEvent&>(start).event_, event_),
        "hipEventElapsedTime", device_.id());
  return ms;
}

HipStream::~HipStream() {
  const hipStream_t stream = stream_.load();
  if (stream == nullptr) {
    return;
  }
  const HipApi& api = device_.api();
  try {
    device_.make_current();
    hipError_t r = api.hipStreamSynchronize(stream);
    if (r != hipSuccess) {
      detail::log().warn("a stream of {} was destroyed with an unreported error: {}", device_.id(),
                         describe_result(api, r));
    }
    r = api.hipStreamDestroy(stream);
    if (r != hipSuccess) {
      detail::log().warn("hipStreamDestroy on {}: {}", device_.id(), describe_result(api, r));
    }
  } catch (const std::exception& e) {
    detail::log().warn("destroying a stream of {}: {}", device_.id(), e.what());
  }
}

hipStream_t HipStream::handle() {
  device_.make_current();
  hipStream_t stream = stream_.load(std::memory_order_acquire);
  if (stream != nullptr) {
    return stream;
  }
  const std::lock_guard lock(create_mutex_);
  stream = stream_.load(std::memory_order_acquire);
  if (stream == nullptr) {
    check(device_.api(), device_.api().hipStreamCreateWithFlags(&stream, hipStreamNonBlocking),
          "hipStreamCreateWithFlags", device_.id());
    stream_.store(stream, std::memory_order_release);
  }
  return stream;
}

void HipStream::copy_to_device(std::uint64_t dst, const void* src, std::size_t bytes) {
  const hipStream_t s = handle();
  check(device_.api(),
        device_.api().hipMemcpyHtoDAsync(address(dst), const_cast<void*>(src), bytes, s),
        "hipMemcpyHtoDAsync", fmt::format("{}, {} bytes", device_.id(), bytes));
}

void HipStream::copy_to_host(void* dst, std::uint64_t src, std::size_t bytes) {
  const hipStream_t s = handle();
  check(device_.api(), device_.api().hipMemcpyDtoHAsync(dst, address(src), bytes, s),
        "hipMemcpyDtoHAsync", fmt::format("{}, {} bytes", device_.id(), bytes));
}

void HipStream::copy_on_device(std::uint64_t dst, std::uint64_t src, std::size_t bytes) {
  const hipStream_t s = handle();
  check(device_.api(), device_.api().hipMemcpyDtoDAsync(address(dst), address(src), bytes, s),
        "hipMemcpyDtoDAsync", fmt::format("{}, {} bytes", device_.id(), bytes));
}

std::unique_ptr<backend::Event> HipStream::record() {
  const hipStream_t s = handle();
  const HipApi& api = device_.api();
  hipEvent_t event = nullptr;
  check(api, api.hipEventCreateWithFlags(&event, hipEventDefault), "hipEventCreateWithFlags",
        device_.id());
  auto owned = std::make_unique<HipEvent>(device_, event);
  check(api, api.hipEventRecord(event, s), "hipEventRecord", device_.id());
  return owned;
}

void HipStream::wait(backend::Event& event) {
  const hipStream_t s = handle();
  check(device_.api(),
        device_.api().hipStreamWaitEvent(s, static_cast<HipEvent&>(event).handle(), 0),
        "hipStreamWaitEvent", device_.id());
}

void HipStream::synchronize() {
  const hipError_t r = device_.api().hipStreamSynchronize(handle());
  if (r != hipSuccess) {
    throw BackendError(fmt::format(
        "kjit: work on a stream of {} failed: {} (the last kernel launched on it was {})",
        device_.id(), describe_result(device_.api(), r), last_launch_.describe()));
  }
}

void HipStream::note_launch(const std::string* kernel) noexcept {
  last_launch_.note(kernel);
  device_.note_launch(kernel);
}

void HipStream::begin_recording() {
  const hipStream_t stream = handle();
  const HipApi& api = device_.api();
  check(api,
        backend::optional_function(api.hipStreamBeginCapture, "hipStreamBeginCapture", device_.id(),
                                   "HIP runtime")(stream, hipStreamCaptureModeRelaxed),
        "hipStreamBeginCapture", device_.id());
  captured_launches_.clear();
  recording_into_ = this;
  recording_.store(true, std::memory_order_release);
}

// Waiting for an event recorded in a capture draws this stream into the capture.
void HipStream::join_recording(backend::Stream& origin, backend::Event& event) {
  wait(event);
  recording_into_ = &static_cast<HipStream&>(origin);
  recording_.store(true, std::memory_order_release);
}

void HipStream::leave_recording() {
  recording_.store(false, std::memory_order_release);
  recording_into_ = nullptr;
}

void HipStream::note_recorded_launch() {
  const HipApi& api = device_.api();
  if (api.hipStreamGetCaptureInfo == nullptr) {
    recording_into_->captured_launches_.push_back(nullptr);  // set_arguments says why it cannot
    return;
  }
  int status = 0;
  const hipGraphNode_t* leaves = nullptr;
  std::size_t count = 0;
  check(api, api.hipStreamGetCaptureInfo(handle(), &status, nullptr, nullptr, &leaves, &count),
        "hipStreamGetCaptureInfo_v2", device_.id());
  recording_into_->captured_launches_.push_back(
      status == hipStreamCaptureStatusActive && count == 1 ? leaves[0] : nullptr);
}

std::unique_ptr<backend::Graph> HipStream::end_recording() {
  const hipStream_t stream = handle();
  const HipApi& api = device_.api();
  recording_.store(false, std::memory_order_release);
  recording_into_ = nullptr;
  std::vector<hipGraphNode_t> launches = std::move(captured_launches_);
  captured_launches_.clear();
  hipGraph_t graph = nullptr;
  check(api,
        backend::optional_function(api.hipStreamEndCapture, "hipStreamEndCapture", device_.id(),
                                   "HIP runtime")(stream, &graph),
        "hipStreamEndCapture", device_.id());
  std::size_t nodes = 0;
  hipGraphExec_t exec = nullptr;
  try {
    check(api,
          backend::optional_function(api.hipGraphGetNodes, "hipGraphGetNodes", device_.id(),
                                     "HIP runtime")(graph, nullptr, &nodes),
          "hipGraphGetNodes", device_.id());
    check(api,
          backend::optional_function(api.hipGraphInstantiate, "hipGraphInstantiate", device_.id(),
                                     "HIP runtime")(&exec, graph, nullptr, nullptr, 0),
          "hipGraphInstantiate", device_.id());
  } catch (...) {
    if (api.hipGraphDestroy != nullptr) {
      (void)api.hipGraphDestroy(graph);
    }
    throw;
  }
  return std::make_unique<HipGraph>(device_, graph, exec, nodes, std::move(launches));
}

HipGraph::~HipGraph() {
  try {
    device_.make_current();
    const HipApi& api = device_.api();
    const hipError_t a = api.hipGraphExecDestroy(exec_);
    const hipError_t b = api.hipGraphDestroy(graph_);
    if (a != hipSuccess || b != hipSuccess) {
      detail::log().warn("destroying a graph on {}: {}", device_.id(),
                         describe_result(api, a != hipSuccess ? a : b));
    }
  } catch (const std::exception& e) {
    detail::log().warn("destroying a graph on {}: {}", device_.id(), e.what());
  }
}

void HipGraph::set_arguments(std::size_t launch, const backend::Function& function,
                             const void* const* args) {
  const HipApi& api = device_.api();
  const auto get = backend::optional_function(
      api.hipGraphKernelNodeGetParams, "hipGraphKernelNodeGetParams", device_.id(), "HIP runtime");
  const auto set =
      backend::optional_function(api.hipGraphExecKernelNodeSetParams,
                                 "hipGraphExecKernelNodeSetParams", device_.id(), "HIP runtime");
  const hipGraphNode_t node = launches_.at(launch);
  if (node == nullptr) {
    throw BackendError(fmt::format(
        "kjit: {}: the HIP runtime did not say which graph node launch {} of kernel '{}' became "
        "(hipStreamGetCaptureInfo_v2), so its arguments cannot be set",
        device_.id(), launch, function.name()));
  }
  device_.make_current();
  hipKernelNodeParams params{};
  check(api, get(node, &params), "hipGraphKernelNodeGetParams", device_.id());
  params.kernelParams = const_cast<void**>(args);  // NOLINT: the runtime copies, never writes
  params.extra = nullptr;
  check(api, set(exec_, node, &params), "hipGraphExecKernelNodeSetParams", device_.id());
}

void HipGraph::launch(backend::Stream& stream) {
  const hipStream_t s = static_cast<HipStream&>(stream).handle();
  check(device_.api(), device_.api().hipGraphLaunch(exec_, s), "hipGraphLaunch", device_.id());
}

}  // namespace kjit::hip
