// kjit: what the headers of CUDA's libraries (cuBLAS, cuFFT, cuRAND's host API, cuSPARSE,
// cuSOLVER, NCCL) bring with them for device code: the half-precision, bfloat16 and complex types
// and the library data types. Their own functions are for host code, which kjit does not compile:
// a kernel file that includes one loads, and host code that calls one is set aside. Internal:
// included by kjit's stand-ins for those headers.
#ifndef __KJIT_CUDA_LIBRARY_H
#define __KJIT_CUDA_LIBRARY_H
#include <stdint.h>
#include <driver_types.h>
#include <cuComplex.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <library_types.h>
#endif
