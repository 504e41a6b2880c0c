// SPDX-License-Identifier: GPL-2.0-only
// sw4ck (SW4's curvilinear kernels, as Proteus benchmarks them) on kjit: the host code of
// upstream/main.cu and upstream/curvilinear4sg.cu's curvilinear4sg_ci written on kjit's API, the
// kernel file (upstream/curvilinear4sg.cu, which includes kernel1.cpp to kernel5.cpp) loaded as
// shipped. Same input file, same launches, same report lines; --specialise defines ENABLE_JIT,
// which turns on the kernels' Proteus annotations (the bounds, a1 and sgn): kjit then runs each
// kernel's variant for those values. --out writes a_Uacc of both data sets after the last repeat
// for comparison with the nvcc build's; --wait-for-variant makes launches wait for their variant
// (CompileOptions::launch_waits_for_variants), so that a check of --specialise checks the variants;
// --expect FILE compares a_Uacc with what another build wrote (kRelative says within what).
// GPL-2.0-only, as the program it follows (this folder's LICENSE.md).
#include <kjit/kjit.hpp>

#include "../expected_output.h"

#include "sw4ck_input.h"

#include <array>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <string>
#include <vector>

namespace {

int usage(const char* self) {
  std::fprintf(stderr,
               "usage: %s <input file> <repeat> [--specialise] [--wait-for-variant] [--out FILE] "
               "[--expect FILE]\n",
               self);
  return 2;
}

// --expect wants every value within a relative 1e-12, or by 1e-300 at most: a variant folds a1 =
// 1 and sgn = -1, after which the compiler contracts other products and sums into fused
// multiply-adds (last bits), and a host build need not contract where the GPU and kjit's CPU
// backend do.
constexpr double kRelative = 1e-12;
constexpr double kAbsolute = 1e-300;

using Ptr = kjit::DevicePtr<const double>;
using In = const double*;
// kernel1 to kernel4: the bounds of the points (6), of the arrays (6), a1 and sgn, then the
// arrays (a_lu, the one written, sixth); kernel5 takes nk after the arrays' bounds.
using Kernel14 = kjit::Kernel<int, int, int, int, int, int, int, int, int, int, int, int, double,
                              double, In, In, In, In, In, double*, In, In, In, In, In, In, In>;
using Kernel15 =
    kjit::Kernel<int, int, int, int, int, int, int, int, int, int, int, int, int, double, double,
                 In, In, In, In, In, double*, In, In, In, In, In, In, In>;

/// `name` of `program` on `device`, typed as `into` is.
template <class... P>
void take(const kjit::Program& program, const std::string& name, const kjit::Device& device,
          kjit::Kernel<P...>& into) {
  into = program.kernel<P...>(name, device);
}

}  // namespace

