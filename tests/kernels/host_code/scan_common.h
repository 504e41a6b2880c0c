// A shared header as real CUDA projects have them (after cuda-samples' scan_common.h): host
// function declarations and constants that host code and kernels both see.
#pragma once

#include <stddef.h>

typedef unsigned int uint;

extern "C" void initScan(void);
extern "C" void closeScan(void);
extern "C" size_t scanExclusiveShort(uint* d_Dst, uint* d_Src, uint batchSize, uint arrayLength);

const uint THREADBLOCK_SIZE = 256;
static uint* d_Buf;
int scan_calls = 0;
