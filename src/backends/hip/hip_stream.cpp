#include "backends/hip/hip_stream.hpp"

#include "backends/hip/hip_device.hpp"
#include "backends/hip/hip_graph.hpp"

template class kjit::gpu::GpuEvent<kjit::hip::HipVendor>;
template class kjit::gpu::GpuStream<kjit::hip::HipVendor>;
