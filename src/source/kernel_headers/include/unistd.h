// kjit's <unistd.h>: POSIX's header is for host code, which kjit does not compile; this gives the
// version macros that host code tests before it declares anything (#if _POSIX_VERSION >=
// 200112L), as the host's header does.
#ifndef __KJIT_UNISTD_H
#define __KJIT_UNISTD_H
#define _POSIX_VERSION 200809L
#define _POSIX2_VERSION 200809L
#define _XOPEN_VERSION 700
#endif
