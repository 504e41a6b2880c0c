// kjit's <string.h> for kernels: memcpy and memset, which device code may call, and the rest of
// the C library's string functions as host functions that a kernel cannot call.
#ifndef __KJIT_STRING_H
#define __KJIT_STRING_H
#include <stddef.h>
#include "__kjit_headers.h"

extern "C" {
void* memmove(void*, const void*, size_t) __KJIT_HOST_ONLY;
int memcmp(const void*, const void*, size_t) __KJIT_HOST_ONLY;
void* memchr(const void*, int, size_t) __KJIT_HOST_ONLY;
size_t strlen(const char*) __KJIT_HOST_ONLY;
char* strcpy(char*, const char*) __KJIT_HOST_ONLY;
char* strncpy(char*, const char*, size_t) __KJIT_HOST_ONLY;
char* strcat(char*, const char*) __KJIT_HOST_ONLY;
char* strncat(char*, const char*, size_t) __KJIT_HOST_ONLY;
int strcmp(const char*, const char*) __KJIT_HOST_ONLY;
int strncmp(const char*, const char*, size_t) __KJIT_HOST_ONLY;
char* strchr(const char*, int) __KJIT_HOST_ONLY;
char* strrchr(const char*, int) __KJIT_HOST_ONLY;
char* strstr(const char*, const char*) __KJIT_HOST_ONLY;
char* strdup(const char*) __KJIT_HOST_ONLY;
char* strerror(int) __KJIT_HOST_ONLY;
char* strtok(char*, const char*) __KJIT_HOST_ONLY;
}

#endif
