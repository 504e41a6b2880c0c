#include "source/kernel_headers.hpp"

#include <algorithm>

namespace kjit::source {

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

std::optional<std::string_view> named_header_of(std::string_view file) {
  // hipRTC (comgr) writes the headers it is given into a temporary ".../comgr-XXXXXX/include/".
  constexpr std::string_view kComgr = "/comgr-";
  constexpr std::string_view kInclude = "/include/";
  const std::size_t comgr = file.find(kComgr);
  if (comgr == std::string_view::npos) {
    return file;
  }
  const std::size_t include = file.find(kInclude, comgr);
  if (include == std::string_view::npos) {
    return std::nullopt;
  }
  return file.substr(include + kInclude.size());
}

std::optional<std::string> kernel_header_display(
    std::string_view file, const std::vector<std::pair<std::string, std::string>>& given) {
  const std::optional<std::string_view> named = named_header_of(file);
  if (!named) {
    return std::nullopt;
  }
  const std::string_view name = *named;
  const auto headers = kernel_headers();
  const bool kjit = std::any_of(headers.begin(), headers.end(),
                                [&](const KernelHeader& h) { return h.name == name; });
  const bool theirs =
      std::any_of(given.begin(), given.end(), [&](const auto& g) { return g.first == name; });
  if (!kjit || theirs) {
    return std::nullopt;
  }
  return "<kjit>/" + std::string(name);
}

}  // namespace kjit::source
