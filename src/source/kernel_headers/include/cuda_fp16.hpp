// kjit: <cuda_fp16.hpp> is part of <cuda_fp16.h>.
#include <cuda_fp16.h>
