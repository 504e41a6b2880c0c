// kjit's <stdio.h> for kernels: printf, which device code may call on every backend, and the rest
// of the C library's I/O as host functions that a kernel cannot call (host code in a kernel file
// still compiles).
#ifndef __KJIT_STDIO_H
#define __KJIT_STDIO_H
#include <stddef.h>
#include "__kjit_headers.h"

#define EOF (-1)
#define BUFSIZ 8192
#define FILENAME_MAX 4096
#define SEEK_SET 0
#define SEEK_CUR 1
#define SEEK_END 2

extern "C" {
typedef struct __kjit_FILE FILE;
typedef long fpos_t;
#if defined(__KJIT_CUDA__)  // NVRTC compiles an undefined extern variable as a static one
FILE* __kjit_standard_stream(int) __KJIT_HOST_ONLY;
#define stdin (__kjit_standard_stream(0))
#define stdout (__kjit_standard_stream(1))
#define stderr (__kjit_standard_stream(2))
#else
extern FILE* stdin __KJIT_HOST_ONLY;
extern FILE* stdout __KJIT_HOST_ONLY;
extern FILE* stderr __KJIT_HOST_ONLY;
#endif
FILE* fopen(const char*, const char*) __KJIT_HOST_ONLY;
FILE* freopen(const char*, const char*, FILE*) __KJIT_HOST_ONLY;
int fclose(FILE*) __KJIT_HOST_ONLY;
int fflush(FILE*) __KJIT_HOST_ONLY;
int fprintf(FILE*, const char*, ...) __KJIT_HOST_ONLY;
int sprintf(char*, const char*, ...) __KJIT_HOST_ONLY;
int snprintf(char*, size_t, const char*, ...) __KJIT_HOST_ONLY;
int scanf(const char*, ...) __KJIT_HOST_ONLY;
int fscanf(FILE*, const char*, ...) __KJIT_HOST_ONLY;
int sscanf(const char*, const char*, ...) __KJIT_HOST_ONLY;
size_t fread(void*, size_t, size_t, FILE*) __KJIT_HOST_ONLY;
size_t fwrite(const void*, size_t, size_t, FILE*) __KJIT_HOST_ONLY;
int fgetc(FILE*) __KJIT_HOST_ONLY;
char* fgets(char*, int, FILE*) __KJIT_HOST_ONLY;
int fputc(int, FILE*) __KJIT_HOST_ONLY;
int fputs(const char*, FILE*) __KJIT_HOST_ONLY;
int getc(FILE*) __KJIT_HOST_ONLY;
int getchar(void) __KJIT_HOST_ONLY;
int putc(int, FILE*) __KJIT_HOST_ONLY;
int putchar(int) __KJIT_HOST_ONLY;
int puts(const char*) __KJIT_HOST_ONLY;
int ungetc(int, FILE*) __KJIT_HOST_ONLY;
int fseek(FILE*, long, int) __KJIT_HOST_ONLY;
long ftell(FILE*) __KJIT_HOST_ONLY;
void rewind(FILE*) __KJIT_HOST_ONLY;
int feof(FILE*) __KJIT_HOST_ONLY;
int ferror(FILE*) __KJIT_HOST_ONLY;
void perror(const char*) __KJIT_HOST_ONLY;
int remove(const char*) __KJIT_HOST_ONLY;
int rename(const char*, const char*) __KJIT_HOST_ONLY;
}

#endif
