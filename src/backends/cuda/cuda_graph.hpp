// CUDA graphs: replay of the work a CudaStream captured (cuStreamBeginCapture ...
// cuStreamEndCapture, in GpuStream::begin_recording and end_recording), with cuGraphLaunch and
// cuGraphExecKernelNodeSetParams_v2. The code is the shared GPU graph
// (backends/gpu/gpu_graph.hpp) on the CUDA driver (cuda_vendor.hpp).
#pragma once

#include "backends/cuda/cuda_vendor.hpp"
#include "backends/gpu/gpu_graph.hpp"

namespace kjit::cuda {

using CudaGraph = gpu::GpuGraph<CudaVendor>;

}  // namespace kjit::cuda

// Instantiated once, in cuda_graph.cpp.
extern template class kjit::gpu::GpuGraph<kjit::cuda::CudaVendor>;
