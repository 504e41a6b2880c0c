// LULESH's problem set up on the host (one domain, the structured mesh of upstream/lulesh.cu's
// NewDomain): coordinates, connectivity, boundary conditions, symmetry planes, the node-to-corner
// lists, masses, the initial energy and time step, and the region index sets. The code follows
// upstream's NewDomain, BuildMesh, SetupConnectivityBC and CreateRegionIndexSets (LLNL's BSD-style
// notice, in lulesh_mesh.cpp); the arrays are std::vectors here instead of thrust vectors on the
// device.
#ifndef KJIT_PROGRAMS_LULESH_MESH_H
#define KJIT_PROGRAMS_LULESH_MESH_H

#include <vector>

namespace lulesh {

using Real = double;  // upstream's lulesh.h defines DOUBLE_PRECISION
using Index = int;

/// One domain's mesh and initial state, as upstream's NewDomain leaves them for the device.
struct Mesh {
  Index size = 0;  // elements along an edge (-s)
  Index num_elem = 0;
  Index padded_num_elem = 0;  // num_elem rounded up to 32
  Index num_node = 0;
  Index padded_num_node = 0;
  std::vector<Real> x, y, z;    // nodal coordinates
  std::vector<Index> nodelist;  // 8 corners x padded_num_elem, corner-major
  std::vector<Index> lxim, lxip, letam, letap, lzetam, lzetap;  // neighbours through faces
  std::vector<Index> elem_bc;                 // face flags: symmetry plane or free surface
  std::vector<Index> symm_x, symm_y, symm_z;  // nodes on the symmetry planes
  std::vector<Index> node_elem_count, node_elem_start, node_elem_corner_list;
  std::vector<Index> mat_elemlist;  // 0 .. num_elem - 1
  std::vector<Real> nodal_mass, volo, elem_mass;
  std::vector<Real> e;  // energy: einit in the origin's element, else 0
  Real initial_dt = 0;  // upstream's analytic CFL estimate
  // Region index sets (-r, -b, -c).
  Index num_reg = 0;
  Index cost = 0;
  std::vector<Index> reg_csr;  // each region's end in reg_elemlist, after the fill
  std::vector<Index> reg_reps;
  std::vector<Index> reg_num_list;
  std::vector<Index> reg_elemlist;
  std::vector<Index> reg_sorted;
};

/// The mesh of `size`^3 elements with `regions` regions, balanced by `balance`, the costlier ones
/// costing `cost` more (upstream: 11, 1, 1). Regions are drawn with rand() after srand(0).
Mesh build_mesh(Index size, Index regions, Index balance, Index cost);

}  // namespace lulesh

#endif
