// kjit CPU prelude, part 5: the C library functions device code may call, and the kernel
// entries (the last part).

// ---- the few C library functions device code may call ----------------------------------------
extern "C" int printf(const char* format, ...);
extern "C" void* memcpy(void* dst, const void* src, size_t n);
extern "C" void* memset(void* dst, int c, size_t n);
extern "C" void* malloc(size_t n);
extern "C" void free(void* p);

// ---- kernel entries -------------------------------------------------------------------------
// The backend appends one __KJIT_KERNEL_ENTRY(N, address of the kernel) per kernel asked for; it
// instantiates the entries of cpu_abi.h for that kernel. The IR lowering then threads the thread
// context through.
namespace __kjit {

template <class T, T... I>
struct int_seq {};

template <class... P>
struct param_table {
  unsigned long long count = sizeof...(P);
  unsigned long long sizes_then_alignments[2 * sizeof...(P) + 1] = {sizeof(P)..., alignof(P)..., 0};
};

template <auto F>
struct kernel_traits;  // only kernels (functions returning void) have traits
template <class... P, void (*F)(P...)>
struct kernel_traits<F> {
  using params = param_table<P...>;
  using indices = __make_integer_seq<int_seq, unsigned long, sizeof...(P)>;
  template <unsigned long I, class T>
  struct slot {
    T value;
  };
  template <class Seq>
  struct args_of;
  template <unsigned long... I>
  struct args_of<int_seq<unsigned long, I...>> : slot<I, P>... {
    // Copies the arguments out of the launch's argument block into locals, which the optimiser
    // keeps in registers across the thread loop.
    __attribute__((always_inline)) explicit args_of(void* const* a)
        : slot<I, P>{*static_cast<const P*>(a[I])}... {}
    __attribute__((always_inline)) void call() const {
      F(static_cast<const slot<I, P>&>(*this).value...);
    }
  };
  using args = args_of<indices>;
};

// All threads of one block in a loop (kernels without barriers). The block's coordinates are
// copied into locals so that the optimiser sees them as loop-invariant values, and the thread
// index becomes the loop's induction variable.
template <auto F>
void run_block(void* const* a, const kjit_cpu_block* b) {
  const kjit_cpu_block block = *b;
  kjit_cpu_thread t{};
  t.block = &block;
  __kjit_bind_ctx(&t);
  const typename kernel_traits<F>::args args(a);
  for (unsigned z = 0; z < block.block_dim[2]; ++z) {
    for (unsigned y = 0; y < block.block_dim[1]; ++y) {
      for (unsigned x = 0; x < block.block_dim[0]; ++x) {
        t.thread_idx[0] = x;
        t.thread_idx[1] = y;
        t.thread_idx[2] = z;
        args.call();
      }
    }
  }
}

// One thread, on its own fiber (kernels that call __syncthreads()).
template <auto F>
void run_thread(void* const* a, const kjit_cpu_block* b, unsigned x, unsigned y, unsigned z) {
  const kjit_cpu_block block = *b;
  kjit_cpu_thread t{};
  t.block = &block;
  t.thread_idx[0] = x;
  t.thread_idx[1] = y;
  t.thread_idx[2] = z;
  __kjit_bind_ctx(&t);
  const typename kernel_traits<F>::args args(a);
  args.call();
}

}  // namespace __kjit

#define __KJIT_KERNEL_ENTRY(N, ...)                                                        \
  static constexpr auto __kjit_kernel_##N = __VA_ARGS__;                                   \
  extern "C" void __kjit_block_##N(void* const* a, const kjit_cpu_block* b) {              \
    ::__kjit::run_block<__kjit_kernel_##N>(a, b);                                          \
  }                                                                                        \
  extern "C" void __kjit_thread_##N(void* const* a, const kjit_cpu_block* b, unsigned x,   \
                                    unsigned y, unsigned z) {                              \
    ::__kjit::run_thread<__kjit_kernel_##N>(a, b, x, y, z);                                \
  }                                                                                        \
  extern "C" const ::__kjit::kernel_traits<__kjit_kernel_##N>::params __kjit_params_##N{}; \
  extern "C" void (*const __kjit_fn_##N)() = reinterpret_cast<void (*)()>(__kjit_kernel_##N);

// nvcc's implicit <cuda_runtime.h>, after every part of the one embedded text (see cpu_prelude.h).
#if defined(__KJIT_CPU_PRELUDE_ONE_TEXT) && __has_include(<cuda_runtime.h>)
#include <cuda_runtime.h>
#endif
