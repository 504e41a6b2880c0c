// LULESH (LLNL's shock hydrodynamics proxy, as Proteus benchmarks it) on kjit: upstream/lulesh.cu's
// host program, main and VerifyAndWriteFinalOutput, written on kjit's API, the kernel file loaded
// as shipped (lulesh_kernels.cpp); the mesh is built on the host as upstream builds it
// (lulesh_mesh.cpp) and each cycle launches what upstream's does (lulesh_leapfrog.cpp). One domain
// of the structured mesh (-s), as upstream without MPI. Same report lines, less the used memory;
// options:
//   -s N  elements along an edge (upstream's -s)
//   -i N  at most N cycles (upstream's fourth argument; LULESH 2.0.3's -i)
//   -r N, -b N, -c N  regions, their balance and the costlier ones' cost (upstream fixes 11, 1,
//         1; LULESH 2.0.3's options)
//   -q    no start-up lines
//   --specialise        defines ENABLE_JIT, which turns on the kernels' Proteus annotations
//   --wait-for-variant  launches wait for their variant (a check of --specialise checks them)
//   --out FILE          writes e (the elements' energies), then x, y and z of the nodes
//   --expect FILE       compares those with what another build wrote (kRelative, kAbsolute)
// main, check_errors and report are ported from upstream's main, checkErrors and
// VerifyAndWriteFinalOutput, whose notice follows; the options' parsing and --out/--expect are
// kjit's own.
// Copyright (c) 2010. Lawrence Livermore National Security, LLC. Produced at the Lawrence
// Livermore National Laboratory. LLNL-CODE-461231. All rights reserved. Redistribution and use,
// with or without modification, under the conditions and with the disclaimers of LULESH's notice,
// which this folder's LICENSE holds in full.
#include <kjit/kjit.hpp>

#include "../expected_output.h"

#include "lulesh_kernels.h"
#include "lulesh_leapfrog.h"
#include "lulesh_mesh.h"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <string>
#include <vector>

namespace {

using lulesh::Index;
using lulesh::Real;

int usage(const char* self) {
  std::printf(
      "Usage: %s -s numEdgeElems [-i iterations] [-r regions] [-b balance] [-c cost] "
      "[-q] [--specialise] [--wait-for-variant] [--out FILE] [--expect "
      "FILE]\n",
      self);
  return -3;  // upstream's LFileError
}

// --expect wants every value within a relative 1e-9, or by 1e-9 at most (energies under e_cut,
// 1e-7, are flushed to 0 by the kernels): a variant folds the sizes, after which the compiler may
// contract other products and sums, and another compiler's build (nvcc's) need not contract as
// NVRTC does; the differences grow over the cycles.
constexpr double kRelative = 1e-9;
constexpr double kAbsolute = 1e-9;

struct Options {
  Index size = 0;
  int iterations = -1;
  Index regions = 11;
  Index balance = 1;
  Index cost = 1;
  bool quiet = false;
  bool specialise = false;
  bool wait_for_variant = false;
  std::string out;
  std::string expect;
};

bool parse(int argc, char* argv[], Options& o) {
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    const bool has_value = i + 1 < argc;
    if (a == "-s" && has_value) {
      o.size = std::atoi(argv[++i]);
    } else if (a == "-i" && has_value) {
      o.iterations = std::atoi(argv[++i]);
    } else if (a == "-r" && has_value) {
      o.regions = std::atoi(argv[++i]);
    } else if (a == "-b" && has_value) {
      o.balance = std::atoi(argv[++i]);
    } else if (a == "-c" && has_value) {
      o.cost = std::atoi(argv[++i]);
    } else if (a == "-q") {
      o.quiet = true;
    } else if (a == "--specialise") {
      o.specialise = true;
    } else if (a == "--wait-for-variant") {
      o.wait_for_variant = true;
    } else if (a == "--out" && has_value) {
      o.out = argv[++i];
    } else if (a == "--expect" && has_value) {
      o.expect = argv[++i];
    } else {
      return false;  // -u (the unstructured mesh, unverified upstream) is not ported
    }
  }
  return o.size > 0;
}

