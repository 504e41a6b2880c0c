// kjit's <stdlib.h> for kernels: malloc, free and abs, which device code may call, and the rest of
// the C library's utilities as host functions that a kernel cannot call. As with glibc and
// libstdc++, it brings <sys/types.h>'s names (uint, ushort, ulong ...) and <cstdlib>'s
// (std::size_t, std::abs ...).
#ifndef __KJIT_STDLIB_H
#define __KJIT_STDLIB_H
#include <stddef.h>
#include <sys/types.h>
#include "__kjit_headers.h"

#define EXIT_SUCCESS 0
#define EXIT_FAILURE 1
#define RAND_MAX 2147483647

extern "C" {
typedef struct {
  int quot, rem;
} div_t;
typedef struct {
  long quot, rem;
} ldiv_t;
void exit(int) __KJIT_HOST_ONLY;
void _Exit(int) __KJIT_HOST_ONLY;
int atexit(void (*)(void)) __KJIT_HOST_ONLY;
void* calloc(size_t, size_t) __KJIT_HOST_ONLY;
void* realloc(void*, size_t) __KJIT_HOST_ONLY;
int atoi(const char*) __KJIT_HOST_ONLY;
long atol(const char*) __KJIT_HOST_ONLY;
long long atoll(const char*) __KJIT_HOST_ONLY;
double atof(const char*) __KJIT_HOST_ONLY;
long strtol(const char*, char**, int) __KJIT_HOST_ONLY;
unsigned long strtoul(const char*, char**, int) __KJIT_HOST_ONLY;
long long strtoll(const char*, char**, int) __KJIT_HOST_ONLY;
unsigned long long strtoull(const char*, char**, int) __KJIT_HOST_ONLY;
double strtod(const char*, char**) __KJIT_HOST_ONLY;
float strtof(const char*, char**) __KJIT_HOST_ONLY;
int rand(void) __KJIT_HOST_ONLY;
void srand(unsigned) __KJIT_HOST_ONLY;
char* getenv(const char*) __KJIT_HOST_ONLY;
int system(const char*) __KJIT_HOST_ONLY;
void qsort(void*, size_t, size_t, int (*)(const void*, const void*)) __KJIT_HOST_ONLY;
void* bsearch(const void*, const void*, size_t, size_t,
              int (*)(const void*, const void*)) __KJIT_HOST_ONLY;
div_t div(int, int) __KJIT_HOST_ONLY;
ldiv_t ldiv(long, long) __KJIT_HOST_ONLY;
#if !defined(__KJIT_HIP__)  // HIP's device library has its own abort()
void abort(void) __KJIT_HOST_ONLY;
#endif
}

#include <cstdlib>

#endif
