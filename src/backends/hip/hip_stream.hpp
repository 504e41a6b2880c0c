// HIP streams and events: the shared GPU stream (backends/gpu/gpu_stream.hpp) on the HIP
// runtime. Graph capture is the stream's; replay is in hip_graph.hpp.
#pragma once

#include "backends/gpu/gpu_event.hpp"
#include "backends/gpu/gpu_stream.hpp"
#include "backends/hip/hip_vendor.hpp"

namespace kjit::hip {

using HipEvent = gpu::GpuEvent<HipVendor>;
using HipStream = gpu::GpuStream<HipVendor>;

}  // namespace kjit::hip

// Instantiated once, in hip_stream.cpp.
extern template class kjit::gpu::GpuEvent<kjit::hip::HipVendor>;
extern template class kjit::gpu::GpuStream<kjit::hip::HipVendor>;
