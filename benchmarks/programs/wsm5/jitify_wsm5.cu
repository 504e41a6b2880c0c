// The Jitify build's output and kernel time of wsm5, for comparison with the nvcc build's and
// kjit's: upstream-jitify/main.cu's kernel string, instantiated and launched through Jitify as
// upstream-jitify/main.cu does it (same JitCache, program, instantiate, configure and launch calls;
// inputs made and uploaded by utils.h's TODEV before each launch), with the last launch's th, q,
// qc, qi, qr and qs written to a file as nvcc_wsm5.cu writes them (kjit_wsm5.cpp says why not rain
// and snow). Upstream's program prints its checksum of rain and snow and a kernel time that
// averages every launch, the first included, whose instantiation compiles the kernel with NVRTC;
// this one prints the first launch's time and, without a colon, the average of the others (the
// same span of code timed: instantiation, launch and synchronisation). scripts/real-programs.sh
// times upstream's program as shipped. Jitify reads the spt.h and constants.h that the kernel
// string includes from the working directory, so it runs in a folder that holds them. The grid of
// columns is upstream's (60 x 46) unless given.
// upstream-jitify/main.cu includes "../../external/jitify/jitify.hpp" (Proteus's layout): the
// build names, with -I, a folder two levels below one that holds external/jitify/jitify.hpp.
#include <fstream>
#include <initializer_list>
#include <stdexcept>

#define main upstream_main
#include "upstream-jitify/main.cu"
#undef main
#include "harness_arrays.h"

int main(int argc, char* argv[]) {
  if ((argc != 3 && argc != 5) || atoi(argv[1]) < 2) {
    printf("usage: %s <repeat (2 or more)> <output file> [<nx (60)> <ny (46)>]\n", argv[0]);
    return 2;
  }
  const int repeat = atoi(argv[1]);
  const int nx = argc == 5 ? atoi(argv[3]) : 60;
  const int ny = argc == 5 ? atoi(argv[4]) : 46;
  WSM5_HOST_ARRAYS();
  float delt = 10.f;
  const int kpe = 2;
  const int d3 = nx * ny * (kpe + 1);
  const int d2 = nx * ny;
  const int dipe = nx, djpe = ny, dkpe = kpe + 1;
  const dim3 dimBlock(XXX, YYY);
  const dim3 dimGrid(nx / XXX + (nx % XXX != 0 ? 1 : 0), ny / YYY + (ny % YYY != 0 ? 1 : 0));
  std::ofstream file(argv[2], std::ios::binary);
  long first = 0, time = 0;
  try {
    for (int it = 0; it < repeat; it++) {  // TODEV's loop counts with i
      WSM5_UPLOAD_ALL();

      cudaDeviceSynchronize();

      static jitify::JitCache kernel_cache;
      jitify::Program program =
          kernel_cache.program(kernel_h, {}, {"-DMKX=4", "-std=c++20", "--time=jitify.trace"});

      const auto start = std::chrono::steady_clock::now();
      // upstream's bounds: ids, ide, jds, jde, kds, kde; ims, ...; ips, ...
      const CUresult launched =
          program.kernel("wsm")
              .instantiate(1, dipe, 1, djpe, 1, dkpe, 1, dipe, 1, djpe, 1, dkpe, 1, dipe, 1, djpe,
                           1, dkpe)
              .configure(dimGrid, dimBlock)
              .launch(th_d, pii_d, q_d, qc_d, qi_d, qr_d, qs_d, den_d, p_d, delz_d, rain_d,
                      rainncv_d, sr_d, snow_d, snowncv_d, delt);
      const cudaError_t synchronised = cudaDeviceSynchronize();
      const auto end = std::chrono::steady_clock::now();
      if (launched != CUDA_SUCCESS || synchronised != cudaSuccess) {
        printf("the kernel failed (launch: CUresult %d; synchronisation: %s)\n",
               static_cast<int>(launched), cudaGetErrorString(synchronised));
        return 1;
      }
      const long ns = std::chrono::duration_cast<std::chrono::nanoseconds>(end - start).count();
      if (it == 0) {
        first = ns;  // NVRTC compiles the instantiation in it
      } else {
        time += ns;
      }

      if (it == repeat - 1) {
        WSM5_WRITE_STATE(file);
      }
      WSM5_FREE_ALL();
    }
  } catch (const std::exception& e) {  // Jitify throws when NVRTC or the module load fails
    printf("Jitify failed: %s\n", e.what());
    return 1;
  }
  if (!file.flush()) {
    printf("could not write %s\n", argv[2]);
    return 1;
  }
  printf("First launch %f (ms)\n", first * 1e-6);
  printf("Average kernel execution time %f (ms)\n", time * 1e-6 / (repeat - 1));
  return 0;
}
