// A libcuda.so.1 with only two of the driver's functions: a vendor library that is present but
// lacks what kjit needs must give a device error that names what is missing, not a crash.
// Loading it says so, so that a test can check that a process never loaded it.
#include <cstdio>

__attribute__((constructor)) static void say_loaded() {
  std::fputs("kjit test: fake libcuda.so.1 loaded\n", stderr);
}

extern "C" {
int cuInit(unsigned flags) {
  return flags == 0 ? 0 : 1;
}
int cuDriverGetVersion(int* version) {
  *version = 13000;
  return 0;
}
}
