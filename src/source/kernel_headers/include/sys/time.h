// kjit's <sys/time.h> for kernel files: the host's wall clock, for host code that kernel files
// share (timers); device code reads clock() and clock64().
#ifndef __KJIT_SYS_TIME_H
#define __KJIT_SYS_TIME_H
#include <__kjit_headers.h>
extern "C" {
struct timeval {
  long tv_sec;
  long tv_usec;
};
struct timezone;
int gettimeofday(struct timeval*, struct timezone*) __KJIT_HOST_ONLY;
}
#endif
