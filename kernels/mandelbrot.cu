// Escape iterations of the Mandelbrot set, one pixel per thread, on a 2-D grid.
#include "mandelbrot.h"

__global__ void mandelbrot(MandelbrotView view, int* iterations) {
  const int px = blockIdx.x * blockDim.x + threadIdx.x;
  const int py = blockIdx.y * blockDim.y + threadIdx.y;
  if (px < view.width && py < view.height) {
    iterations[py * view.width + px] = mandelbrot_iterations(view, px, py);
  }
}
