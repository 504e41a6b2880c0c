// The HIP runtime as a vendor of the shared GPU code (backends/gpu/gpu_vendor.hpp): its types,
// and which runtime function each shared step calls, named as messages name it.
#pragma once

#include "backends/gpu/gpu_vendor.hpp"
#include "backends/hip/hip_errors.hpp"
#include "backends/hip/hip_runtime_api.hpp"
#include "backends/hip/hip_types.hpp"

#include <kjit/types.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace kjit::hip {

class HipDevice;

/// A function of the HIP runtime's table, and its name in messages.
template <class Fn>
constexpr gpu::VendorCall<HipApi, Fn> runtime_call(Fn HipApi::*member, const char* name) {
  return gpu::vendor_call(member, name, "HIP runtime");
}

struct HipVendor {
  using Api = HipApi;
  using Device = HipDevice;
  using DeviceStream = gpu::GpuStream<HipVendor>;
  using DeviceHandle = int;  // the ordinal, which HIP's calls take
  using Result = hipError_t;
  using Stream = hipStream_t;
  using Event = hipEvent_t;
  using Graph = hipGraph_t;
  using GraphExec = hipGraphExec_t;
  using GraphNode = hipGraphNode_t;
  using KernelNodeParams = hipKernelNodeParams;
  using CaptureStatus = int;
  using DevicePointer = hipDeviceptr_t;
  using Module = hipModule_t;
  using Function = hipFunction_t;

  static constexpr Result kSuccess = hipSuccess;
  static constexpr Result kNotReady = hipErrorNotReady;
  static constexpr Result kNotFound = hipErrorNotFound;
  static constexpr BackendKind kBackend = BackendKind::hip;
  static constexpr const char* kLibrary = "HIP runtime";
  static constexpr unsigned kStreamNonBlocking = hipStreamNonBlocking;
  static constexpr unsigned kEventDefault = hipEventDefault;
  static constexpr unsigned kHostAllocPortable = hipHostMallocPortable;
  static constexpr int kCaptureModeRelaxed = hipStreamCaptureModeRelaxed;
  static constexpr CaptureStatus kCaptureActive = hipStreamCaptureStatusActive;
  /// A kernel uses as much dynamic shared memory as the device allows without asking.
  static constexpr bool kDynamicSharedOptIn = false;
  static constexpr std::size_t kDynamicSharedDefault = 0;

  static constexpr auto check = hip::check;
  [[noreturn]] static void fail(const Api& api, const char* call, Result result,
                                std::string_view context, Failure kind) {
    throw_hip_error(api, call, result, context, kind);
  }
  static std::string describe(const Api& api, Result result) {
    return describe_result(api, result);
  }
  static DevicePointer device_pointer(std::uint64_t address) noexcept {
    return reinterpret_cast<void*>(address);  // NOLINT(performance-no-int-to-ptr): device addresses
  }
  static std::uint64_t address(DevicePointer pointer) noexcept {
    return reinterpret_cast<std::uint64_t>(pointer);
  }

  // Devices, modules and launches.
  static constexpr auto device_synchronize =
      runtime_call(&Api::hipDeviceSynchronize, "hipDeviceSynchronize");
  static constexpr auto module_unload = runtime_call(&Api::hipModuleUnload, "hipModuleUnload");
  static constexpr auto module_get_global =
      runtime_call(&Api::hipModuleGetGlobal, "hipModuleGetGlobal");
  static constexpr auto launch_kernel =
      runtime_call(&Api::hipModuleLaunchKernel, "hipModuleLaunchKernel");

  // Enumeration: the attributes DeviceInfo's limits are read from.
  using Attribute = hipDeviceAttribute_t;
  static constexpr Attribute kComputeUnits = hipDeviceAttributeMultiprocessorCount;
  static constexpr Attribute kMaxThreadsPerBlock = hipDeviceAttributeMaxThreadsPerBlock;
  static constexpr std::array<Attribute, 3> kMaxBlock = {hipDeviceAttributeMaxBlockDimX,
                                                         hipDeviceAttributeMaxBlockDimY,
                                                         hipDeviceAttributeMaxBlockDimZ};
  static constexpr std::array<Attribute, 3> kMaxGrid = {
      hipDeviceAttributeMaxGridDimX, hipDeviceAttributeMaxGridDimY, hipDeviceAttributeMaxGridDimZ};

  // Memory.
  static constexpr auto memory_allocate = runtime_call(&Api::hipMalloc, "hipMalloc");
  static constexpr auto memory_free = runtime_call(&Api::hipFree, "hipFree");
  static constexpr auto host_allocate = runtime_call(&Api::hipHostMalloc, "hipHostMalloc");
  static constexpr auto host_free = runtime_call(&Api::hipHostFree, "hipHostFree");

