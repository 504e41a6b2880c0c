// Must not compile: a value that does not convert to the parameter.
#include <kjit/kjit.hpp>
struct Opaque {};
void f(kjit::Kernel<int, int, float> k) { k.launch(kjit::LaunchConfig{}, 1, 2, Opaque{}); }
