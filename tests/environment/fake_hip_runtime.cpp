// A libamdhip64.so.7 with only the runtime's first two functions: a HIP runtime that is present
// but lacks what kjit needs must give a device error that names what is missing, not a crash.
// Loading it says so, so that a test can check that a process never loaded it.
#include <cstdio>

__attribute__((constructor)) static void say_loaded() {
  std::fputs("kjit test: fake libamdhip64.so.7 loaded\n", stderr);
}

extern "C" {
int hipInit(unsigned flags) {
  return flags == 0 ? 0 : 1;
}
int hipRuntimeGetVersion(int* version) {
  *version = 70000000;
  return 0;
}
}
