// Must not compile: device memory for a by-value parameter.
#include <kjit/kjit.hpp>
void f(kjit::Kernel<int> k, kjit::DeviceBuffer<int>& b) { k.launch(kjit::LaunchConfig{}, b); }
