// kjit's <cuda_profiler_api.h> for kernel files: host functions only.
#ifndef __KJIT_CUDA_PROFILER_API_H
#define __KJIT_CUDA_PROFILER_API_H
#include "cuda_runtime_api.h"
cudaError_t cudaProfilerStart(void) __KJIT_HOST_ONLY;
cudaError_t cudaProfilerStop(void) __KJIT_HOST_ONLY;
#endif
