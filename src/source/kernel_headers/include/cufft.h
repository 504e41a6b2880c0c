// kjit's <cufft.h>: a CUDA library's header for host code, which kjit does not compile; it brings
// what the real one brings for device code (__kjit_cuda_library.h), so that a kernel file that
// includes it loads.
#include "__kjit_cuda_library.h"
