// HIP graphs: replay of the work a HipStream captured (hipStreamBeginCapture ...
// hipStreamEndCapture, in GpuStream::begin_recording and end_recording), with hipGraphLaunch and
// hipGraphExecKernelNodeSetParams. The code is the shared GPU graph (backends/gpu/gpu_graph.hpp)
// on the HIP runtime (hip_vendor.hpp).
#pragma once

#include "backends/gpu/gpu_graph.hpp"
#include "backends/hip/hip_vendor.hpp"

namespace kjit::hip {

using HipGraph = gpu::GpuGraph<HipVendor>;

}  // namespace kjit::hip

// Instantiated once, in hip_graph.cpp.
extern template class kjit::gpu::GpuGraph<kjit::hip::HipVendor>;