  // Managed memory (optional: a runtime may lack it). A place is a device ordinal, or
  // kHipCpuDeviceId for the host.
  using Location = int;
  using Advice = int;
  static constexpr unsigned kAttachGlobal = kHipMemAttachGlobal;
  static constexpr Advice kSetReadMostly = hipMemAdviseSetReadMostly;
  static constexpr Advice kUnsetReadMostly = hipMemAdviseUnsetReadMostly;
  static constexpr Advice kSetPreferredLocation = hipMemAdviseSetPreferredLocation;
  static constexpr Advice kUnsetPreferredLocation = hipMemAdviseUnsetPreferredLocation;
  static constexpr Advice kSetAccessedBy = hipMemAdviseSetAccessedBy;
  static Location location(DeviceHandle device, ManagedPlace place) noexcept {
    return place == ManagedPlace::device ? device : kHipCpuDeviceId;
  }
  static constexpr auto managed_allocate = runtime_call(&Api::hipMallocManaged, "hipMallocManaged");
  static constexpr auto managed_prefetch =
      runtime_call(&Api::hipMemPrefetchAsync, "hipMemPrefetchAsync");
  static Result prefetch(decltype(Api::hipMemPrefetchAsync) call, DevicePointer address,
                         std::size_t bytes, Location to, Stream stream) {
    return call(address, bytes, to, stream);
  }
  static constexpr auto managed_advise = runtime_call(&Api::hipMemAdvise, "hipMemAdvise");

  // Events.
  static constexpr auto event_create =
      runtime_call(&Api::hipEventCreateWithFlags, "hipEventCreateWithFlags");
  static constexpr auto event_destroy = runtime_call(&Api::hipEventDestroy, "hipEventDestroy");
  static constexpr auto event_record = runtime_call(&Api::hipEventRecord, "hipEventRecord");
  static constexpr auto event_synchronize =
      runtime_call(&Api::hipEventSynchronize, "hipEventSynchronize");
  static constexpr auto event_query = runtime_call(&Api::hipEventQuery, "hipEventQuery");
  static constexpr auto event_elapsed_time =
      runtime_call(&Api::hipEventElapsedTime, "hipEventElapsedTime");

  // Streams.
  static constexpr auto stream_create =
      runtime_call(&Api::hipStreamCreateWithFlags, "hipStreamCreateWithFlags");
  static constexpr auto stream_destroy = runtime_call(&Api::hipStreamDestroy, "hipStreamDestroy");
  static constexpr auto stream_synchronize =
      runtime_call(&Api::hipStreamSynchronize, "hipStreamSynchronize");
  static constexpr auto stream_wait_event =
      runtime_call(&Api::hipStreamWaitEvent, "hipStreamWaitEvent");
  static constexpr auto copy_to_device =
      runtime_call(&Api::hipMemcpyHtoDAsync, "hipMemcpyHtoDAsync");
  static constexpr auto copy_to_host = runtime_call(&Api::hipMemcpyDtoHAsync, "hipMemcpyDtoHAsync");
  static constexpr auto copy_on_device =
      runtime_call(&Api::hipMemcpyDtoDAsync, "hipMemcpyDtoDAsync");

  // Capture and graphs (optional: a runtime may lack them).
  static constexpr auto stream_begin_capture =
      runtime_call(&Api::hipStreamBeginCapture, "hipStreamBeginCapture");
  static constexpr auto stream_get_capture_info =
      runtime_call(&Api::hipStreamGetCaptureInfo, "hipStreamGetCaptureInfo_v2");
  static constexpr auto stream_end_capture =
      runtime_call(&Api::hipStreamEndCapture, "hipStreamEndCapture");
  static constexpr auto graph_get_nodes = runtime_call(&Api::hipGraphGetNodes, "hipGraphGetNodes");
  static constexpr auto graph_instantiate =
      runtime_call(&Api::hipGraphInstantiate, "hipGraphInstantiate");
  static Result instantiate_graph(decltype(Api::hipGraphInstantiate) instantiate, GraphExec* exec,
                                  Graph graph) {
    return instantiate(exec, graph, nullptr, nullptr, 0);
  }
  static constexpr auto graph_launch = runtime_call(&Api::hipGraphLaunch, "hipGraphLaunch");
  static constexpr auto graph_exec_destroy =
      runtime_call(&Api::hipGraphExecDestroy, "hipGraphExecDestroy");
  static constexpr auto graph_destroy = runtime_call(&Api::hipGraphDestroy, "hipGraphDestroy");
  static constexpr auto graph_kernel_node_get_params =
      runtime_call(&Api::hipGraphKernelNodeGetParams, "hipGraphKernelNodeGetParams");
  static constexpr auto graph_exec_kernel_node_set_params =
      runtime_call(&Api::hipGraphExecKernelNodeSetParams, "hipGraphExecKernelNodeSetParams");
};

}  // namespace kjit::hip
