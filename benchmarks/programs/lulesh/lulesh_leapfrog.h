// LULESH's state on the device and one cycle of its time loop (upstream/lulesh.cu's
// LagrangeLeapFrog and TimeIncrement) as kjit launches; the code, ported from upstream's, carries
// its notice in lulesh_leapfrog.cpp.
#ifndef KJIT_PROGRAMS_LULESH_LEAPFROG_H
#define KJIT_PROGRAMS_LULESH_LEAPFROG_H

#include "lulesh_kernels.h"
#include "lulesh_mesh.h"

#include <kjit/kjit.hpp>

namespace lulesh {

/// The constants upstream's NewDomain sets.
struct Parameters {
  Real dtfixed = -1.0e-6;  // negative: the time step follows the Courant condition
  Real deltatimemultlb = 1.1;
  Real deltatimemultub = 1.2;
  Real stoptime = 1.0e-2;
  Real dtmax = 1.0e-2;
  Real e_cut = 1.0e-7;
  Real p_cut = 1.0e-7;
  Real q_cut = 1.0e-7;
  Real u_cut = 1.0e-7;
  Real v_cut = 1.0e-10;
  Real hgcoef = 3.0;
  Real ss4o3 = 4.0 / 3.0;
  Real qstop = 1.0e+12;
  Real monoq_max_slope = 1.0;
  Real monoq_limiter_mult = 2.0;
  Real qlc_monoq = 0.5;
  Real qqc_monoq = 2.0 / 3.0;
  Real qqc = 2.0;
  Real pmin = 0;
  Real emin = -1.0e+15;
  Real dvovmax = 0.1;
  Real eosvmax = 1.0e+9;
  Real eosvmin = 1.0e-9;
  Real refdens = 1.0;
};

/// What the time loop reads back each cycle: the time constraints and the error flags.
struct Constraints {
  Real dtcourant = 1e20;
  Real dthydro = 1e20;
  Index bad_vol = -1;  // an element whose volume went negative, or -1
  Index bad_q = -1;    // an element whose q passed qstop, or -1
};

/// The mesh's arrays on the device, the temporaries of a cycle, and the time step's state.
class Domain {
 public:
  Domain(const kjit::Device& device, const Mesh& mesh, Kernels kernels);

  /// One cycle: nodal forces (after which the host's TimeIncrement runs, while they compute),
  /// positions, element kinematics, q, equation of state, and the next time constraints.
  void leap_frog();
  /// The constraints and error flags as the last TimeIncrement read them (a cycle behind).
  [[nodiscard]] const Constraints& seen() const { return seen_; }
  /// Waits for the constraints the last cycle left and returns them.
  [[nodiscard]] const Constraints& last_constraints();

  [[nodiscard]] Real time() const { return time_; }
  [[nodiscard]] Real stoptime() const { return params_.stoptime; }
  [[nodiscard]] kjit::DeviceBuffer<Real>& energy() { return e_; }
  [[nodiscard]] kjit::DeviceBuffer<Real>& x() { return x_; }
  [[nodiscard]] kjit::DeviceBuffer<Real>& y() { return y_; }
  [[nodiscard]] kjit::DeviceBuffer<Real>& z() { return z_; }

 private:
  void time_increment();
  void lagrange_nodal();
  void lagrange_elements();
  void time_constraints();

  kjit::Device device_;
  Kernels k_;
  Parameters params_;
  const Mesh& mesh_;
  Real time_ = 0;
  Real deltatime_ = 0;
  int cycle_ = 0;
  // Element-centred.
  kjit::DeviceBuffer<Index> mat_elemlist_, nodelist_, lxim_, lxip_, letam_, letap_, lzetam_,
      lzetap_, elem_bc_;
  kjit::DeviceBuffer<Real> e_, p_, q_, ql_, qq_, v_, volo_, delv_, vdov_, arealg_, ss_, elem_mass_;
  // Node-centred.
  kjit::DeviceBuffer<Real> x_, y_, z_, xd_, yd_, zd_, xdd_, ydd_, zdd_, fx_, fy_, fz_, nodal_mass_;
  kjit::DeviceBuffer<Index> symm_x_, symm_y_, symm_z_, node_elem_count_, node_elem_start_,
      node_elem_corner_list_;
  // Regions.
  kjit::DeviceBuffer<Index> reg_csr_, reg_reps_, reg_elemlist_;
  // A cycle's temporaries (upstream takes them from its allocator's pool each cycle).
  kjit::DeviceBuffer<Real> fx_elem_, fy_elem_, fz_elem_, vnew_, dxx_, dyy_, dzz_, delx_xi_,
      delx_eta_, delx_zeta_, delv_xi_, delv_eta_, delv_zeta_, mindtcourant_, mindthydro_;
  // dtcourant, dthydro; bad_vol, bad_q: written by the kernels, read back after each cycle.
  kjit::DeviceBuffer<Real> dt_;
  kjit::DeviceBuffer<Index> flags_;
  kjit::HostBuffer<Real> dt_host_;
  kjit::HostBuffer<Index> flags_host_;
  kjit::Event constraints_ready_;
  bool recorded_ = false;  // whether a cycle recorded constraints_ready_
  Constraints seen_;
};

}  // namespace lulesh

#endif
