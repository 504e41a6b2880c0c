// LULESH's kernels on kjit: upstream/lulesh.cu loaded as shipped, the kernels its time loop
// launches (those of the double-precision build upstream's lulesh.h selects) compiled together
// and typed as declared there.
#ifndef KJIT_PROGRAMS_LULESH_KERNELS_H
#define KJIT_PROGRAMS_LULESH_KERNELS_H

#include <kjit/kjit.hpp>

#include <string>

namespace lulesh {

using R = double*;
using C = const double*;
using I = int*;
using CI = const int*;

/// The typed kernels of one program on one device.
struct Kernels {
  // volo, v, p, q, hourg, numElem, padded_numElem, nodelist, ss, elemMass, x, y, z, xd, yd, zd,
  // fx_elem, fy_elem, fz_elem, bad_vol, num_threads (annotated: 5, 6, 7, 21)
  kjit::Kernel<C, C, C, C, double, int, int, CI, C, C, C, C, C, C, C, C, R, R, R, I, int>
      volume_force;
  // numNode, padded_numNode, nodeElemCount, nodeElemStart, nodeElemCornerList, f*_elem, f*_node,
  // num_threads
  kjit::Kernel<int, int, CI, CI, CI, C, C, C, R, R, R, int> add_node_forces;
  // numNode, xdd, ydd, zdd, fx, fy, fz, nodalMass
  kjit::Kernel<int, R, R, R, R, R, R, R> acceleration;
  // numNodeBC, xyzdd, symm
  kjit::Kernel<int, R, I> acceleration_bc;
  // numNode, deltatime, u_cut, x, y, z, xd, yd, zd, xdd, ydd, zdd
  kjit::Kernel<int, double, double, R, R, R, R, R, R, C, C, C> position_velocity;
  // numElem, padded_numElem, dt, nodelist, volo, v, x, y, z, xd, yd, zd, vnew, delv, arealg, dxx,
  // dyy, dzz, vdov, delx_zeta, delv_zeta, delx_xi, delv_xi, delx_eta, delv_eta, bad_vol,
  // num_threads (annotated: 1, 2, 27)
  kjit::Kernel<int, int, double, CI, C, C, C, C, C, C, C, C, R, R, R, R, R, R, R, R, R, R, R, R, R,
               I, int>
      kinematics;
  // qlc_monoq, qqc_monoq, monoq_limiter_mult, monoq_max_slope, ptiny, elength, regElemlist,
  // elemBC, lxim, lxip, letam, letap, lzetam, lzetap, delv_xi, delv_eta, delv_zeta, delx_xi,
  // delx_eta, delx_zeta, vdov, elemMass, volo, vnew, qq, ql, q, qstop, bad_q
  kjit::Kernel<double, double, double, double, double, int, I, I, I, I, I, I, I, I, R, R, R, R, R,
               R, R, R, R, R, R, R, R, double, I>
      monotonic_q;
  // length, rho0, e_cut, emin, ql, qq, vnew, v, pmin, p_cut, q_cut, eosvmin, eosvmax, regElemlist,
  // e, delv, p, q, ss4o3, ss, v_cut, bad_vol, cost, regCSR, regReps, numReg
  kjit::Kernel<int, double, double, double, R, R, R, R, double, double, double, double, double, I,
               R, R, R, R, double, R, double, I, int, CI, CI, int>
      material;
  // length, qqc2, dvovmax, matElemlist, ss, vdov, arealg, dev_mindtcourant, dev_mindthydro
  kjit::Kernel<int, double, double, I, R, R, R, R, R> time_constraints;
  // dev_mindthydro, dev_mindtcourant, dtcourant, dthydro, shared_array_size
  kjit::Kernel<R, R, R, R, int> min_dt;
};

/// upstream/lulesh.cu as a kjit program; `specialise` defines ENABLE_JIT, which turns on the
/// kernels' own annotate("jit", ...); `wait_for_variant` makes launches wait for their variant.
kjit::Program load_program(const std::string& file, bool specialise, bool wait_for_variant);

/// The kernels of `program` on `device`.
Kernels load_kernels(const kjit::Program& program, const kjit::Device& device);

}  // namespace lulesh

#endif
