// kjit's <assert.h> for kernels. A failed assert stops the kernel, as under CUDA: on the CPU
// backend the launch ends and the next synchronize throws an error naming the kernel, the block
// and thread, the file and line, and the expression; on CUDA the device reports it (and the
// context cannot be used again, as with any device-side fault). NDEBUG turns it off. As in C,
// this header may be included again with NDEBUG changed.
#include "__kjit_headers.h"

#undef assert
#ifdef NDEBUG
#define assert(e) (static_cast<void>(0))
#elif defined(__KJIT_CPU__)
#define assert(e) \
  ((e) ? static_cast<void>(0) : __kjit_assert_fail(#e, __FILE__, __LINE__, __PRETTY_FUNCTION__))
#elif defined(__KJIT_CUDA__)
#define assert(e)             \
  ((e) ? static_cast<void>(0) \
       : __assertfail(#e, __FILE__, __LINE__, __PRETTY_FUNCTION__, sizeof(char)))
#else
#define assert(e)                                                                             \
  ((e) ? static_cast<void>(0)                                                                 \
       : (static_cast<void>(printf("%s:%u: %s: Assertion `%s' failed.\n", __FILE__, __LINE__, \
                                   __PRETTY_FUNCTION__, #e)),                                 \
          __builtin_trap()))
#endif
