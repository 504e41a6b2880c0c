// STREAM's TRIAD in float, as kernel text: the bandwidth-bound kernel several benchmarks time.
#pragma once

namespace kjit::bench {

inline constexpr const char* kTriadSource = R"(
__global__ void triad(float* a, const float* b, const float* c, float s, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] = b[i] + s * c[i];
}
)";

}  // namespace kjit::bench
