// Temperatures (0 to 100) to bytes (0 to 255), for the histogram stage of the pipeline example.
__global__ void quantize(const float* t, unsigned char* bytes, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    const int q = (int)(t[i] * 2.55f);
    bytes[i] = (unsigned char)(q < 0 ? 0 : q > 255 ? 255 : q);
  }
}
