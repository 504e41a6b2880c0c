// Stand-in for <cuda.h> in host builds of upstream's host files (io.cu, init.cu, material.cu,
// utils.cu, main.cu): upstream/rsbench.h includes it, and those files use nothing of CUDA but the
// qualifiers of rsbench.h's declarations, which mean nothing on the host.
#pragma once
#define __host__
#define __device__
#define __global__
