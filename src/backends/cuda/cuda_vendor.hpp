// The CUDA driver as a vendor of the shared GPU code (backends/gpu/gpu_vendor.hpp): its types,
// and which driver function each shared step calls, named as messages name it.
#pragma once

#include "backends/cuda/cuda_driver_api.hpp"
#include "backends/cuda/cuda_errors.hpp"
#include "backends/cuda/cuda_types.hpp"
#include "backends/gpu/gpu_vendor.hpp"

#include <kjit/types.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace kjit::cuda {

class CudaDevice;
class CudaStream;

/// A function of the CUDA driver's table, and its name in messages.
template <class Fn>
constexpr gpu::VendorCall<DriverApi, Fn> driver_call(Fn DriverApi::*member, const char* name,
                                                     const char* symbol = nullptr) {
  return gpu::vendor_call(member, name, "CUDA driver", symbol);
}

struct CudaVendor {
  using Api = DriverApi;
  using Device = CudaDevice;
  using DeviceStream = CudaStream;
  using DeviceHandle = CUdevice;
  using Result = CUresult;
  using Stream = CUstream;
  using Event = CUevent;
  using Graph = CUgraph;
  using GraphExec = CUgraphExec;
  using GraphNode = CUgraphNode;
  using KernelNodeParams = CUDA_KERNEL_NODE_PARAMS;
  using CaptureStatus = CUstreamCaptureStatus;
  using DevicePointer = CUdeviceptr;
  using Module = CUmodule;
  using Function = CUfunction;

  static constexpr Result kSuccess = CUDA_SUCCESS;
  static constexpr Result kNotReady = CUDA_ERROR_NOT_READY;
  static constexpr Result kNotFound = CUDA_ERROR_NOT_FOUND;
  static constexpr BackendKind kBackend = BackendKind::cuda;
  static constexpr const char* kLibrary = "CUDA driver";
  static constexpr unsigned kStreamNonBlocking = CU_STREAM_NON_BLOCKING;
  static constexpr unsigned kEventDefault = CU_EVENT_DEFAULT;
  static constexpr unsigned kHostAllocPortable = CU_MEMHOSTALLOC_PORTABLE;
  static constexpr CUstreamCaptureMode kCaptureModeRelaxed = CU_STREAM_CAPTURE_MODE_RELAXED;
  static constexpr CaptureStatus kCaptureActive = CU_STREAM_CAPTURE_STATUS_ACTIVE;
  /// More than 48 KiB of dynamic shared memory needs the kernel's opt-in.
  static constexpr bool kDynamicSharedOptIn = true;
  static constexpr std::size_t kDynamicSharedDefault = std::size_t{48} * 1024;
  static constexpr CUfunction_attribute kMaxDynamicSharedAttribute =
      CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES;

  static constexpr auto check = cuda::check;
  [[noreturn]] static void fail(const Api& api, const char* call, Result result,
                                std::string_view context, Failure kind) {
    throw_driver_error(api, call, result, context, kind);
  }
  static std::string describe(const Api& api, Result result) {
    return describe_result(&api, result);
  }
  static DevicePointer device_pointer(std::uint64_t address) noexcept { return address; }
  static std::uint64_t address(DevicePointer pointer) noexcept { return pointer; }

  // Devices, modules and launches.
  static constexpr auto device_synchronize =
      driver_call(&Api::cuCtxSynchronize, "cuCtxSynchronize");
  static constexpr auto module_unload = driver_call(&Api::cuModuleUnload, "cuModuleUnload");
  static constexpr auto module_get_global =
      driver_call(&Api::cuModuleGetGlobal, "cuModuleGetGlobal");
  static constexpr auto function_set_attribute =
      driver_call(&Api::cuFuncSetAttribute, "cuFuncSetAttribute");
  static constexpr auto launch_kernel = driver_call(&Api::cuLaunchKernel, "cuLaunchKernel");

  // Enumeration: the attributes DeviceInfo's limits are read from.
  using Attribute = CUdevice_attribute;
  static constexpr Attribute kComputeUnits = CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT;
  static constexpr Attribute kMaxThreadsPerBlock = CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK;
  static constexpr std::array<Attribute, 3> kMaxBlock = {CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X,
                                                         CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y,
                                                         CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z};
  static constexpr std::array<Attribute, 3> kMaxGrid = {CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X,
                                                        CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y,
                                                        CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z};

  // Memory.
  static constexpr auto memory_allocate = driver_call(&Api::cuMemAlloc, "cuMemAlloc");
  static constexpr auto memory_free = driver_call(&Api::cuMemFree, "cuMemFree");
  static constexpr auto host_allocate = driver_call(&Api::cuMemHostAlloc, "cuMemHostAlloc");
  static constexpr auto host_free = driver_call(&Api::cuMemFreeHost, "cuMemFreeHost");

