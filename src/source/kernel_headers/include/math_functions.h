// kjit's <math_functions.h>: what it declares is already there on every backend (each prelude or
// compiler provides CUDA's device-side names); present so that kernel files that include it load.
#ifndef __KJIT_MATH_FUNCTIONS_H
#define __KJIT_MATH_FUNCTIONS_H
#include <driver_types.h>
#endif
