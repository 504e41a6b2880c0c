// SPDX-License-Identifier: GPL-2.0-only
// sw4ck's output build for comparison: upstream/main.cu's runs (the input, the coefficients and
// upstream/curvilinear4sg.cu's curvilinear4sg_ci, built by nvcc as shipped), writing a_Uacc of
// both data sets after the last repeat to a file and printing upstream's error lines, and how long
// the copies of a_Uacc before each repeat took.
//   nvcc_sw4ck <input file> <repeat> <output file>
// GPL-2.0-only, as the program it follows (this folder's LICENSE.md).
#include "upstream/utils.h"

#include "sw4ck_input.h"

#include <cuda_runtime.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

namespace {

void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) {
    std::fprintf(stderr, "%s: %s\n", what, cudaGetErrorString(e));
    std::exit(1);
  }
}

double* upload(const std::vector<double>& host) {
  double* device = nullptr;
  check(cudaMalloc(reinterpret_cast<void**>(&device), host.size() * sizeof(double)), "cudaMalloc");
  check(cudaMemcpy(device, host.data(), host.size() * sizeof(double), cudaMemcpyHostToDevice),
        "cudaMemcpy");
  return device;
}

}  // namespace

int main(int argc, char* argv[]) {
  if (argc != 4) {
    std::fprintf(stderr, "usage: %s <input file> <repeat> <output file>\n", argv[0]);
    return 2;
  }
  const int repeat = std::atoi(argv[2]);
  std::vector<sw4ck::Case> cases = sw4ck::read_input(argv[1]);
  double* cof = upload(sw4ck::coefficients());
  std::ofstream out(argv[3], std::ios::binary);
  double upload_ms = 0;  // upstream's cudaMemcpy of a_Uacc before each repeat
  for (std::size_t i = 0; i < 2; i++) {
    sw4ck::Case& c = cases[i];
    double* alpha = upload(c.at("a_AlphaVE_0").data);
    double* mu = upload(c.at("mMuVE_0").data);
    double* lambda = upload(c.at("mLambdaVE_0").data);
    double* met = upload(c.at("mMetric").data);
    double* jac = upload(c.at("mJ").data);
    std::vector<double>& uacc_host = c.at("a_Uacc").data;
    double* uacc = upload(uacc_host);
    double* strides = upload(sw4ck::stretching(c));
    for (int p = 0; p < repeat; p++) {
      const auto copy = std::chrono::steady_clock::now();
      check(cudaMemcpy(uacc, uacc_host.data(), uacc_host.size() * sizeof(double),
                       cudaMemcpyHostToDevice),
            "cudaMemcpy");
      upload_ms +=
          std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - copy)
              .count();
      curvilinear4sg_ci(c.onesided[6], c.onesided[7], c.onesided[8], c.onesided[9], c.onesided[10],
                        c.onesided[11], alpha, mu, lambda, met, jac, uacc, c.onesided.data(),
                        cof + sw4ck::kAcofNoGp, cof + sw4ck::kBope, cof + sw4ck::kGhcofNoGp,
                        cof + sw4ck::kAcofNoGp, cof + sw4ck::kGhcofNoGp, strides,
                        strides + sw4ck::stretching_y(c), c.onesided[12], '-');
      check(cudaDeviceSynchronize(), "the kernels");
    }
    check(cudaMemcpy(uacc_host.data(), uacc, uacc_host.size() * sizeof(double),
                     cudaMemcpyDeviceToHost),
          "cudaMemcpy");
    std::cout << "Error = " << sw4ck::error_percent(i, c.at("a_Uacc")) << " %\n";
    out.write(reinterpret_cast<const char*>(uacc_host.data()),
              static_cast<std::streamsize>(uacc_host.size() * sizeof(double)));
    for (double* d : {alpha, mu, lambda, met, jac, uacc, strides}) {
      cudaFree(d);
    }
  }
  cudaFree(cof);
  std::printf("Uploads of a_Uacc %f (ms in all)\n", upload_ms);
  return 0;
}