/// Upstream's checkErrors: exits as upstream does on a negative volume or an excessive q.
void check_errors(const lulesh::Constraints& c, int its) {
  if (c.bad_vol != -1) {
    std::printf("Rank 0: Volume Error in cell %d at iteration %d\n", c.bad_vol, its);
    std::exit(-1);  // upstream's VolumeError
  }
  if (c.bad_q != -1) {
    std::printf("Rank 0: Q Error in cell %d at iteration %d\n", c.bad_q, its);
    std::exit(-2);  // upstream's QStopError
  }
}

/// VerifyAndWriteFinalOutput, less the used memory and xyz.asc.
void report(double elapsed, int its, Index nx, const std::vector<Real>& e) {
  const double grind = ((elapsed * 1e6) / its) / (nx * nx * nx);
  std::printf("Run completed:  \n");
  std::printf("   Problem size        =  %i \n", nx);
  std::printf("   MPI tasks           =  %i \n", 1);
  std::printf("   Iteration count     =  %i \n", its);
  std::printf("   Final Origin Energy = %12.6e \n", e[0]);
  Real max_abs_diff = 0;
  Real total_abs_diff = 0;
  Real max_rel_diff = 0;
  for (Index j = 0; j < nx; ++j) {
    for (Index k = j + 1; k < nx; ++k) {
      const Index jk = j * nx + k;
      const Index kj = k * nx + j;
      const Real a = e[static_cast<std::size_t>(jk)];
      const Real b = e[static_cast<std::size_t>(kj)];
      const Real abs_diff = std::fabs(a - b);
      total_abs_diff += abs_diff;
      max_abs_diff = std::max(max_abs_diff, abs_diff);
      max_rel_diff = std::max(max_rel_diff, abs_diff / b);
    }
  }
  std::printf("   Testing Plane 0 of Energy Array on rank 0:\n");
  std::printf("        MaxAbsDiff   = %12.6e\n", max_abs_diff);
  std::printf("        TotalAbsDiff = %12.6e\n", total_abs_diff);
  std::printf("        MaxRelDiff   = %12.6e\n\n", max_rel_diff);
  std::printf("\nElapsed time         = %10.2f (s)\n", elapsed);
  std::printf("Grind time (us/z/c)  = %10.8g (per dom)  (%10.8g overall)\n", grind, grind);
  std::printf("FOM                  = %10.8g (z/s)\n\n", 1000.0 / grind);
}

}  // namespace

int main(int argc, char* argv[]) {
  Options o;
  if (!parse(argc, argv, o)) {
    return usage(argv[0]);
  }
  try {
    const kjit::Device device = kjit::Device::select();
    if (!o.quiet) {
      std::printf("Using %s\n", device.info().name.c_str());
    }
    const kjit::Program program =
        lulesh::load_program(KJIT_LULESH_KERNEL_FILE, o.specialise, o.wait_for_variant);
    const lulesh::Mesh mesh = lulesh::build_mesh(o.size, o.regions, o.balance, o.cost);
    lulesh::Domain domain(device, mesh, lulesh::load_kernels(program, device));
    device.synchronize();
    if (!o.quiet) {
      std::printf("Running until t=%f, Problem size=%dx%dx%d\n", domain.stoptime(), o.size, o.size,
                  o.size);
    }
    const auto start = std::chrono::steady_clock::now();
    int its = 0;
    while (domain.time() < domain.stoptime()) {
      domain.leap_frog();
      check_errors(domain.seen(), its);
      its++;
      if (its == o.iterations) {
        break;
      }
    }
    device.synchronize();
    const double elapsed =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    check_errors(domain.last_constraints(), its);
    const std::vector<Real> e = domain.energy().download();
    report(elapsed, its, o.size, e);
    // The time loop per cycle: its ten launches, the host's time step and the copy back.
    std::printf("Average kernel execution time %f (ms)\n", elapsed * 1e3 / its);
    if (!o.out.empty() || !o.expect.empty()) {
      std::vector<Real> outputs = e;
      for (auto* b : {&domain.x(), &domain.y(), &domain.z()}) {
        const std::vector<Real> v = b->download();
        outputs.insert(outputs.end(), v.begin(), v.end());
      }
      if (!o.out.empty()) {
        programs::write_values(o.out, outputs);
      }
      if (!o.expect.empty()) {
        return programs::check_expected(o.expect, outputs, kRelative, kAbsolute);
      }
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 1;
  }
  return 0;
}