  // Managed memory (optional: a driver may lack it). A place is a CUmemLocation.
  using Location = CUmemLocation;
  using Advice = CUmem_advise;
  static constexpr unsigned kAttachGlobal = CU_MEM_ATTACH_GLOBAL;
  static constexpr Advice kSetReadMostly = CU_MEM_ADVISE_SET_READ_MOSTLY;
  static constexpr Advice kUnsetReadMostly = CU_MEM_ADVISE_UNSET_READ_MOSTLY;
  static constexpr Advice kSetPreferredLocation = CU_MEM_ADVISE_SET_PREFERRED_LOCATION;
  static constexpr Advice kUnsetPreferredLocation = CU_MEM_ADVISE_UNSET_PREFERRED_LOCATION;
  static constexpr Advice kSetAccessedBy = CU_MEM_ADVISE_SET_ACCESSED_BY;
  static Location location(DeviceHandle device, ManagedPlace place) noexcept {
    return place == ManagedPlace::device ? CUmemLocation{CU_MEM_LOCATION_TYPE_DEVICE, device}
                                         : CUmemLocation{CU_MEM_LOCATION_TYPE_HOST, 0};
  }
  static constexpr auto managed_allocate =
      driver_call(&Api::cuMemAllocManaged, "cuMemAllocManaged");
  static constexpr auto managed_prefetch =
      driver_call(&Api::cuMemPrefetchAsync, "cuMemPrefetchAsync", "cuMemPrefetchAsync_v2");
  static Result prefetch(decltype(Api::cuMemPrefetchAsync) call, DevicePointer address,
                         std::size_t bytes, Location to, Stream stream) {
    return call(address, bytes, to, 0, stream);
  }
  static constexpr auto managed_advise =
      driver_call(&Api::cuMemAdvise, "cuMemAdvise", "cuMemAdvise_v2");

  // Events.
  static constexpr auto event_create = driver_call(&Api::cuEventCreate, "cuEventCreate");
  static constexpr auto event_destroy = driver_call(&Api::cuEventDestroy, "cuEventDestroy");
  static constexpr auto event_record = driver_call(&Api::cuEventRecord, "cuEventRecord");
  static constexpr auto event_synchronize =
      driver_call(&Api::cuEventSynchronize, "cuEventSynchronize");
  static constexpr auto event_query = driver_call(&Api::cuEventQuery, "cuEventQuery");
  static constexpr auto event_elapsed_time =
      driver_call(&Api::cuEventElapsedTime, "cuEventElapsedTime");

  // Streams.
  static constexpr auto stream_create = driver_call(&Api::cuStreamCreate, "cuStreamCreate");
  static constexpr auto stream_destroy = driver_call(&Api::cuStreamDestroy, "cuStreamDestroy");
  static constexpr auto stream_synchronize =
      driver_call(&Api::cuStreamSynchronize, "cuStreamSynchronize");
  static constexpr auto stream_wait_event =
      driver_call(&Api::cuStreamWaitEvent, "cuStreamWaitEvent");
  static constexpr auto copy_to_device = driver_call(&Api::cuMemcpyHtoDAsync, "cuMemcpyHtoDAsync");
  static constexpr auto copy_to_host = driver_call(&Api::cuMemcpyDtoHAsync, "cuMemcpyDtoHAsync");
  static constexpr auto copy_on_device = driver_call(&Api::cuMemcpyDtoDAsync, "cuMemcpyDtoDAsync");

  // Capture and graphs (optional: a driver may lack them).
  static constexpr auto stream_begin_capture =
      driver_call(&Api::cuStreamBeginCapture, "cuStreamBeginCapture", "cuStreamBeginCapture_v2");
  static constexpr auto stream_get_capture_info =
      driver_call(&Api::cuStreamGetCaptureInfo, "cuStreamGetCaptureInfo_v2");
  static constexpr auto stream_end_capture =
      driver_call(&Api::cuStreamEndCapture, "cuStreamEndCapture");
  static constexpr auto graph_get_nodes = driver_call(&Api::cuGraphGetNodes, "cuGraphGetNodes");
  static constexpr auto graph_instantiate =
      driver_call(&Api::cuGraphInstantiate, "cuGraphInstantiateWithFlags");
  static Result instantiate_graph(decltype(Api::cuGraphInstantiate) instantiate, GraphExec* exec,
                                  Graph graph) {
    return instantiate(exec, graph, 0);
  }
  static constexpr auto graph_launch = driver_call(&Api::cuGraphLaunch, "cuGraphLaunch");
  static constexpr auto graph_exec_destroy =
      driver_call(&Api::cuGraphExecDestroy, "cuGraphExecDestroy");
  static constexpr auto graph_destroy = driver_call(&Api::cuGraphDestroy, "cuGraphDestroy");
  static constexpr auto graph_kernel_node_get_params =
      driver_call(&Api::cuGraphKernelNodeGetParams, "cuGraphKernelNodeGetParams_v2");
  static constexpr auto graph_exec_kernel_node_set_params =
      driver_call(&Api::cuGraphExecKernelNodeSetParams, "cuGraphExecKernelNodeSetParams_v2");
};

}  // namespace kjit::cuda
