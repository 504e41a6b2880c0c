// What the GPU backends share is written once here, in backends/gpu/, as class templates over a
// vendor: a struct of types and calls (cuda::CudaVendor, hip::HipVendor) that says which function
// of the vendor's table each step calls and what messages name it. The templates' definitions
// are instantiated once per vendor, in the vendor's own .cpp files (cuda_stream.cpp,
// hip_stream.cpp ...), which the vendor's headers declare extern: handles stay typed, and a call
// through a template costs what the vendor's own code did.
//
// A vendor struct V provides:
//   Api, Device                the function table, and the vendor's device (a GpuDevice<V>
//                              with make_current())
//   DeviceStream, DeviceHandle the stream its devices create (a GpuStream<V>), and what its calls
//                              name a device by (CUdevice, HIP's ordinal)
//   kBackend                   BackendKind::cuda, for DeviceInfo
//   Result, kSuccess, kNotReady, kNotFound
//   Stream, Event, Graph, GraphExec, GraphNode, KernelNodeParams, CaptureStatus, Module,
//   Function, DevicePointer    the vendor's handle types
//   kLibrary                   "CUDA driver": what "this ... has no cuFoo" calls the library
//   check(api, result, call, context[, Failure]), fail(...)  the vendor's one conversion of errors
//   describe(api, result)      "CUDA_ERROR_OUT_OF_MEMORY (2): out of memory"
//   device_pointer(address), address(pointer)  addresses as the vendor's calls take them
//   flags: kStreamNonBlocking, kEventDefault, kHostAllocPortable, kCaptureModeRelaxed,
//   kCaptureActive, kDynamicSharedOptIn, kDynamicSharedDefault (and, where a kernel opts in,
//   kMaxDynamicSharedAttribute)
//   Attribute, kComputeUnits, kMaxThreadsPerBlock, kMaxBlock, kMaxGrid  the device attributes
//   DeviceInfo's limits are read from
//   managed memory: Location, location(device, place), Advice, kAttachGlobal, kSetReadMostly ...
//   the calls, each a VendorCall (stream_create, event_record, graph_launch ...), and
//   instantiate_graph() and prefetch(), whose arguments differ by vendor
#pragma once

#include "support/optional_function.hpp"

#include <string>

namespace kjit::gpu {

template <class V>
class GpuStream;  // gpu_stream.hpp: a vendor's DeviceStream

/// One function of a vendor's table: where the table keeps it, and what messages call it.
template <class Api, class Fn>
struct VendorCall {
  Fn Api::*member;
  const char* name;     // in messages: "cuStreamCreate"
  const char* symbol;   // the symbol a missing optional function is named by
  const char* library;  // "CUDA driver", for "this CUDA driver has no ..."

  /// The function (null where an optional one is missing).
  Fn operator()(const Api& api) const noexcept { return api.*member; }
  /// The function, or BackendError saying that the library of `device` lacks it.
  Fn required(const Api& api, const std::string& device) const {
    return backend::optional_function(api.*member, symbol, device, library);
  }
};

/// A call of `library` that messages name `name`; `symbol`, when given, names a missing one.
template <class Api, class Fn>
constexpr VendorCall<Api, Fn> vendor_call(Fn Api::*member, const char* name, const char* library,
                                          const char* symbol = nullptr) {
  return {member, name, symbol != nullptr ? symbol : name, library};
}

}  // namespace kjit::gpu
