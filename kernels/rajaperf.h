// Parameters of the Apps_ENERGY kernels of rajaperf.cu, shared with the host code that launches
// them (benchmarks, tests): plain structs of pointers and numbers, the same on every backend.
#pragma once

#include "host_device.h"

struct EnergyArrays {
  double* e_new;
  const double* e_old;
  const double* delvc;
  const double* p_new;
  const double* p_old;
  double* q_new;
  const double* q_old;
  const double* work;
  const double* comp_half_step;
  const double* p_half_step;
  const double* bvc;
  const double* pbvc;
  const double* ql_old;
  const double* qq_old;
  const double* vnewc;
};

struct EnergyConstants {
  double rho0;
  double e_cut;
  double emin;
  double q_cut;
};

// The six steps of Apps_ENERGY at point i (host code: include <cmath> first).
__host__ __device__ inline double energy_sound_speed(double ssc) {
  return ssc <= 0.1111111e-36 ? 0.3333333e-18 : sqrt(ssc);
}

__host__ __device__ inline void energy1_at(const EnergyArrays& v, int i) {
  v.e_new[i] = v.e_old[i] - 0.5 * v.delvc[i] * (v.p_old[i] + v.q_old[i]) + 0.5 * v.work[i];
}

__host__ __device__ inline void energy2_at(const EnergyArrays& v, const EnergyConstants& k, int i) {
  if (v.delvc[i] > 0.0) {
    v.q_new[i] = 0.0;
  } else {
    const double vhalf = 1.0 / (1.0 + v.comp_half_step[i]);
    const double ssc = energy_sound_speed(
        (v.pbvc[i] * v.e_new[i] + vhalf * vhalf * v.bvc[i] * v.p_half_step[i]) / k.rho0);
    v.q_new[i] = ssc * v.ql_old[i] + v.qq_old[i];
  }
}

__host__ __device__ inline void energy3_at(const EnergyArrays& v, int i) {
  v.e_new[i] =
      v.e_new[i] +
      0.5 * v.delvc[i] * (3.0 * (v.p_old[i] + v.q_old[i]) - 4.0 * (v.p_half_step[i] + v.q_new[i]));
}

__host__ __device__ inline void energy_clamp(const EnergyArrays& v, const EnergyConstants& k,
                                             int i) {
  if (fabs(v.e_new[i]) < k.e_cut) {
    v.e_new[i] = 0.0;
  }
  if (v.e_new[i] < k.emin) {
    v.e_new[i] = k.emin;
  }
}

__host__ __device__ inline void energy4_at(const EnergyArrays& v, const EnergyConstants& k, int i) {
  v.e_new[i] += 0.5 * v.work[i];
  energy_clamp(v, k, i);
}

__host__ __device__ inline void energy5_at(const EnergyArrays& v, const EnergyConstants& k, int i) {
  double q_tilde = 0.0;
  if (v.delvc[i] <= 0.0) {
    const double ssc = energy_sound_speed(
        (v.pbvc[i] * v.e_new[i] + v.vnewc[i] * v.vnewc[i] * v.bvc[i] * v.p_new[i]) / k.rho0);
    q_tilde = ssc * v.ql_old[i] + v.qq_old[i];
  }
  v.e_new[i] = v.e_new[i] - (7.0 * (v.p_old[i] + v.q_old[i]) -
                             8.0 * (v.p_half_step[i] + v.q_new[i]) + (v.p_new[i] + q_tilde)) *
                                v.delvc[i] / 6.0;
  energy_clamp(v, k, i);
}

__host__ __device__ inline void energy6_at(const EnergyArrays& v, const EnergyConstants& k, int i) {
  if (v.delvc[i] <= 0.0) {
    const double ssc = energy_sound_speed(
        (v.pbvc[i] * v.e_new[i] + v.vnewc[i] * v.vnewc[i] * v.bvc[i] * v.p_new[i]) / k.rho0);
    v.q_new[i] = ssc * v.ql_old[i] + v.qq_old[i];
    if (fabs(v.q_new[i]) < k.q_cut) {
      v.q_new[i] = 0.0;
    }
  }
}
