// The HIP runtime, hipRTC and comgr types kjit uses, declared privately: kjit builds without
// ROCm's headers and opens the libraries at run time. Values are those of ROCm 5.2's headers;
// tests/unit/hip_abi_test.cpp checks them against the real headers where those are installed.
#pragma once

#include <cstddef>
#include <cstdint>

namespace kjit::hip {

using hipError_t = int;
using hipDevice_t = int;
using hipModule_t = struct ihipModule_t*;
using hipFunction_t = struct ihipModuleSymbol_t*;
using hipStream_t = struct ihipStream_t*;
using hipEvent_t = struct ihipEvent_t*;
using hipDeviceptr_t = void*;
using hipGraph_t = struct ihipGraph*;
using hipGraphExec_t = struct hipGraphExec*;
using hipGraphNode_t = struct hipGraphNode*;
inline constexpr int hipStreamCaptureModeRelaxed = 2;
inline constexpr int hipStreamCaptureStatusActive = 1;
struct hipDim3 {
  unsigned int x, y, z;
};
/// hipKernelNodeParams (hipGraphKernelNodeGetParams, hipGraphExecKernelNodeSetParams).
struct hipKernelNodeParams {
  hipDim3 blockDim;
  void** extra;
  void* func;
  hipDim3 gridDim;
  void** kernelParams;
  unsigned int sharedMemBytes;
};

inline constexpr hipError_t hipSuccess = 0;
inline constexpr hipError_t hipErrorNoDevice = 100;
inline constexpr hipError_t hipErrorNotFound = 500;
inline constexpr hipError_t hipErrorNotReady = 600;

enum hipDeviceAttribute_t : int {
  hipDeviceAttributeMaxBlockDimX = 26,
  hipDeviceAttributeMaxBlockDimY = 27,
  hipDeviceAttributeMaxBlockDimZ = 28,
  hipDeviceAttributeMaxGridDimX = 29,
  hipDeviceAttributeMaxGridDimY = 30,
  hipDeviceAttributeMaxGridDimZ = 31,
  hipDeviceAttributeMaxThreadsPerBlock = 56,
  hipDeviceAttributeMultiprocessorCount = 63,
  hipDeviceAttributeMaxSharedMemoryPerBlock = 74,
  hipDeviceAttributeWarpSize = 87,
};

enum hipFunction_attribute : int {
  HIP_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES = 1,
};

/// Where hipDeviceProp_t keeps gcnArchName ("gfx90a:sramecc+:xnack-"): the one field kjit reads
/// from the struct, whose layout changed in ROCm 6 (hipGetDevicePropertiesR0600). Read from a
/// zeroed buffer larger than either layout, so that a longer struct cannot overrun it.
inline constexpr std::size_t kPropsGcnArchNameOffsetR0000 = 396;
inline constexpr std::size_t kPropsGcnArchNameOffsetR0600 = 1160;
inline constexpr std::size_t kPropsGcnArchNameSize = 256;
inline constexpr std::size_t kPropsBufferSize = 8192;

// Managed memory: hipMemoryAdvise's values, and two macros of ROCm's, named so as not to clash
// with them: hipMemAttachGlobal, and hipCpuDeviceId (the host as a device).
enum hipMemoryAdvise : int {
  hipMemAdviseSetReadMostly = 1,
  hipMemAdviseUnsetReadMostly = 2,
  hipMemAdviseSetPreferredLocation = 3,
  hipMemAdviseUnsetPreferredLocation = 4,
  hipMemAdviseSetAccessedBy = 5,
};
inline constexpr unsigned kHipMemAttachGlobal = 0x1;
inline constexpr int kHipCpuDeviceId = -1;

inline constexpr unsigned hipStreamNonBlocking = 0x1;
inline constexpr unsigned hipEventDefault = 0x0;
inline constexpr unsigned hipHostMallocPortable = 0x1;

using hiprtcResult = int;
using hiprtcProgram = struct _hiprtcProgram*;
inline constexpr hiprtcResult HIPRTC_SUCCESS = 0;
inline constexpr hiprtcResult HIPRTC_ERROR_COMPILATION = 6;

using amd_comgr_status_t = int;
inline constexpr amd_comgr_status_t AMD_COMGR_STATUS_SUCCESS = 0;

}  // namespace kjit::hip
