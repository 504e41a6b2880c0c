// The nvcc build's output of wsm5, for comparison with kjit's: upstream/main.cu's kernel, built
// ahead of time, launched as upstream/main.cu launches it (inputs made and uploaded by utils.h's
// TODEV before each launch), with the last launch's th, q, qc, qi, qr and qs written to a file, as
// kjit_wsm5 --out writes them (kjit_wsm5.cpp says why not rain and snow). The upstream program
// itself prints only its time and a checksum of rain and snow; scripts/real-programs.sh times it
// as shipped. The grid of columns is upstream's (60 x 46) unless given.
// First: the upstream headers define short macros (alpha, g, pi, ...) that the standard's use.
#include <fstream>
#include <initializer_list>

#define main upstream_main
#include "upstream/main.cu"
#undef main
#include "harness_arrays.h"

int main(int argc, char* argv[]) {
  if (argc != 3 && argc != 5) {
    printf("usage: %s <repeat> <output file> [<nx (60)> <ny (46)>]\n", argv[0]);
    return 2;
  }
  const int repeat = atoi(argv[1]);
  const int nx = argc == 5 ? atoi(argv[3]) : 60;
  const int ny = argc == 5 ? atoi(argv[4]) : 46;
  WSM5_HOST_ARRAYS();
  const float delt = 10.f;
  const int kpe = 2;
  const int d3 = nx * ny * (kpe + 1);
  const int d2 = nx * ny;
  const int dipe = nx, djpe = ny, dkpe = kpe + 1;
  const dim3 dimBlock(XXX, YYY);
  const dim3 dimGrid(nx / XXX + (nx % XXX != 0 ? 1 : 0), ny / YYY + (ny % YYY != 0 ? 1 : 0));
  std::ofstream file(argv[2], std::ios::binary);
  for (int it = 0; it < repeat; it++) {  // TODEV's loop counts with i
    WSM5_UPLOAD_ALL();
    wsm<<<dimGrid, dimBlock>>>(th_d, pii_d, q_d, qc_d, qi_d, qr_d, qs_d, den_d, p_d, delz_d, rain_d,
                               rainncv_d, sr_d, snow_d, snowncv_d, delt, 1, dipe, 1, djpe, 1, dkpe,
                               1, dipe, 1, djpe, 1, dkpe, 1, dipe, 1, djpe, 1, dkpe);
    if (cudaDeviceSynchronize() != cudaSuccess) {
      printf("the kernel failed\n");
      return 1;
    }
    if (it == repeat - 1) {
      WSM5_WRITE_STATE(file);
    }
    WSM5_FREE_ALL();
  }
  return 0;
}
