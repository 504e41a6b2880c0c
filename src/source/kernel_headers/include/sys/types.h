// kjit's <sys/types.h> for kernel files: the C library's short type names that glibc's
// <stdlib.h> declares with it, and so does every .cu file nvcc compiles (its cuda_runtime.h
// includes <stdlib.h>): uint, ushort, ulong, and the BSD spellings u_char, u_short, u_int, u_long.
// Each backend's prelude makes them visible without an include, as nvcc does.
#ifndef __KJIT_SYS_TYPES_H
#define __KJIT_SYS_TYPES_H
#include <stddef.h>

typedef unsigned int uint;
typedef unsigned short ushort;
typedef unsigned long ulong;
typedef unsigned char u_char;
typedef unsigned short u_short;
typedef unsigned int u_int;
typedef unsigned long u_long;
typedef long ssize_t;

#endif
