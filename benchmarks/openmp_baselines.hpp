// The ahead-of-time baselines the CPU backend is measured against: the same loops as the kernels
// of kernels/, compiled by the host compiler with -O3 -march=native and OpenMP on all cores.
#pragma once

#include <cstddef>

struct MandelbrotView;

namespace kjit::bench {

void omp_vadd(const float* a, const float* b, float* c, int n);
void omp_saxpy(float a, const float* x, float* y, int n);
void omp_mandelbrot(const MandelbrotView& view, int* iterations);
/// One all-pairs n-body step in double precision (kernels/nbody.cu's nbody_step<double>): bodies
/// as x, y, z, mass; velocities as x, y, z.
void omp_nbody(const double* bodies, double* velocity, double* next, int n, double dt, double eps2);
/// Sums as cuda-samples' reductions compute them (ints wrap as the sample's do).
int omp_sum_ints(const int* x, int n);
float omp_sum_floats(const float* x, int n);
int omp_threads();
/// An OpenMP parallel loop of one iteration per thread that does nothing: the cost of starting
/// parallel work, set against launching an empty kernel.
void omp_empty();
/// An empty parallel loop over `iterations`: what a launch of as many empty blocks is held to.
void omp_empty_loop(int iterations);

}  // namespace kjit::bench
