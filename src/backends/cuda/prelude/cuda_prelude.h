// kjit's prelude for NVRTC: what CUDA device code sees under nvcc without including anything,
// and kjit's CPU prelude provides too (NVRTC itself has size_t, but no fixed-width types).
#define __KJIT__ 1
#define __KJIT_CUDA__ 1

typedef signed char int8_t;
typedef short int16_t;
typedef int int32_t;
typedef long int64_t;
typedef unsigned char uint8_t;
typedef unsigned short uint16_t;
typedef unsigned int uint32_t;
typedef unsigned long uint64_t;
typedef long intptr_t;
typedef unsigned long uintptr_t;
