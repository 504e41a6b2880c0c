// LULESH's problem set up on the host: upstream/lulesh.cu's NewDomain for one domain of the
// structured mesh (BuildMesh, SetupConnectivityBC, the symmetry nodesets, the node-to-corner
// lists, the masses, CreateRegionIndexSets and sortRegions), from thrust vectors to std::vectors;
// the MPI ghost offsets and the unstructured mesh reader are left out (one domain, -s only).
// Ported from upstream's code, whose notice follows.
// Copyright (c) 2010. Lawrence Livermore National Security, LLC. Produced at the Lawrence
// Livermore National Laboratory. LLNL-CODE-461231. All rights reserved. Redistribution and use,
// with or without modification, under the conditions and with the disclaimers of LULESH's notice,
// which this folder's LICENSE holds in full.
#include "lulesh_mesh.h"

#include <cmath>
#include <cstdlib>
#include <stdexcept>
#include <utility>

namespace lulesh {
namespace {

// The face flags of upstream's elemBC (lulesh.cu's XI_M_SYMM ... ZETA_P_FREE).
constexpr Index kXiMSymm = 0x00001;
constexpr Index kXiPFree = 0x00010;
constexpr Index kEtaMSymm = 0x00040;
constexpr Index kEtaPFree = 0x00400;
constexpr Index kZetaMSymm = 0x01000;
constexpr Index kZetaPFree = 0x10000;

/// An index as a vector's subscript.
constexpr std::size_t u(Index i) {
  return static_cast<std::size_t>(i);
}

Index padded(Index n, Index align) {
  return (n + align - 1) / align * align;
}

// Upstream's CalcElemVolume (host and device there), for the reference volumes.
Real triple_product(Real x1, Real y1, Real z1, Real x2, Real y2, Real z2, Real x3, Real y3,
                    Real z3) {
  return x1 * (y2 * z3 - z2 * y3) + x2 * (z1 * y3 - y1 * z3) + x3 * (y1 * z2 - z1 * y2);
}

Real elem_volume(const Real x[8], const Real y[8], const Real z[8]) {
  const Real twelveth = Real(1.0) / Real(12.0);
  const Real dx61 = x[6] - x[1], dy61 = y[6] - y[1], dz61 = z[6] - z[1];
  const Real dx70 = x[7] - x[0], dy70 = y[7] - y[0], dz70 = z[7] - z[0];
  const Real dx63 = x[6] - x[3], dy63 = y[6] - y[3], dz63 = z[6] - z[3];
  const Real dx20 = x[2] - x[0], dy20 = y[2] - y[0], dz20 = z[2] - z[0];
  const Real dx50 = x[5] - x[0], dy50 = y[5] - y[0], dz50 = z[5] - z[0];
  const Real dx64 = x[6] - x[4], dy64 = y[6] - y[4], dz64 = z[6] - z[4];
  const Real dx31 = x[3] - x[1], dy31 = y[3] - y[1], dz31 = z[3] - z[1];
  const Real dx72 = x[7] - x[2], dy72 = y[7] - y[2], dz72 = z[7] - z[2];
  const Real dx43 = x[4] - x[3], dy43 = y[4] - y[3], dz43 = z[4] - z[3];
  const Real dx57 = x[5] - x[7], dy57 = y[5] - y[7], dz57 = z[5] - z[7];
  const Real dx14 = x[1] - x[4], dy14 = y[1] - y[4], dz14 = z[1] - z[4];
  const Real dx25 = x[2] - x[5], dy25 = y[2] - y[5], dz25 = z[2] - z[5];
  Real volume =
      triple_product(dx31 + dx72, dx63, dx20, dy31 + dy72, dy63, dy20, dz31 + dz72, dz63, dz20) +
      triple_product(dx43 + dx57, dx64, dx70, dy43 + dy57, dy64, dy70, dz43 + dz57, dz64, dz70) +
      triple_product(dx14 + dx25, dx61, dx50, dy14 + dy25, dy61, dy50, dz14 + dz25, dz61, dz50);
  volume *= twelveth;
  return volume;
}

// BuildMesh: the nodal lattice and the elements' corners in it.
void build_lattice(Mesh& m) {
  const Index edge_elems = m.size;
  const Index edge_nodes = edge_elems + 1;
  m.x.resize(u(m.num_node));
  m.y.resize(m.x.size());
  m.z.resize(m.x.size());
  std::size_t nidx = 0;
  Real tz = 0;
  for (Index plane = 0; plane < edge_nodes; ++plane) {
    Real ty = 0;
    for (Index row = 0; row < edge_nodes; ++row) {
      Real tx = 0;
      for (Index col = 0; col < edge_nodes; ++col) {
        m.x[nidx] = tx;
        m.y[nidx] = ty;
        m.z[nidx] = tz;
        ++nidx;
        tx = Real(1.125) * Real(col + 1) / Real(edge_elems);
      }
      ty = Real(1.125) * Real(row + 1) / Real(edge_elems);
    }
    tz = Real(1.125) * Real(plane + 1) / Real(edge_elems);
  }
  const Index pad = m.padded_num_elem;
  m.nodelist.assign(u(pad) * 8, 0);
  Index zidx = 0;
  Index n = 0;
  for (Index plane = 0; plane < edge_elems; ++plane) {
    for (Index row = 0; row < edge_elems; ++row) {
      for (Index col = 0; col < edge_elems; ++col) {
        const Index corners[8] = {n,
                                  n + 1,
                                  n + edge_nodes + 1,
                                  n + edge_nodes,
                                  n + edge_nodes * edge_nodes,
                                  n + edge_nodes * edge_nodes + 1,
                                  n + edge_nodes * edge_nodes + edge_nodes + 1,
                                  n + edge_nodes * edge_nodes + edge_nodes};
        for (Index c = 0; c < 8; ++c) {
          m.nodelist[u(c * pad + zidx)] = corners[c];
        }
        ++zidx;
        ++n;
      }
      ++n;
    }
    n += edge_nodes;
  }
}

// The nodes of the three symmetry planes (the domain sits at the origin).
void build_symmetry_planes(Mesh& m) {
  const Index edge_nodes = m.size + 1;
  const auto count = u(edge_nodes * edge_nodes);
  m.symm_x.resize(count);
  m.symm_y.resize(count);
  m.symm_z.resize(count);
  std::size_t nidx = 0;
  for (Index i = 0; i < edge_nodes; ++i) {
    const Index plane_inc = i * edge_nodes * edge_nodes;
    const Index row_inc = i * edge_nodes;
    for (Index j = 0; j < edge_nodes; ++j) {
      m.symm_z[nidx] = row_inc + j;
      m.symm_y[nidx] = plane_inc + j;
      m.symm_x[nidx] = plane_inc + j * edge_nodes;
      ++nidx;
    }
  }
}

// SetupConnectivityBC for a domain with no neighbours: symmetry planes at the low faces, free
// surfaces at the high ones.
void build_connectivity(Mesh& m) {
  const Index n = m.num_elem;
  const Index edge = m.size;
  const auto count = u(n);
  for (auto* v : {&m.lxim, &m.lxip, &m.letam, &m.letap, &m.lzetam, &m.lzetap, &m.elem_bc}) {
    v->assign(count, 0);
  }
  auto at = [](std::vector<Index>& v, Index i) -> Index& { return v[u(i)]; };
  at(m.lxim, 0) = 0;
  for (Index i = 1; i < n; ++i) {
    at(m.lxim, i) = i - 1;
    at(m.lxip, i - 1) = i;
  }
  at(m.lxip, n - 1) = n - 1;
  for (Index i = 0; i < edge; ++i) {
    at(m.letam, i) = i;
    at(m.letap, n - edge + i) = n - edge + i;
  }
  for (Index i = edge; i < n; ++i) {
    at(m.letam, i) = i - edge;
    at(m.letap, i - edge) = i;
  }
  for (Index i = 0; i < edge * edge; ++i) {
    at(m.lzetam, i) = i;
    at(m.lzetap, n - edge * edge + i) = n - edge * edge + i;
  }
  for (Index i = edge * edge; i < n; ++i) {
    at(m.lzetam, i) = i - edge * edge;
    at(m.lzetap, i - edge * edge) = i;
  }
  for (Index i = 0; i < edge; ++i) {
    const Index plane_inc = i * edge * edge;
    const Index row_inc = i * edge;
    for (Index j = 0; j < edge; ++j) {
      at(m.elem_bc, row_inc + j) |= kZetaMSymm;
      at(m.elem_bc, row_inc + j + n - edge * edge) |= kZetaPFree;
      at(m.elem_bc, plane_inc + j) |= kEtaMSymm;
      at(m.elem_bc, plane_inc + j + edge * edge - edge) |= kEtaPFree;
      at(m.elem_bc, plane_inc + j * edge) |= kXiMSymm;
      at(m.elem_bc, plane_inc + j * edge + edge - 1) |= kXiPFree;
    }
  }
}

// The corners that meet at each node, for the gather of the elements' forces.
void build_node_corners(Mesh& m) {
  const auto nodes = u(m.num_node);
  const Index pad = m.padded_num_elem;
  m.node_elem_count.assign(nodes, 0);
  for (Index i = 0; i < m.num_elem; ++i) {
    for (Index j = 0; j < 8; ++j) {
      ++m.node_elem_count[u(m.nodelist[u(j * pad + i)])];
    }
  }
  m.node_elem_start.assign(nodes, 0);
  for (std::size_t i = 1; i < nodes; ++i) {
    m.node_elem_start[i] = m.node_elem_start[i - 1] + m.node_elem_count[i - 1];
  }
  m.node_elem_corner_list.assign(u(m.node_elem_start[nodes - 1] + m.node_elem_count[nodes - 1]), 0);
  std::vector<Index> filled(nodes, 0);
  for (Index j = 0; j < 8; ++j) {
    for (Index i = 0; i < m.num_elem; ++i) {
      const auto node = u(m.nodelist[u(pad * j + i)]);
      m.node_elem_corner_list[u(m.node_elem_start[node] + filled[node])] = pad * j + i;
      ++filled[node];
    }
  }
}

// The reference volumes, the elements' and nodes' masses.
void build_masses(Mesh& m) {
  const Index pad = m.padded_num_elem;
  m.nodal_mass.assign(u(m.num_node), 0);
  m.volo.resize(u(m.num_elem));
  for (Index i = 0; i < m.num_elem; ++i) {
    Real xl[8], yl[8], zl[8];
    for (Index c = 0; c < 8; ++c) {
      const auto node = u(m.nodelist[u(c * pad + i)]);
      xl[c] = m.x[node];
      yl[c] = m.y[node];
      zl[c] = m.z[node];
    }
    const Real volume = elem_volume(xl, yl, zl);
    m.volo[u(i)] = volume;
    for (Index c = 0; c < 8; ++c) {
      m.nodal_mass[u(m.nodelist[u(c * pad + i)])] += volume / Real(8.0);
    }
  }
  m.elem_mass = m.volo;
}

Index power(Index x, Index y) {
  Index res = 1;
  for (Index i = 0; i < y; i++) {
    res *= x;
  }
  return res;
}

// CreateRegionIndexSets' random runs of elements: each element's region number (1-based).
std::vector<Index> draw_regions(Index num_elem, Index num_reg, Index balance) {
  std::srand(0);
  std::vector<Index> reg_num_list(u(num_elem), 1);
  if (num_reg == 1) {
    return reg_num_list;
  }
  std::vector<Index> bin_end(u(num_reg));
  Index cost_denominator = 0;
  for (Index i = 0; i < num_reg; ++i) {
    cost_denominator += power(i + 1, balance);
    bin_end[u(i)] = cost_denominator;
  }
  auto pick = [&] {
    const Index var = std::rand() % cost_denominator;
    Index i = 0;
    while (var >= bin_end[u(i)]) {
      i++;
    }
    return (i % num_reg) + 1;
  };
  Index next = 0;
  Index last = -1;
  while (next < num_elem) {
    Index region = pick();
    while (region == last) {
      region = pick();
    }
    const Index bin = std::rand() % 1000;
    Index elements = 0;
    if (bin < 773) {
      elements = std::rand() % 15 + 1;
    } else if (bin < 937) {
      elements = std::rand() % 16 + 16;
    } else if (bin < 970) {
      elements = std::rand() % 32 + 32;
    } else if (bin < 974) {
      elements = std::rand() % 64 + 64;
    } else if (bin < 978) {
      elements = std::rand() % 128 + 128;
    } else if (bin < 981) {
      elements = std::rand() % 256 + 256;
    } else {
      elements = std::rand() % 1537 + 512;
    }
    const Index run_to = elements + next;
    while (next < run_to && next < num_elem) {
      reg_num_list[u(next++)] = region;
    }
    last = region;
  }
  return reg_num_list;
}

// The rest of CreateRegionIndexSets and sortRegions: repetitions per region, regions sorted by
// them (a bubble sort, as upstream's, so that ties keep upstream's order), the index sets.
void build_regions(Mesh& m, Index balance) {
  const auto nr = u(m.num_reg);
  m.reg_num_list = draw_regions(m.num_elem, m.num_reg, balance);
  std::vector<Index> size(nr, 0);
  for (const Index r : m.reg_num_list) {
    size[u(r - 1)]++;
  }
  m.reg_reps.resize(nr);
  for (Index r = 0; r < m.num_reg; ++r) {
    Index rep = 10 * (1 + m.cost);
    if (r < m.num_reg / 2) {
      rep = 1;
    } else if (r < (m.num_reg - (m.num_reg + 15) / 20)) {
      rep = 1 + m.cost;
    }
    m.reg_reps[u(r)] = rep;
  }
  std::vector<Index> index(nr);
  for (std::size_t i = 0; i < nr; i++) {
    index[i] = static_cast<Index>(i);
  }
  for (std::size_t i = 0; i + 1 < nr; i++) {
    for (std::size_t j = 0; j + i + 1 < nr; j++) {
      if (m.reg_reps[j] < m.reg_reps[j + 1]) {
        std::swap(m.reg_reps[j], m.reg_reps[j + 1]);
        std::swap(size[j], size[j + 1]);
        std::swap(index[j], index[j + 1]);
      }
    }
  }
  m.reg_sorted.resize(nr);
  for (std::size_t i = 0; i < nr; i++) {
    m.reg_sorted[u(index[i])] = static_cast<Index>(i);
  }
  m.reg_csr.assign(nr, 0);
  for (std::size_t i = 1; i < nr; ++i) {
    m.reg_csr[i] = m.reg_csr[i - 1] + size[i - 1];
  }
  m.reg_elemlist.resize(u(m.num_elem));
  for (Index i = 0; i < m.num_elem; ++i) {
    const auto r = u(m.reg_sorted[u(m.reg_num_list[u(i)] - 1)]);
    m.reg_elemlist[u(m.reg_csr[r]++)] = i;
  }
}

}  // namespace

Mesh build_mesh(Index size, Index regions, Index balance, Index cost) {
  if (size < 1 || regions < 1 || balance < 0 || cost < 0) {
    throw std::invalid_argument("lulesh: -s and -r need a positive number, -b and -c one >= 0");
  }
  Mesh m;
  m.size = size;
  m.num_elem = size * size * size;
  m.padded_num_elem = padded(m.num_elem, 32);
  m.num_node = (size + 1) * (size + 1) * (size + 1);
  m.padded_num_node = padded(m.num_node, 32);
  build_lattice(m);
  build_symmetry_planes(m);
  build_connectivity(m);
  build_node_corners(m);
  m.mat_elemlist.resize(u(m.num_elem));
  for (Index i = 0; i < m.num_elem; ++i) {
    m.mat_elemlist[u(i)] = i;
  }
  build_masses(m);
  // An energy of 3.948746e+7 is right for 45 elements a side: scaled to the mesh, deposited in
  // the origin's element.
  const Real ebase = 3.948746e+7;
  const Real scale = size / 45.0;
  const Real einit = ebase * scale * scale * scale;
  m.e.assign(u(m.num_elem), 0);
  m.e[0] = einit;
  m.initial_dt = (.5 * std::cbrt(m.volo[0])) / std::sqrt(2 * einit);
  m.num_reg = regions;
  m.cost = cost;
  build_regions(m, balance);
  return m;
}

}  // namespace lulesh
