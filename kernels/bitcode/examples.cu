// kjit's example kernels as one program for bitcode: templates are instantiated here, since
// bitcode holds only what was instantiated when it was made. make-bitcode.sh compiles this file
// for the host, NVIDIA and AMD GPUs.
#include "../reduction.cu"
#include "../saxpy.cu"
#include "../vadd.cu"

template __global__ void saxpy<float>(float, const float*, float*, int);
template __global__ void saxpy<double>(double, const double*, double*, int);
template __global__ void reduce_sum<int>(const int*, int*, int);
template __global__ void reduce_sum<float>(const float*, float*, int);
