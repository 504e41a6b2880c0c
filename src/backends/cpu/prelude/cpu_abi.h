/* The contract between kjit's CPU runtime (host C++) and kernels it JIT-compiles. This header is
 * included by the runtime and pasted at the top of the kernel prelude, so both sides see one
 * definition. Plain C: no includes, fixed-size fields. Bump KJIT_CPU_ABI_VERSION on any change
 * (cached objects of another version are not loaded). */
#ifndef KJIT_CPU_ABI_H
#define KJIT_CPU_ABI_H

#define KJIT_CPU_ABI_VERSION 1

/* Per running block; the executor fills one per worker. */
struct kjit_cpu_block {
  unsigned block_idx[3];
  unsigned block_dim[3];
  unsigned grid_dim[3];
  unsigned reserved;
  char* shared;  /* the block's shared memory: static variables, then the dynamic area */
  void* barrier; /* the block's fiber scheduler (barrier kernels); null on the loop path */
};

/* Per thread of a block: what threadIdx and friends read. */
struct kjit_cpu_thread {
  unsigned thread_idx[3];
  unsigned reserved;
  const struct kjit_cpu_block* block;
};

/* Written by the CPU backend's IR lowering, one per kernel entry N (symbol __kjit_info_N). */
struct kjit_cpu_kernel_info {
  unsigned abi_version;
  unsigned flags;
  unsigned long long static_shared_bytes; /* offset of the dynamic area in kjit_cpu_block.shared */
};

#define KJIT_CPU_KERNEL_USES_BARRIER 1u

/* Symbols of kernel entry N in a compiled object:
 *   void __kjit_block_N(void* const* args, const struct kjit_cpu_block*)       all threads, in a
 * loop void __kjit_thread_N(void* const* args, const struct kjit_cpu_block*, unsigned x, unsigned
 * y, unsigned z)                    one thread (fibers) const unsigned long long __kjit_params_N[]
 * count, then count sizes, then count alignments const struct kjit_cpu_kernel_info __kjit_info_N
 * Only the entry the info's flags call for is present. The runtime provides
 *   void __kjit_barrier_wait(const struct kjit_cpu_thread*)                  __syncthreads()   */

#endif
