// The nvcc build's output of adam, for comparison with kjit's: upstream/main.cu's kernel, built
// ahead of time, launched as upstream/main.cu launches it, with p, m and v written to a file. (The
// upstream program itself reports only its time; scripts/real-programs.sh times it as shipped.)
#define main upstream_main
#include "upstream/main.cu"
#undef main

#include <fstream>
#include <initializer_list>
#include <vector>

int main(int argc, char* argv[]) {
  if (argc != 5) {
    printf("usage: %s <vector size> <number of time steps> <repeat> <output file>\n", argv[0]);
    return 2;
  }
  const int vector_size = atoi(argv[1]);
  const int time_step = atoi(argv[2]);
  const int repeat = atoi(argv[3]);
  const size_t n = static_cast<size_t>(vector_size);
  std::vector<float> m(n), v(n), g(n), p(n);
  srand(123);
  for (size_t i = 0; i < n; i++) {
    m[i] = rand() / (float)RAND_MAX;
    v[i] = rand() / (float)RAND_MAX;
    g[i] = rand() / (float)RAND_MAX;
    p[i] = rand() / (float)RAND_MAX;
  }
  float *d_m, *d_v, *d_g, *d_p;
  const size_t bytes = n * sizeof(float);
  cudaMalloc((void**)&d_m, bytes);
  cudaMalloc((void**)&d_v, bytes);
  cudaMalloc((void**)&d_g, bytes);
  cudaMalloc((void**)&d_p, bytes);
  cudaMemcpy(d_m, m.data(), bytes, cudaMemcpyHostToDevice);
  cudaMemcpy(d_v, v.data(), bytes, cudaMemcpyHostToDevice);
  cudaMemcpy(d_g, g.data(), bytes, cudaMemcpyHostToDevice);
  cudaMemcpy(d_p, p.data(), bytes, cudaMemcpyHostToDevice);
  const int threadsPerBlock = 256;
  const dim3 grids((vector_size + threadsPerBlock - 1) / threadsPerBlock);
  const dim3 blocks(threadsPerBlock);
  for (int i = 0; i < repeat; i++) {
    adam<float, float><<<grids, blocks>>>(d_p, d_m, d_v, d_g, 0.9f, 0.999f, 1e-8f, 256.f, 1e-3f,
                                          time_step, n, ADAM_MODE_0, 0.5f);
  }
  if (cudaDeviceSynchronize() != cudaSuccess) {
    printf("the kernels failed\n");
    return 1;
  }
  std::ofstream file(argv[4], std::ios::binary);  // p, m and v, as kjit_adam --out writes them
  for (float* buffer : {d_p, d_m, d_v}) {
    cudaMemcpy(p.data(), buffer, bytes, cudaMemcpyDeviceToHost);
    file.write(reinterpret_cast<const char*>(p.data()), static_cast<std::streamsize>(bytes));
  }
  return 0;
}
