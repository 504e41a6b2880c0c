// A buffer's device address as a plain pointer, for baselines that take one (CUDA kernels built by
// nvcc, OpenMP loops over CPU memory).
#pragma once

#include <kjit/kjit.hpp>

template <class T>
T* raw(kjit::DeviceBuffer<T>& b) {
  return reinterpret_cast<T*>(b.ptr().address());  // NOLINT(performance-no-int-to-ptr)
}
