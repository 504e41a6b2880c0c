// Must not compile: a buffer of int for a float* parameter.
#include <kjit/kjit.hpp>
void f(kjit::Kernel<int, float*> k, kjit::DeviceBuffer<int>& b) { k.launch(kjit::LaunchConfig{}, 1, b); }
