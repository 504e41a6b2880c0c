// The sum of n values on all cores, as OpenMP's reduction computes it: the baseline of every
// reduction benchmark. Acc is the type added in (unsigned for ints, which wrap as CUDA's do).
#pragma once

namespace kjit::bench {

template <class Acc, class T>
Acc omp_sum(const T* x, int n) {
  Acc sum = 0;
#pragma omp parallel for simd schedule(static) reduction(+ : sum)
  for (int i = 0; i < n; ++i) {
    sum += static_cast<Acc>(x[i]);
  }
  return sum;
}

}  // namespace kjit::bench
