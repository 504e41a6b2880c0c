// Must not compile: a raw host pointer for a kernel pointer parameter.
#include <kjit/kjit.hpp>
void f(kjit::Kernel<float, const float*, float*, int> k, float* host) {
  k.launch(kjit::LaunchConfig{}, 2.0f, host, host, 4);
}
