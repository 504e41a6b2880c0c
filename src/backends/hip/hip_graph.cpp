#include "backends/hip/hip_graph.hpp"

#include "backends/hip/hip_device.hpp"
#include "backends/hip/hip_stream.hpp"

template class kjit::gpu::GpuGraph<kjit::hip::HipVendor>;
