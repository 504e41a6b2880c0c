// kjit's <stdbool.h>: nothing to do in C++.
#ifndef __KJIT_STDBOOL_H
#define __KJIT_STDBOOL_H
#define __bool_true_false_are_defined 1
#endif
