// Must not compile: a const buffer for a T* parameter (the kernel could write through it).
#include <kjit/kjit.hpp>
void f(kjit::Kernel<float*> k, const kjit::DeviceBuffer<float>& b) { k.launch(kjit::LaunchConfig{}, b); }
