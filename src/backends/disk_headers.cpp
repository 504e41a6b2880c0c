#include "backends/disk_headers.hpp"

#include "backends/host_code.hpp"
#include "backends/kernel_headers.hpp"
#include "jit/cache/include_scan.hpp"
#include "jit/file_text.hpp"

#include <algorithm>

namespace kjit::backend {

namespace {

std::vector<DiskHeader> disk_headers(const CompileRequest& request,
                                     const std::vector<KernelHeader>& kjit_headers) {
  std::vector<DiskHeader> found;
  if (request.input != InputKind::source) {
    return found;
  }
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

}  // namespace

NamedHeaders::NamedHeaders(const CompileRequest& request) {
  const std::vector<KernelHeader> kjit_headers = kernel_headers_besides(request.headers);
  disk_ = disk_headers(request, kjit_headers);
  erased_.reserve(request.headers.size());  // no reallocation: texts_ points into it
  for (const auto& [name, text] : request.headers) {
    texts_.push_back(erased_.emplace_back(erase_host_functions(text)).c_str());
    names_.push_back(name.c_str());
  }
  for (const DiskHeader& h : disk_) {
    texts_.push_back(h.text.c_str());
    names_.push_back(h.name.c_str());
  }
  // kjit's: NUL-terminated string literals, as the compilers need.
  for (const KernelHeader& h : kjit_headers) {
    texts_.push_back(h.text.data());
    names_.push_back(h.name.data());
  }
}

std::optional<std::filesystem::path> NamedHeaders::disk_path(std::string_view file) const {
  const std::optional<std::string_view> name = named_header_of(file);
  if (!name) {
    return std::nullopt;
  }
  const auto found = std::find_if(disk_.begin(), disk_.end(),
                                  [&](const DiskHeader& h) { return h.name == *name; });
  if (found == disk_.end()) {
    return std::nullopt;
  }
  return found->path.lexically_normal();
}

}  // namespace kjit::backend
