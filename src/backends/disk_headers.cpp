#include "backends/disk_headers.hpp"

#include "backends/host_code.hpp"
#include "backends/kernel_headers.hpp"
#include "jit/cache/include_scan.hpp"
#include "jit/file_text.hpp"

#include <algorithm>

namespace kjit::backend {

std::vector<DiskHeader> disk_headers(const CompileRequest& request) {
  std::vector<DiskHeader> found;
  if (request.input != InputKind::source) {
    return found;
  }
  const std::vector<KernelHeader> kjit_headers = kernel_headers_besides(request.headers);
  for (auto& [name, path] : detail::cache::scan_includes(request).found) {
    const bool given = std::any_of(request.headers.begin(), request.headers.end(),
                                   [&](const auto& h) { return h.first == name; });
    const bool kjits = std::any_of(kjit_headers.begin(), kjit_headers.end(),
                                   [&](const KernelHeader& h) { return h.name == name; });
    if (given || kjits) {
      continue;
    }
    if (std::optional<std::string> text = detail::read_file(path)) {
      found.push_back({name, path, erase_host_functions(*text)});
    }
  }
  return found;
}

}  // namespace kjit::backend
