// One compare-and-swap step (k, j) of a bitonic sort of n keys, n a power of two. The host
// launches it for k = 2, 4, ..., n and j = k/2, k/4, ..., 1: log2(n)(log2(n)+1)/2 launches.
__global__ void bitonic_step(unsigned int* keys, int n, int j, int k) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int partner = i ^ j;
  if (i >= n || partner <= i) {
    return;
  }
  const bool ascending = (i & k) == 0;
  const unsigned int a = keys[i];
  const unsigned int b = keys[partner];
  if ((a > b) == ascending) {
    keys[i] = b;
    keys[partner] = a;
  }
}
