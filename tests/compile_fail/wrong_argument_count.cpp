// Must not compile: three arguments for two parameters.
#include <kjit/kjit.hpp>
void f(kjit::Kernel<int, int> k) { k.launch(kjit::LaunchConfig{}, 1, 2, 3); }
