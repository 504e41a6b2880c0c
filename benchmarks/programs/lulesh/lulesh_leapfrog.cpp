// One cycle of LULESH's time loop on kjit: upstream/lulesh.cu's LagrangeLeapFrog (LagrangeNodal,
// LagrangeElements, CalcTimeConstraintsForElems) and TimeIncrement, their <<<...>>> launches as
// kjit launches with the same grids and blocks, thrust vectors as kjit buffers. The time
// constraints and error flags that upstream's kernels write to page-locked host memory go to a
// device buffer here, copied back in stream order after each cycle; TimeIncrement waits for them,
// as upstream waits for its event. Ported from upstream's code (one domain, no MPI), whose
// notice follows.
// Copyright (c) 2010. Lawrence Livermore National Security, LLC. Produced at the Lawrence
// Livermore National Laboratory. LLNL-CODE-461231. All rights reserved. Redistribution and use,
// with or without modification, under the conditions and with the disclaimers of LULESH's notice,
// which this folder's LICENSE holds in full.
#include "lulesh_leapfrog.h"

#include <algorithm>
#include <cstdint>
#include <span>
#include <vector>

namespace lulesh {
namespace {

/// Upstream's <<<grid, block>>> for `count` threads in blocks of `block`.
kjit::LaunchConfig blocks_for(Index count, Index block, std::size_t shared = 0) {
  const auto b = static_cast<std::uint32_t>(block);
  return kjit::LaunchConfig{
      kjit::Dim3{static_cast<std::uint32_t>((count + block - 1) / block), 1, 1},
      kjit::Dim3{b, 1, 1}, shared};
}

template <class T>
kjit::DeviceBuffer<T> filled(const kjit::Device& device, std::size_t count, T value) {
  return device.upload(std::vector<T>(count, value));
}

// Upstream's CalcTimeConstraintsForElems: blocks of 128, at most 1024 of them.
constexpr Index kConstraintBlock = 128;
constexpr Index kMaxConstraintGrid = 1024;

}  // namespace

Domain::Domain(const kjit::Device& device, const Mesh& mesh, Kernels kernels)
    : device_(device), k_(std::move(kernels)), mesh_(mesh) {
  const auto elems = static_cast<std::size_t>(mesh.num_elem);
  const auto nodes = static_cast<std::size_t>(mesh.num_node);
  const auto& d = device;
  deltatime_ = mesh.initial_dt;
  mat_elemlist_ = d.upload(mesh.mat_elemlist);
  nodelist_ = d.upload(mesh.nodelist);
  lxim_ = d.upload(mesh.lxim);
  lxip_ = d.upload(mesh.lxip);
  letam_ = d.upload(mesh.letam);
  letap_ = d.upload(mesh.letap);
  lzetam_ = d.upload(mesh.lzetam);
  lzetap_ = d.upload(mesh.lzetap);
  elem_bc_ = d.upload(mesh.elem_bc);
  // InitializeFields: e, p, q, ss 0 (e with the deposit), v 1; ql, qq, delv, vdov and arealg
  // are written before they are read.
  e_ = d.upload(mesh.e);
  for (auto* b : {&p_, &q_, &ql_, &qq_, &delv_, &vdov_, &arealg_, &ss_}) {
    *b = filled<Real>(d, elems, 0);
  }
  v_ = filled<Real>(d, elems, 1);
  volo_ = d.upload(mesh.volo);
  elem_mass_ = d.upload(mesh.elem_mass);
  x_ = d.upload(mesh.x);
  y_ = d.upload(mesh.y);
  z_ = d.upload(mesh.z);
  for (auto* b : {&xd_, &yd_, &zd_, &xdd_, &ydd_, &zdd_, &fx_, &fy_, &fz_}) {
    *b = filled<Real>(d, nodes, 0);
  }
  nodal_mass_ = d.upload(mesh.nodal_mass);
  symm_x_ = d.upload(mesh.symm_x);
  symm_y_ = d.upload(mesh.symm_y);
  symm_z_ = d.upload(mesh.symm_z);
  node_elem_count_ = d.upload(mesh.node_elem_count);
  node_elem_start_ = d.upload(mesh.node_elem_start);
  node_elem_corner_list_ = d.upload(mesh.node_elem_corner_list);
  reg_csr_ = d.upload(mesh.reg_csr);
  reg_reps_ = d.upload(mesh.reg_reps);
  reg_elemlist_ = d.upload(mesh.reg_elemlist);
  const auto corners = static_cast<std::size_t>(mesh.padded_num_elem) * 8;
  fx_elem_ = d.alloc<Real>(corners);
  fy_elem_ = d.alloc<Real>(corners);
  fz_elem_ = d.alloc<Real>(corners);
  for (auto* b : {&vnew_, &dxx_, &dyy_, &dzz_, &delx_xi_, &delx_eta_, &delx_zeta_}) {
    *b = d.alloc<Real>(elems);
  }
  // The velocity gradients have room for the ghost planes of the six faces.
  const Index s = mesh.size;
  const auto all_elems = elems + static_cast<std::size_t>(6 * s * s);
  for (auto* b : {&delv_xi_, &delv_eta_, &delv_zeta_}) {
    *b = d.alloc<Real>(all_elems);
  }
  const auto grid = static_cast<std::size_t>(
      std::min(kMaxConstraintGrid, (mesh.num_elem + kConstraintBlock - 1) / kConstraintBlock));
  mindtcourant_ = d.alloc<Real>(grid);
  mindthydro_ = d.alloc<Real>(grid);
  dt_ = filled<Real>(d, 2, 1e20);
  flags_ = filled<Index>(d, 2, -1);
  dt_host_ = d.alloc_host<Real>(2);
  flags_host_ = d.alloc_host<Index>(2);
}

void Domain::leap_frog() {
  lagrange_nodal();
  lagrange_elements();
  time_constraints();
}

const Constraints& Domain::last_constraints() {
  if (recorded_) {
    constraints_ready_.synchronize();
    seen_ = Constraints{dt_host_[0], dt_host_[1], flags_host_[0], flags_host_[1]};
  }
  return seen_;
}

void Domain::time_increment() {
  const Constraints& c = last_constraints();
  Real targetdt = params_.stoptime - time_;
  if ((params_.dtfixed <= Real(0.0)) && (cycle_ != 0)) {
    Real gnewdt = Real(1.0e+20);
    if (c.dtcourant < gnewdt) {
      gnewdt = c.dtcourant / Real(2.0);
    }
    if (c.dthydro < gnewdt) {
      gnewdt = c.dthydro * Real(2.0) / Real(3.0);
    }
    Real newdt = gnewdt;
    const Real olddt = deltatime_;
    const Real ratio = newdt / olddt;
    if (ratio >= Real(1.0)) {
      if (ratio < params_.deltatimemultlb) {
        newdt = olddt;
      } else if (ratio > params_.deltatimemultub) {
        newdt = olddt * params_.deltatimemultub;
      }
    }
    if (newdt > params_.dtmax) {
      newdt = params_.dtmax;
    }
    deltatime_ = newdt;
  }
  // Try to prevent very small scaling on the next cycle.
  if ((targetdt > deltatime_) && (targetdt < (Real(4.0) * deltatime_ / Real(3.0)))) {
    targetdt = Real(2.0) * deltatime_ / Real(3.0);
  }
  if (targetdt < deltatime_) {
    deltatime_ = targetdt;
  }
  time_ += deltatime_;
  ++cycle_;
}

void Domain::lagrange_nodal() {
  const Mesh& m = mesh_;
  // CalcVolumeForceForElems: the corners' forces, then their sum at each node.
  constexpr Index block = 64;
  k_.volume_force.launch(blocks_for(m.num_elem, block), volo_, v_, p_, q_, params_.hgcoef,
                         m.num_elem, m.padded_num_elem, nodelist_, ss_, elem_mass_, x_, y_, z_, xd_,
                         yd_, zd_, fx_elem_, fy_elem_, fz_elem_, flags_.ptr(), m.num_elem);
  k_.add_node_forces.launch(blocks_for(m.num_node, block), m.num_node, m.padded_num_node,
                            node_elem_count_, node_elem_start_, node_elem_corner_list_, fx_elem_,
                            fy_elem_, fz_elem_, fx_, fy_, fz_, m.num_node);
  // Upstream moved TimeIncrement here so that the host waits while the forces compute.
  time_increment();
  constexpr Index node_block = 128;
  k_.acceleration.launch(blocks_for(m.num_node, node_block), m.num_node, xdd_, ydd_, zdd_, fx_, fy_,
                         fz_, nodal_mass_);
  const auto symm = static_cast<Index>(m.symm_x.size());  // each plane, the domain at the origin
  k_.acceleration_bc.launch(blocks_for(symm, node_block), symm, xdd_, symm_x_);
  k_.acceleration_bc.launch(blocks_for(symm, node_block), symm, ydd_, symm_y_);
  k_.acceleration_bc.launch(blocks_for(symm, node_block), symm, zdd_, symm_z_);
  k_.position_velocity.launch(blocks_for(m.num_node, node_block), m.num_node, deltatime_,
                              params_.u_cut, x_, y_, z_, xd_, yd_, zd_, xdd_, ydd_, zdd_);
}

void Domain::lagrange_elements() {
  const Mesh& m = mesh_;
  k_.kinematics.launch(blocks_for(m.num_elem, 64), m.num_elem, m.padded_num_elem, deltatime_,
                       nodelist_, volo_, v_, x_, y_, z_, xd_, yd_, zd_, vnew_, delv_, arealg_, dxx_,
                       dyy_, dzz_, vdov_, delx_zeta_, delv_zeta_, delx_xi_, delv_xi_, delx_eta_,
                       delv_eta_, flags_.ptr(), m.num_elem);
  const Real ptiny = 1.e-36;
  const Parameters& p = params_;
  k_.monotonic_q.launch(blocks_for(m.num_elem, 128), p.qlc_monoq, p.qqc_monoq, p.monoq_limiter_mult,
                        p.monoq_max_slope, ptiny, m.num_elem, reg_elemlist_, elem_bc_, lxim_, lxip_,
                        letam_, letap_, lzetam_, lzetap_, delv_xi_, delv_eta_, delv_zeta_, delx_xi_,
                        delx_eta_, delx_zeta_, vdov_, elem_mass_, volo_, vnew_, qq_, ql_, q_,
                        p.qstop, flags_.ptr() + 1);
  k_.material.launch(blocks_for(m.num_elem, 128), m.num_elem, p.refdens, p.e_cut, p.emin, ql_, qq_,
                     vnew_, v_, p.pmin, p.p_cut, p.q_cut, p.eosvmin, p.eosvmax, reg_elemlist_, e_,
                     delv_, p_, q_, p.ss4o3, ss_, p.v_cut, flags_.ptr(), m.cost, reg_csr_,
                     reg_reps_, m.num_reg);
}

void Domain::time_constraints() {
  const Mesh& m = mesh_;
  const Real qqc2 = Real(64.0) * params_.qqc * params_.qqc;
  const auto grid = static_cast<Index>(mindthydro_.size());
  const kjit::LaunchConfig config{kjit::Dim3{static_cast<std::uint32_t>(grid), 1, 1},
                                  kjit::Dim3{static_cast<std::uint32_t>(kConstraintBlock), 1, 1}};
  k_.time_constraints.launch(config, m.num_elem, qqc2, params_.dvovmax, mat_elemlist_, ss_, vdov_,
                             arealg_, mindtcourant_, mindthydro_);
  // Two blocks of 1024: the first reduces the Courant constraints, the second the hydro ones.
  k_.min_dt.launch(
      kjit::LaunchConfig{kjit::Dim3{2, 1, 1},
                         kjit::Dim3{static_cast<std::uint32_t>(kMaxConstraintGrid), 1, 1},
                         kMaxConstraintGrid * sizeof(Real)},
      mindthydro_, mindtcourant_, dt_.ptr(), dt_.ptr() + 1, grid);
  const kjit::Stream stream = device_.default_stream();
  dt_.download(std::span<Real>(dt_host_.data(), 2), stream);
  flags_.download(std::span<Index>(flags_host_.data(), 2), stream);
  constraints_ready_ = stream.record();
  recorded_ = true;
}

}  // namespace lulesh
