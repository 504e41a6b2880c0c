// Must not compile: a host span for a graph's launch (it would be staged at each launch).
#include <kjit/kjit.hpp>

#include <span>
void f(const kjit::Graph& graph, kjit::Kernel<float*, int> k, std::span<float> host) {
  graph.set_arguments(0, k, host, 4);
}
