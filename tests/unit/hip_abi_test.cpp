// kjit declares the HIP types and values it uses itself (it builds without ROCm's headers); this
// checks them against ROCm's real headers, where those are installed (Debian's ROCm 5.2 here).
// Built only when <hip/hip_runtime_api.h> is found.
#include <hip/hip_runtime_api.h>

// These are macros in ROCm's header and constants in kjit's: keep the values, drop the macros.
constexpr unsigned kRealStreamNonBlocking = hipStreamNonBlocking;
constexpr unsigned kRealEventDefault = hipEventDefault;
constexpr unsigned kRealHostMallocPortable = hipHostMallocPortable;
#undef hipStreamNonBlocking
#undef hipEventDefault
#undef hipHostMallocPortable

#include "backends/hip/hip_types.hpp"

#include <gtest/gtest.h>

#include <cstddef>

namespace {

TEST(HipAbi, DeviceAttributesErrorsAndFlagsMatchRocmsHeaders) {
  namespace k = kjit::hip;
  EXPECT_EQ(k::hipDeviceAttributeMaxBlockDimX, static_cast<int>(hipDeviceAttributeMaxBlockDimX));
  EXPECT_EQ(k::hipDeviceAttributeMaxBlockDimY, static_cast<int>(hipDeviceAttributeMaxBlockDimY));
  EXPECT_EQ(k::hipDeviceAttributeMaxBlockDimZ, static_cast<int>(hipDeviceAttributeMaxBlockDimZ));
  EXPECT_EQ(k::hipDeviceAttributeMaxGridDimX, static_cast<int>(hipDeviceAttributeMaxGridDimX));
  EXPECT_EQ(k::hipDeviceAttributeMaxGridDimY, static_cast<int>(hipDeviceAttributeMaxGridDimY));
  EXPECT_EQ(k::hipDeviceAttributeMaxGridDimZ, static_cast<int>(hipDeviceAttributeMaxGridDimZ));
  EXPECT_EQ(k::hipDeviceAttributeMaxThreadsPerBlock,
            static_cast<int>(hipDeviceAttributeMaxThreadsPerBlock));
  EXPECT_EQ(k::hipDeviceAttributeMultiprocessorCount,
            static_cast<int>(hipDeviceAttributeMultiprocessorCount));
  EXPECT_EQ(k::hipDeviceAttributeMaxSharedMemoryPerBlock,
            static_cast<int>(hipDeviceAttributeMaxSharedMemoryPerBlock));
  EXPECT_EQ(k::hipDeviceAttributeWarpSize, static_cast<int>(hipDeviceAttributeWarpSize));
  EXPECT_EQ(k::hipSuccess, static_cast<int>(hipSuccess));
  EXPECT_EQ(k::hipErrorNoDevice, static_cast<int>(hipErrorNoDevice));
  EXPECT_EQ(k::hipErrorNotFound, static_cast<int>(hipErrorNotFound));
  EXPECT_EQ(k::hipErrorNotReady, static_cast<int>(hipErrorNotReady));
  EXPECT_EQ(k::hipStreamNonBlocking, kRealStreamNonBlocking);
  EXPECT_EQ(k::hipEventDefault, kRealEventDefault);
  EXPECT_EQ(k::hipHostMallocPortable, kRealHostMallocPortable);
}

TEST(HipAbi, ManagedMemoryFlagsAndAdviceMatchRocmsHeaders) {
  namespace k = kjit::hip;
  EXPECT_EQ(k::kHipMemAttachGlobal, static_cast<unsigned>(hipMemAttachGlobal));
  EXPECT_EQ(k::kHipCpuDeviceId, static_cast<int>(hipCpuDeviceId));
  EXPECT_EQ(static_cast<int>(k::hipMemAdviseSetReadMostly),
            static_cast<int>(::hipMemAdviseSetReadMostly));
  EXPECT_EQ(static_cast<int>(k::hipMemAdviseUnsetReadMostly),
            static_cast<int>(::hipMemAdviseUnsetReadMostly));
  EXPECT_EQ(static_cast<int>(k::hipMemAdviseSetPreferredLocation),
            static_cast<int>(::hipMemAdviseSetPreferredLocation));
  EXPECT_EQ(static_cast<int>(k::hipMemAdviseUnsetPreferredLocation),
            static_cast<int>(::hipMemAdviseUnsetPreferredLocation));
  EXPECT_EQ(static_cast<int>(k::hipMemAdviseSetAccessedBy),
            static_cast<int>(::hipMemAdviseSetAccessedBy));
}

TEST(HipAbi, KernelNodeParametersHaveRocmsLayout) {
  using Kjit = kjit::hip::hipKernelNodeParams;
  using Real = ::hipKernelNodeParams;
  EXPECT_EQ(sizeof(Kjit), sizeof(Real));
  EXPECT_EQ(offsetof(Kjit, blockDim), offsetof(Real, blockDim));
  EXPECT_EQ(offsetof(Kjit, extra), offsetof(Real, extra));
  EXPECT_EQ(offsetof(Kjit, func), offsetof(Real, func));
  EXPECT_EQ(offsetof(Kjit, gridDim), offsetof(Real, gridDim));
  EXPECT_EQ(offsetof(Kjit, kernelParams), offsetof(Real, kernelParams));
  EXPECT_EQ(offsetof(Kjit, sharedMemBytes), offsetof(Real, sharedMemBytes));
  EXPECT_EQ(sizeof(kjit::hip::hipDim3), sizeof(dim3));
  EXPECT_EQ(kjit::hip::hipStreamCaptureStatusActive,
            static_cast<int>(hipStreamCaptureStatusActive));
}

TEST(HipAbi, GcnArchNameLiesWhereKjitReadsIt) {
  EXPECT_EQ(kjit::hip::kPropsGcnArchNameOffsetR0000, offsetof(hipDeviceProp_t, gcnArchName))
      << "these headers' hipDeviceProp_t is the R0000 layout of ROCm 5";
  EXPECT_EQ(kjit::hip::kPropsGcnArchNameSize, sizeof(hipDeviceProp_t::gcnArchName));
  EXPECT_GT(kjit::hip::kPropsBufferSize, sizeof(hipDeviceProp_t));
}

}  // namespace
