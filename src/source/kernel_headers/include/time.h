// kjit's <time.h> for kernel files: device code reads the clock with clock() (and clock64()),
// which every backend's compiler declares; the calendar is the host's, declared for host code
// that kernel files share (whose function bodies kjit erases).
#ifndef __KJIT_TIME_H
#define __KJIT_TIME_H
#include "__kjit_headers.h"
typedef long time_t;
#ifdef __KJIT_HIP__
typedef long clock_t;  // hipRTC declares clock() but, before ROCm 5.7, not its type
#endif
struct tm;
extern "C" {
time_t time(time_t*) __KJIT_HOST_ONLY;
double difftime(time_t, time_t) __KJIT_HOST_ONLY;
}
#endif
