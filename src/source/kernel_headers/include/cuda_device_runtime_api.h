// kjit's <cuda_device_runtime_api.h>: what it declares is already there on every backend (each
// prelude or compiler provides CUDA's device-side names); present so that kernel files that include
// it load.
#ifndef __KJIT_CUDA_DEVICE_RUNTIME_API_H
#define __KJIT_CUDA_DEVICE_RUNTIME_API_H
#include <driver_types.h>
#endif
