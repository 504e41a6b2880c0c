// The RAJAPerf kernels of kernels/rajaperf.cu as ahead-of-time OpenMP loops (g++ -O3
// -march=native -fopenmp, all cores): the CPU backend's baselines, as RAJAPerf's own
// Base_OpenMP variants write them.
#pragma once

struct EnergyArrays;
struct EnergyConstants;

namespace kjit::bench {

void omp_daxpy(double* y, const double* x, double a, int n);
void omp_triad(double* a, const double* b, const double* c, double alpha, int n);
void omp_energy(const EnergyArrays& v, const EnergyConstants& k, int n);  // the six loops
double omp_pi_atomic(int n);
double omp_reduce_sum(const double* x, int n);
void omp_fir(double* out, const double* in, const double* coeff, int n);
void omp_jacobi_2d(double* b, const double* a, int n);
void omp_mat_mat(const double* a, const double* b, double* c, int n);

}  // namespace kjit::bench
