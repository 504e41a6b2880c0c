/* The contract between kjit's CPU runtime (host C++) and kernels it JIT-compiles. This header is
 * included by the runtime and pasted at the top of the kernel prelude, so both sides see one
 * definition. Plain C: no includes, fixed-size fields. Bump KJIT_CPU_ABI_VERSION on any change
 * (cached objects of another version are not loaded). */
#ifndef KJIT_CPU_ABI_H
#define KJIT_CPU_ABI_H

#define KJIT_CPU_ABI_VERSION 9

/* Per running block; the executor fills one per worker. */
struct kjit_cpu_block {
  unsigned block_idx[3];
  unsigned block_dim[3];
  unsigned grid_dim[3];
  unsigned reserved;
  char* shared;  /* the block's shared memory: static variables, then the dynamic area */
  void* barrier; /* the block's fiber scheduler (barrier kernels); null on the loop path */
  char* frame;   /* per-thread state of a kernel split at its barriers (frame_bytes per thread) */
  /* Taking turns (kernels flagged KJIT_CPU_KERNEL_YIELDS): with `yield` set, the block entry
   * returns after a pass in which all its threads stopped at a loop run in step, with `resume`
   * set and the pass's outcome in `states`; called again, it goes on from there. It returns with
   * `resume` clear when the block has finished. Several blocks on one worker can so run their
   * loops' iterations in turn, as a GPU's resident blocks do, and walk memory together. */
  unsigned yield;
  unsigned resume;
  unsigned states[3];
  unsigned reserved2;
  /* Where the lanes of a warp meet in a warp-level operation (kernels flagged
   * KJIT_CPU_KERNEL_USES_WARP; null otherwise), laid out below (KJIT_CPU_WARP_HEAD_BYTES ...). */
  char* warp;
};

/* Per thread of a block: what threadIdx and friends read. */
struct kjit_cpu_thread {
  unsigned thread_idx[3];
  unsigned reserved;
  const struct kjit_cpu_block* block;
};

/* The flags checked kernels pass with each access to the runtime's check (KJIT_CHECK): a write,
 * and an atomic operation (which also carries the write flag); neither: a read. */
#define KJIT_CPU_ACCESS_WRITE 1u
#define KJIT_CPU_ACCESS_ATOMIC 2u

/* A __shared__ variable, as checked kernels name it to the runtime (KJIT_CHECK): its bytes
 * [begin, end) of kjit_cpu_block.shared, and its name in the source. */
struct kjit_cpu_shared_variable {
  unsigned long long begin;
  unsigned long long end;
  const char* name;
};

/* Written by the CPU backend's IR lowering, one per kernel entry N (symbol __kjit_info_N). */
struct kjit_cpu_kernel_info {
  unsigned abi_version;
  unsigned flags;
  unsigned long long static_shared_bytes; /* offset of the dynamic area in kjit_cpu_block.shared */
  unsigned long long frame_bytes;         /* per thread, in kjit_cpu_block.frame; 0: no frame */
  unsigned long long max_threads;         /* its __launch_bounds__' threads; 0: none */
};

#define KJIT_CPU_KERNEL_USES_BARRIER 1u
#define KJIT_CPU_KERNEL_YIELDS 2u    /* its block entry can take turns (kjit_cpu_block.yield) */
#define KJIT_CPU_KERNEL_USES_WARP 4u /* needs kjit_cpu_block.warp */
#define KJIT_CPU_KERNEL_RANGES 8u    /* has __kjit_range_N as well as __kjit_block_N */
/* Compiled with fast math: runs with denormals flushed to zero, as nvcc --use_fast_math makes
 * GPU code (-ftz=true). */
#define KJIT_CPU_KERNEL_FLUSHES_DENORMALS 16u

/* What __kjit_range_N returns. */
#define KJIT_CPU_RANGE_DECLINED 0u
#define KJIT_CPU_RANGE_ROWS 1u
#define KJIT_CPU_RANGE_FLAT 2u

