// kjit's <strings.h> for kernel files: POSIX's case-blind comparisons, host functions only.
#ifndef __KJIT_STRINGS_H
#define __KJIT_STRINGS_H
#include <stddef.h>
#include "__kjit_headers.h"
extern "C" {
int strcasecmp(const char*, const char*) __KJIT_HOST_ONLY;
int strncasecmp(const char*, const char*, size_t) __KJIT_HOST_ONLY;
}
#endif
