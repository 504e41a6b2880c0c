#include "backends/cuda/cuda_graph.hpp"

#include "backends/cuda/cuda_device.hpp"
#include "backends/cuda/cuda_stream.hpp"

template class kjit::gpu::GpuGraph<kjit::cuda::CudaVendor>;
