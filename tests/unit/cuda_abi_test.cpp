// kjit declares the CUDA driver types and values it uses itself (it builds without CUDA's
// headers); this checks those that lay out memory the driver reads or writes against the real
// cuda.h, where it is installed (CUDA 13 here).
#include <cuda.h>

// A macro in cuda.h and a constant in kjit's: keep the value, drop the macro.
constexpr unsigned kRealMemHostAllocPortable = CU_MEMHOSTALLOC_PORTABLE;
#undef CU_MEMHOSTALLOC_PORTABLE

#include "backends/cuda/cuda_types.hpp"

#include <gtest/gtest.h>

#include <cstddef>

namespace {

namespace k = kjit::cuda;

TEST(CudaAbi, KernelNodeParametersHaveTheDriversLayout) {
  using Kjit = k::CUDA_KERNEL_NODE_PARAMS;
  using Real = ::CUDA_KERNEL_NODE_PARAMS_v2;
  EXPECT_EQ(sizeof(Kjit), sizeof(Real));
  EXPECT_EQ(offsetof(Kjit, func), offsetof(Real, func));
  EXPECT_EQ(offsetof(Kjit, gridDimX), offsetof(Real, gridDimX));
  EXPECT_EQ(offsetof(Kjit, blockDimZ), offsetof(Real, blockDimZ));
  EXPECT_EQ(offsetof(Kjit, sharedMemBytes), offsetof(Real, sharedMemBytes));
  EXPECT_EQ(offsetof(Kjit, kernelParams), offsetof(Real, kernelParams));
  EXPECT_EQ(offsetof(Kjit, extra), offsetof(Real, extra));
  EXPECT_EQ(offsetof(Kjit, kern), offsetof(Real, kern));
  EXPECT_EQ(offsetof(Kjit, ctx), offsetof(Real, ctx));
}

TEST(CudaAbi, ManagedMemoryAndCaptureValuesMatchCudasHeader) {
  EXPECT_EQ(sizeof(k::CUmemLocation), sizeof(::CUmemLocation));
  EXPECT_EQ(offsetof(k::CUmemLocation, id), offsetof(::CUmemLocation, id));
  EXPECT_EQ(k::CU_MEM_LOCATION_TYPE_DEVICE, static_cast<int>(::CU_MEM_LOCATION_TYPE_DEVICE));
  EXPECT_EQ(k::CU_MEM_LOCATION_TYPE_HOST, static_cast<int>(::CU_MEM_LOCATION_TYPE_HOST));
  EXPECT_EQ(k::CU_MEM_ADVISE_SET_READ_MOSTLY, static_cast<int>(::CU_MEM_ADVISE_SET_READ_MOSTLY));
  EXPECT_EQ(k::CU_MEM_ADVISE_SET_PREFERRED_LOCATION,
            static_cast<int>(::CU_MEM_ADVISE_SET_PREFERRED_LOCATION));
  EXPECT_EQ(k::CU_MEM_ADVISE_SET_ACCESSED_BY, static_cast<int>(::CU_MEM_ADVISE_SET_ACCESSED_BY));
  EXPECT_EQ(k::CU_MEM_ATTACH_GLOBAL, static_cast<unsigned>(::CU_MEM_ATTACH_GLOBAL));
  EXPECT_EQ(k::CU_STREAM_CAPTURE_MODE_RELAXED, static_cast<int>(::CU_STREAM_CAPTURE_MODE_RELAXED));
  EXPECT_EQ(k::CU_STREAM_CAPTURE_STATUS_ACTIVE,
            static_cast<int>(::CU_STREAM_CAPTURE_STATUS_ACTIVE));
  EXPECT_EQ(k::CU_DEVICE_ATTRIBUTE_MANAGED_MEMORY,
            static_cast<int>(::CU_DEVICE_ATTRIBUTE_MANAGED_MEMORY));
  EXPECT_EQ(k::CU_MEMHOSTALLOC_PORTABLE, kRealMemHostAllocPortable);
  EXPECT_EQ(k::CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
            static_cast<int>(::CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES));
}

}  // namespace
