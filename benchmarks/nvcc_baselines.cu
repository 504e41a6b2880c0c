// The ahead-of-time baseline of the CUDA benchmarks: the kernels of kernels/, compiled by nvcc
// -O3 into one CUBIN at build time (templates instantiated as the benchmarks use them).
#include "bitonic_sort.cu"
#include "mandelbrot.cu"
#include "matmul.cu"
#include "rajaperf.cu"
#include "reduction.cu"
#include "saxpy.cu"
#include "stencil2d.cu"
#include "transpose.cu"
#include "vadd.cu"

__global__ void empty_kernel() {}

template __global__ void saxpy<float>(float, const float*, float*, int);
template __global__ void reduce_sum<int>(const int*, int*, int);
template __global__ void reduce_sum<double>(const double*, double*, int);