int main(int argc, char* argv[]) {
  if (argc < 3) {
    return usage(argv[0]);
  }
  const std::string input = argv[1];
  const int repeat = std::atoi(argv[2]);
  bool specialise = false;
  bool wait_for_variant = false;
  std::string out;
  std::string expect;
  for (int i = 3; i < argc; ++i) {
    if (std::strcmp(argv[i], "--specialise") == 0) {
      specialise = true;
    } else if (std::strcmp(argv[i], "--wait-for-variant") == 0) {
      wait_for_variant = true;
    } else if (std::strcmp(argv[i], "--out") == 0 && i + 1 < argc) {
      out = argv[++i];
    } else if (std::strcmp(argv[i], "--expect") == 0 && i + 1 < argc) {
      expect = argv[++i];
    } else {
      return usage(argv[0]);
    }
  }
  if (repeat <= 0) {
    return usage(argv[0]);
  }
  try {
    const kjit::Device device = kjit::Device::select();
    kjit::CompileOptions options;  // upstream builds with -O3, no fast math
    // The five kernels in one compile, at the first kernel() call (else one compile each).
    options.kernels = {"kernel1", "kernel2", "kernel3", "kernel4", "kernel5"};
    if (specialise) {
      // The kernels' annotate("jit", 1, ..., 14) (kernel5: 15), which upstream puts behind
      // ENABLE_JIT: each launch runs the variant for the bounds, a1 and sgn.
      options.defines["ENABLE_JIT"] = "";
    }
    options.launch_waits_for_variants = wait_for_variant;
    const kjit::Program program = kjit::Program::from_file(KJIT_SW4CK_KERNEL_FILE, options);
    std::array<Kernel14, 4> kernels14{};
    for (std::size_t k = 0; k < kernels14.size(); k++) {
      take(program, "kernel" + std::to_string(k + 1), device, kernels14[k]);
    }
    Kernel15 kernel5;
    take(program, "kernel5", device, kernel5);

    std::cout << "Reading from file " << input << "\n";
    std::vector<sw4ck::Case> cases = sw4ck::read_input(input);
    const auto cof = device.upload(sw4ck::coefficients());
    const Ptr acof_no_gp = cof.ptr() + sw4ck::kAcofNoGp;
    const Ptr bope = cof.ptr() + sw4ck::kBope;
    const Ptr ghcof_no_gp = cof.ptr() + sw4ck::kGhcofNoGp;
    // curvilinear4sg_ci's op is '-': a1 = 1, sgn = -1.
    const double a1 = 1;
    const double sgn = -1;

    std::vector<double> outputs;  // a_Uacc of both data sets
    double later_ms = 0;          // the kernels of a repeat after the first, both data sets
    double upload_ms = 0;         // the uploads of a_Uacc before each repeat
    for (std::size_t i = 0; i < 2; i++) {
      sw4ck::Case& c = cases[i];
      const auto alpha = device.upload(c.at("a_AlphaVE_0").data);
      const auto mu = device.upload(c.at("mMuVE_0").data);
      const auto lambda = device.upload(c.at("mLambdaVE_0").data);
      const auto met = device.upload(c.at("mMetric").data);
      const auto jac = device.upload(c.at("mJ").data);
      sw4ck::Array& uacc_host = c.at("a_Uacc");
      kjit::DeviceBuffer<double> uacc = device.alloc<double>(uacc_host.count());
      const auto strides = device.upload(sw4ck::stretching(c));
      const Ptr strx = strides.ptr();
      const Ptr stry = strides.ptr() + sw4ck::stretching_y(c);
      const auto& o = c.onesided;
      const std::vector<sw4ck::Launch> launches = sw4ck::launches(c);

      sw4ck::RepeatTimes times;
      for (int p = 0; p < repeat; p++) {
        const auto copy = std::chrono::steady_clock::now();
        uacc.upload(uacc_host.data);
        device.synchronize();
        const auto start = std::chrono::steady_clock::now();
        upload_ms += std::chrono::duration<double, std::milli>(start - copy).count();
        for (const sw4ck::Launch& l : launches) {
          const kjit::LaunchConfig config{kjit::Dim3{static_cast<std::uint32_t>(l.grid[0]),
                                                     static_cast<std::uint32_t>(l.grid[1]),
                                                     static_cast<std::uint32_t>(l.grid[2])},
                                          kjit::Dim3{static_cast<std::uint32_t>(l.block[0]),
                                                     static_cast<std::uint32_t>(l.block[1]),
                                                     static_cast<std::uint32_t>(l.block[2])}};
          const auto& r = l.range;
          if (l.kernel == 5) {
            kernel5.launch(config, r[0], r[1], r[2], r[3], r[4], r[5], o[6], o[7], o[8], o[9],
                           o[10], o[11], o[12], a1, sgn, alpha.ptr(), mu.ptr(), lambda.ptr(),
                           met.ptr(), jac.ptr(), uacc.ptr(), acof_no_gp, bope, ghcof_no_gp,
                           acof_no_gp, ghcof_no_gp, strx, stry);
          } else {
            kernels14[static_cast<std::size_t>(l.kernel - 1)].launch(
                config, r[0], r[1], r[2], r[3], r[4], r[5], o[6], o[7], o[8], o[9], o[10], o[11],
                a1, sgn, alpha.ptr(), mu.ptr(), lambda.ptr(), met.ptr(), jac.ptr(), uacc.ptr(),
                acof_no_gp, bope, ghcof_no_gp, acof_no_gp, ghcof_no_gp, strx, stry);
          }
        }
        device.synchronize();
        times.stop(start);
      }
      later_ms += times.later_ms();
      times.report();
      uacc.download(std::span<double>(uacc_host.data));
      std::cout << "Error = " << sw4ck::error_percent(i, uacc_host) << " %\n";
      if (!out.empty() || !expect.empty()) {
        outputs.insert(outputs.end(), uacc_host.data.begin(), uacc_host.data.end());
      }
    }
    // Upstream's lines average every repeat, the first included; this one leaves it out.
    std::printf("Average kernel execution time %f (ms)\n", later_ms);
    std::printf("Uploads of a_Uacc %f (ms in all)\n", upload_ms);
    if (!out.empty()) {
      programs::write_values(out, outputs);
    }
    if (!expect.empty()) {
      return programs::check_expected(expect, outputs, kRelative, kAbsolute);
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 1;
  }
  return 0;
}
