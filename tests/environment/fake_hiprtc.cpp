// A libhiprtc.so.7 with only hipRTC's version and error text: a compiler library that is present
// but lacks what kjit needs must fail the compile with a message that names what is missing.
extern "C" {
int hiprtcVersion(int* major, int* minor) {
  *major = 7;
  *minor = 0;
  return 0;
}
const char* hiprtcGetErrorString(int /*result*/) {
  return "fake hipRTC";
}
}