/* The warp area, kjit_cpu_block.warp, for n threads (the block's, rounded up to whole warps):
 *  - KJIT_CPU_WARP_HEAD_BYTES: the block's round of warp meetings (an unsigned at offset 0; the
 *    rest unused). The block's runner starts the next round before each pass over its threads or
 *    round of its fibers that may let the threads waiting at warp meetings go on; a lane meets
 *    its warp in the round after the one in which it arrives. Lanes that wait at a meeting all go
 *    on in the same round, but for those the runtime holds (below);
 *  - two places, used in turn by rounds (round & 1), of n 8-byte stamps: a lane's round and call
 *    site at its last meeting in that place (round | site << 32);
 *  - two places of n 8-byte masks: the mask the lane gave there (0 for __activemask()) and the
 *    bytes of its value (mask | bytes << 32);
 *  - n 4-byte flags: the lane stays at its meeting this round (held: its mask names lanes still
 *    on their way to it), set by the runtime (kjit_cpu_warp_release) for the lanes it lets go on
 *    and those it holds;
 *  - two places of values of up to 16 bytes, each place 31 bytes per thread: a value of b
 *    bytes is in the part of its size class (c, the least of 1, 2, 4, 8 and 16 bytes that holds
 *    it), at (c - 1) * n + c * lane in its place. Lanes at different meetings of a round, and a
 *    lane held past the round, so never write over each other's values;
 *  - KJIT_CPU_WARP_TAIL_BYTES that no lane owns: a shuffle may read 31 lanes of 16 bytes past
 *    its warp, and drop what it read.
 * The head and the stamps (KJIT_CPU_WARP_ZERO_BYTES per thread) are zero when a block starts. */
#define KJIT_CPU_WARP_HEAD_BYTES 64u
#define KJIT_CPU_WARP_AREA_BYTES 98u /* per thread */
#define KJIT_CPU_WARP_ZERO_BYTES 16u /* per thread */
#define KJIT_CPU_WARP_STAMPS_AT(n) KJIT_CPU_WARP_HEAD_BYTES
#define KJIT_CPU_WARP_MASKS_AT(n) (KJIT_CPU_WARP_HEAD_BYTES + 16u * (n))
#define KJIT_CPU_WARP_HELD_AT(n) (KJIT_CPU_WARP_HEAD_BYTES + 32u * (n))
#define KJIT_CPU_WARP_VALUES_AT(n) (KJIT_CPU_WARP_HEAD_BYTES + 36u * (n))
#define KJIT_CPU_WARP_PLACE_BYTES 31u /* of values, per thread */
#define KJIT_CPU_WARP_TAIL_BYTES 512u
#define KJIT_CPU_WARP_LANES 32u

/* Symbols of kernel entry N in a compiled object (only the entry the info's flags call for is
 * present):
 *  - __kjit_block_N, void (void* const* args, struct kjit_cpu_block*): all threads of a block in
 *    loops; a kernel with barriers runs its threads region by region, from barrier to barrier,
 *    and keeps each thread's live values in the block's frame; only a kernel flagged
 *    KJIT_CPU_KERNEL_YIELDS writes to the block record;
 *  - __kjit_range_N, unsigned (void* const* args, const struct kjit_cpu_block*, unsigned long long
 *    first, unsigned long long end, unsigned y, unsigned run): for a grid and blocks with z of 1,
 *    the threads of global row y (blockIdx.y * blockDim.y + threadIdx.y) with linear x indices
 *    [first, end), in any order between threads (a grid-stride loop row by row or flat, or one
 *    element each). It returns KJIT_CPU_RANGE_DECLINED having run nothing when the launch's
 *    values do not allow it (the caller then runs those threads' blocks through __kjit_block_N),
 *    else KJIT_CPU_RANGE_ROWS, or KJIT_CPU_RANGE_FLAT when it runs a grid-stride loop as one flat
 *    loop over its share of the index space (the same for any range of a launch). With run 0, it
 *    runs nothing and answers as it would;
 *  - __kjit_thread_N, void (void* const* args, const struct kjit_cpu_block*, unsigned x,
 *    unsigned y, unsigned z): one thread, on a fiber (barrier kernels that are not split);
 *  - __kjit_params_N, const unsigned long long[]: count, then count sizes, then count alignments;
 *  - __kjit_info_N, const struct kjit_cpu_kernel_info.
 * The runtime provides void __kjit_barrier_wait(const struct kjit_cpu_thread*), __syncthreads()
 * on fibers, and void __kjit_warp_wait(const struct kjit_cpu_thread*), where the lanes of a warp
 * meet on fibers: a thread waiting there goes on once no thread of its block can run but those
 * waiting at a warp, before any thread waiting at __syncthreads(). A block entry split at its
 * barriers calls void __kjit_warp_release(char* warp, unsigned long long threads) before a pass
 * that runs each thread at a warp meeting on: it starts the next round and sets the held flags. */

#endif
