// kjit's <stddef.h> for kernels: size_t, ptrdiff_t, NULL, offsetof, max_align_t.
#ifndef __KJIT_STDDEF_H
#define __KJIT_STDDEF_H
#include "__kjit_headers.h"

// size_t and ptrdiff_t come with every backend's prelude (NVRTC and hipRTC have their own).
#ifndef NULL
#define NULL 0
#endif
#ifndef offsetof
#if defined(__KJIT_CUDA__)  // NVRTC's front end (EDG) spells the constant address so
#define offsetof(type, member) ((size_t)__INTADDR__(&(((type*)0)->member)))
#else
#define offsetof(type, member) __builtin_offsetof(type, member)
#endif
#endif
typedef struct {
  alignas(16) long long __kjit_ll;
  alignas(16) double __kjit_d;
} max_align_t;

#endif
