// adam's baseline on the CPU: upstream/main.cu's kernel loop as an OpenMP `parallel for` over the
// values (derived from that file, under its license), built ahead of time with upstream's flags
// (-O3 -ffast-math) and -march=native. Same inputs, launches and report line as kjit_adam;
// --out writes p, m and v. HeCBench's own adam-omp offloads with `omp target`, and differs in
// its inputs and first time step, so this runs the very loop kjit runs instead.
#include <omp.h>

#include <chrono>
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <initializer_list>
#include <string>
#include <vector>

// upstream/reference.h uses these unqualified, as the CUDA file that includes it provides them.
using std::size_t;
#include "upstream/reference.h"

namespace {

void adam(float* __restrict p, float* __restrict m, float* __restrict v, const float* __restrict g,
          float b1, float b2, float eps, float grad_scale, float step_size, int time_step,
          std::size_t vector_size, adamMode_t mode, float decay) {
#pragma omp parallel for schedule(static)
  for (std::size_t j = 0; j < vector_size; j++) {
    for (int t = 0; t < time_step; t++) {
      const float scaled_grad = g[j] / grad_scale;
      m[j] = b1 * m[j] + (1.f - b1) * scaled_grad;
      v[j] = b2 * v[j] + (1.f - b2) * scaled_grad * scaled_grad;
      const float m_corrected = m[j] / (1.f - powf(b1, static_cast<float>(t)));
      const float v_corrected = v[j] / (1.f - powf(b2, static_cast<float>(t)));
      const float denom = mode == ADAM_MODE_0 ? sqrtf(v_corrected + eps) : sqrtf(v_corrected) + eps;
      const float update = (m_corrected / denom) + (decay * p[j]);
      p[j] -= (step_size * update);
    }
  }
}

}  // namespace

int main(int argc, char* argv[]) {
  if (argc != 4 && !(argc == 6 && std::strcmp(argv[4], "--out") == 0)) {
    std::fprintf(stderr, "usage: %s <vector size> <number of time steps> <repeat> [--out FILE]\n",
                 argv[0]);
    return 2;
  }
  const int vector_size = std::atoi(argv[1]);
  const int time_step = std::atoi(argv[2]);
  const int repeat = std::atoi(argv[3]);
  if (vector_size <= 0 || time_step < 0 || repeat <= 0) {
    return 2;
  }
  const auto n = static_cast<std::size_t>(vector_size);
  std::vector<float> m(n);
  std::vector<float> v(n);
  std::vector<float> g(n);
  std::vector<float> p(n);
  std::srand(123);
  for (std::size_t i = 0; i < n; i++) {
    m[i] = static_cast<float>(std::rand()) / static_cast<float>(RAND_MAX);
    v[i] = static_cast<float>(std::rand()) / static_cast<float>(RAND_MAX);
    g[i] = static_cast<float>(std::rand()) / static_cast<float>(RAND_MAX);
    p[i] = static_cast<float>(std::rand()) / static_cast<float>(RAND_MAX);
  }
  const auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < repeat; i++) {
    adam(p.data(), m.data(), v.data(), g.data(), 0.9F, 0.999F, 1e-8F, 256.F, 1e-3F, time_step, n,
         ADAM_MODE_0, 0.5F);
  }
  const auto end = std::chrono::steady_clock::now();
  const auto time = std::chrono::duration_cast<std::chrono::nanoseconds>(end - start).count();
  std::printf("Average kernel execution time %f (ms)\n", static_cast<double>(time) * 1e-6 / repeat);
  std::printf("OpenMP threads %d\n", omp_get_max_threads());
  if (argc == 6) {
    std::ofstream file(argv[5], std::ios::binary);
    for (const std::vector<float>* values : {&p, &m, &v}) {
      file.write(reinterpret_cast<const char*>(values->data()),
                 static_cast<std::streamsize>(values->size() * sizeof(float)));
    }
  }
  return 0;
}
