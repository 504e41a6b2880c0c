// The nvcc build's output of feynman-kac, for comparison with kjit's: upstream/main.cu's kernel,
// built ahead of time, launched as upstream/main.cu launches it, with the last launch's n_inside
// (int32) and err (the sum of squared errors, a double) written to a file, as kjit_feynman-kac
// --out writes them. (The upstream program prints only the RMS error; scripts/real-programs.sh
// times it as shipped.) nj and the number of paths are upstream's unless given.
#define main upstream_main
#include "upstream/main.cu"
#undef main

#include <fstream>

int main(int argc, char* argv[]) {
  if (argc != 3 && argc != 5) {
    printf("usage: %s <iterations> <output file> [<nj (128)> <paths (1000)>]\n", argv[0]);
    return 2;
  }
  const int repeat = atoi(argv[1]);
  const int nj = argc == 5 ? atoi(argv[3]) : 128;
  const int N = argc == 5 ? atoi(argv[4]) : 1000;
  const double a = 2.0;
  const double b = 1.0;
  const int dim = 2;
  const double h = 0.001;
  const int seed = 123456789;
  const double rth = sqrt((double)dim * h);
  const int ni = 1 + i4_ceiling(a / b) * (nj - 1);
  const dim3 grids((ni + 15) / 16, (nj + 15) / 16);
  const dim3 blocks(16, 16);
  double err = 0.0;
  int n_inside = 0;
  double* d_err;
  int* d_n_inside;
  cudaMalloc((void**)&d_err, sizeof(double));
  cudaMalloc((void**)&d_n_inside, sizeof(int));
  for (int i = 0; i < repeat; i++) {
    cudaMemcpy(d_err, &err, sizeof(double), cudaMemcpyHostToDevice);
    cudaMemcpy(d_n_inside, &n_inside, sizeof(int), cudaMemcpyHostToDevice);
    fk<<<grids, blocks>>>(ni, nj, seed, N, a, b, h, rth, d_n_inside, d_err);
  }
  if (cudaDeviceSynchronize() != cudaSuccess) {
    printf("the kernels failed\n");
    return 1;
  }
  cudaMemcpy(&err, d_err, sizeof(double), cudaMemcpyDeviceToHost);
  cudaMemcpy(&n_inside, d_n_inside, sizeof(int), cudaMemcpyDeviceToHost);
  std::ofstream file(argv[2], std::ios::binary);
  file.write(reinterpret_cast<const char*>(&n_inside), sizeof n_inside);
  file.write(reinterpret_cast<const char*>(&err), sizeof err);
  printf("RMS absolute error in solution = %e\n", sqrt(err / (double)n_inside));
  return 0;
}
