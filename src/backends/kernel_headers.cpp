#include "backends/kernel_headers.hpp"

#include <algorithm>

namespace kjit::backend {

std::vector<KernelHeader> kernel_headers_besides(
    const std::vector<std::pair<std::string, std::string>>& given) {
  std::vector<KernelHeader> out;
  for (const KernelHeader& h : kernel_headers()) {
    if (std::none_of(given.begin(), given.end(),
                     [&](const auto& g) { return g.first == h.name; })) {
      out.push_back(h);
    }
  }
  return out;
}

bool is_kernel_header(std::string_view file,
                      const std::vector<std::pair<std::string, std::string>>& given) {
  const auto named = [&](const KernelHeader& h) { return h.name == file; };
  const auto headers = kernel_headers();
  return std::any_of(headers.begin(), headers.end(), named) &&
         std::none_of(given.begin(), given.end(), [&](const auto& g) { return g.first == file; });
}

}  // namespace kjit::backend
