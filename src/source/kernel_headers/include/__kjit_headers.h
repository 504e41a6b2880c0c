// kjit: what every header kjit provides to kernels shares. Internal: include the standard names
// (<stdio.h>, <cstdint>, <cuda_runtime.h> ...), not this.
//
// kjit's headers are compile-safe versions of what kernel files include: on every backend they
// declare what device code may use, and host-only functions as declarations that a kernel cannot
// call (__KJIT_HOST_ONLY, set by each backend's prelude). They come before anything on disk.
#ifndef __KJIT_HEADERS_H
#define __KJIT_HEADERS_H

#ifndef __KJIT_HOST_ONLY
#define __KJIT_HOST_ONLY
#endif

// The qualifiers of functions these headers define: callable from host and device code.
#define __KJIT_HD __host__ __device__ inline

#endif
