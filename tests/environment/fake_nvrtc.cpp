// A libnvrtc.so.13 with only NVRTC's version and error text: a compiler library that is present
// but lacks what kjit needs must fail the compile with a message that names what is missing.
extern "C" {
int nvrtcVersion(int* major, int* minor) {
  *major = 13;
  *minor = 0;
  return 0;
}
const char* nvrtcGetErrorString(int /*result*/) {
  return "fake NVRTC";
}
}
