// Every atomic of the kernel language, with all threads of all blocks contending on a few
// addresses. Results are checked against what any order of the operations must give.
#include "atomics.h"

__global__ void all_atomics(AtomicResults* r, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) {
    return;
  }
  const int v = i - n / 2;  // negative and positive values
  atomicAdd(&r->add_i, v);
  atomicAdd(&r->add_u, 3u);
  atomicAdd(&r->add_ull, 1ull << 33);
  atomicAdd(&r->add_f, 0.5f);
  atomicAdd(&r->add_d, 0.25);
  atomicSub(&r->sub_i, 2);
  atomicSub(&r->sub_u, 1u);
  atomicMin(&r->min_i, v);
  atomicMax(&r->max_i, v);
  atomicMin(&r->min_u, (unsigned)i + 5u);
  atomicMax(&r->max_u, (unsigned)i + 5u);
  atomicMin(&r->min_ull, (unsigned long long)i << 40);
  atomicMax(&r->max_ull, (unsigned long long)i << 40);
  atomicMin(&r->min_ll, (long long)v << 35);
  atomicMax(&r->max_ll, (long long)v << 35);
  atomicAnd(&r->and_u, ~(1u << (i % 32)));
  atomicOr(&r->or_u, 1u << (i % 32));
  atomicXor(&r->xor_u, (unsigned)i);
  atomicAnd(&r->and_i, ~(1 << (i % 31)));
  atomicOr(&r->or_i, 1 << (i % 31));
  atomicXor(&r->xor_i, i);
  atomicAnd(&r->and_ull, ~(1ull << (i % 64)));
  atomicOr(&r->or_ull, 1ull << (i % 64));
  atomicXor(&r->xor_ull, (unsigned long long)i << 20);
  int old = r->cas_counter;
  int assumed;
  do {  // an increment written with compare-and-swap
    assumed = old;
    old = atomicCAS(&r->cas_counter, assumed, assumed + 1);
  } while (old != assumed);
  unsigned long long old64 = r->cas_counter_ull;
  unsigned long long assumed64;
  do {
    assumed64 = old64;
    old64 = atomicCAS(&r->cas_counter_ull, assumed64, assumed64 + 7);
  } while (old64 != assumed64);
  atomicInc(&r->inc, 9u);  // counts modulo 10
  atomicDec(&r->dec, 9u);  // counts down modulo 10
  atomicExch(&r->exch_i, 42);
  atomicExch(&r->exch_u, 43u);
  atomicExch(&r->exch_ull, 44ull);
  atomicExch(&r->exch_f, 45.5f);
}
