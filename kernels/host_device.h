// Lets a header of __host__ __device__ functions compile as plain C++ on the host too: kernel
// compilers define the two qualifiers, host compilers do not.
#pragma once

#ifndef __host__
#define __host__
#endif
#ifndef __device__
#define __device__
#endif
