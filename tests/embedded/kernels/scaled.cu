// An embedded kernel that includes an embedded header: out = in * SCALE + salt.
#include "include/scale.h"

__global__ void scaled(const int* in, int* out, int salt, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i] * SCALE + salt;
}
