// The Mandelbrot iteration for one pixel, shared by kernels and host code (include <cmath>
// before this header on the host, for fmaf).
//
// Every multiply-add is an explicit fmaf, so the result is the same bit for bit wherever it runs:
// a GPU, the CPU backend, or the host compiler, whatever each does about contracting a*b+c.
#pragma once

#include "host_device.h"

struct MandelbrotView {
  float x0;    // real part at the left edge
  float y0;    // imaginary part at the top edge
  float step;  // distance between pixel centres
  int width;
  int height;
  int max_iterations;
};

/// Iterations before z escapes |z| > 2 for the pixel (px, py), or max_iterations.
__host__ __device__ inline int mandelbrot_iterations(const MandelbrotView& v, int px, int py) {
  const float cx = fmaf(static_cast<float>(px), v.step, v.x0);
  const float cy = fmaf(static_cast<float>(py), v.step, v.y0);
  float x = 0.0f;
  float y = 0.0f;
  int i = 0;
  while (i < v.max_iterations) {
    if (fmaf(x, x, y * y) > 4.0f) {  // |z|^2, with no a*b+c left for a compiler to fuse
      break;
    }
    const float xy = x * y;
    x = fmaf(x, x, fmaf(-y, y, cx));  // x^2 - y^2 + cx, rounded once per fmaf
    y = fmaf(2.0f, xy, cy);           // 2xy + cy
    ++i;
  }
  return i;
}
