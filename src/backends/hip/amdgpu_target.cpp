#include "backends/hip/amdgpu_target.hpp"

#include <kjit/error.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <utility>

namespace kjit::hip {

namespace {

// From LLVM's AMDGPUUsage processor table (LLVM 19): the processors with each target feature.
constexpr std::array kSrameccProcessors = {"gfx906", "gfx908", "gfx90a", "gfx940",
                                           "gfx941", "gfx942", "gfx950"};
constexpr std::array kXnackProcessors = {
    "gfx801", "gfx810", "gfx900", "gfx902", "gfx904", "gfx906",  "gfx908",  "gfx909",  "gfx90a",
    "gfx90c", "gfx940", "gfx941", "gfx942", "gfx950", "gfx1010", "gfx1011", "gfx1012", "gfx1013"};

template <std::size_t N>
bool contains(const std::array<const char*, N>& list, std::string_view name) {
  return std::any_of(list.begin(), list.end(), [&](const char* p) { return name == p; });
}

bool valid_processor(std::string_view p) {
  if (!p.starts_with("gfx") || p.size() < 6 || p.size() > 8) {
    return false;
  }
  return std::all_of(p.begin() + 3, p.end(), [](char c) {
    return std::isdigit(static_cast<unsigned char>(c)) != 0 || (c >= 'a' && c <= 'f');
  });
}

struct Parsed {
  AmdgpuTarget target;
  std::string problem;  // empty when the text parsed
  bool unsupported_feature_only = false;
};

Parsed parse(std::string_view text) {
  Parsed out;
  const auto fail = [&](std::string problem) {
    out.problem = std::move(problem);
    out.unsupported_feature_only = false;
    return out;
  };
  const auto colon = text.find(':');
  const std::string_view processor = text.substr(0, colon);
  if (!valid_processor(processor)) {
    return fail(
        fmt::format("'{}' is not an AMD GPU processor name (gfx followed by 3 to 5 hex "
                    "digits, as in gfx90a or gfx1030)",
                    processor));
  }
  out.target.processor = std::string(processor);
  if (colon == std::string_view::npos) {
    return out;
  }
  if (text.back() == ':') {
    return fail("it ends with ':'");
  }
  bool seen_sramecc = false;
  bool seen_xnack = false;
  std::string_view rest = text.substr(colon + 1);
  while (!rest.empty()) {
    const auto next = rest.find(':');
    const std::string_view feature = rest.substr(0, next);
    rest = next == std::string_view::npos ? "" : rest.substr(next + 1);
    const std::string_view name = feature.substr(0, feature.empty() ? 0 : feature.size() - 1);
    const bool sign = !feature.empty() && (feature.back() == '+' || feature.back() == '-');
    if (!sign || (name != "sramecc" && name != "xnack")) {
      return fail(fmt::format("'{}' is not a target feature (sramecc+, sramecc-, xnack+ or xnack-)",
                              feature));
    }
    const bool is_sramecc = name == "sramecc";
    bool& seen = is_sramecc ? seen_sramecc : seen_xnack;
    if (seen) {
      return fail(fmt::format("'{}' is set twice", name));
    }
    seen = true;
    if (!(is_sramecc ? supports_sramecc(processor) : supports_xnack(processor))) {
      if (out.problem.empty()) {
        out.problem = fmt::format("{} has no '{}' setting", processor, name);
        out.unsupported_feature_only = true;
      }
      continue;
    }
    (is_sramecc ? out.target.sramecc : out.target.xnack) = feature.back() == '+';
  }
  return out;
}

}  // namespace

std::string AmdgpuTarget::id() const {
  std::string out = processor;
  if (sramecc) {
    out += *sramecc ? ":sramecc+" : ":sramecc-";
  }
  if (xnack) {
    out += *xnack ? ":xnack+" : ":xnack-";
  }
  return out;
}

bool supports_sramecc(std::string_view processor) {
  return contains(kSrameccProcessors, processor);
}

bool supports_xnack(std::string_view processor) {
  return contains(kXnackProcessors, processor);
}

AmdgpuTarget parse_amdgpu_target(std::string_view text) {
  Parsed p = parse(text);
  if (!p.problem.empty()) {
    throw ConfigError(fmt::format("kjit: '{}' is not an AMD GPU target: {}", text, p.problem));
  }
  return p.target;
}

AmdgpuTarget device_amdgpu_target(std::string_view gcn_arch_name) {
  Parsed p = parse(gcn_arch_name);
  if (!p.problem.empty() && !p.unsupported_feature_only) {
    throw BackendError(
        fmt::format("kjit: the HIP runtime reports the arch '{}', which kjit cannot "
                    "read: {}",
                    gcn_arch_name, p.problem));
  }
  return p.target;
}

bool is_known(const std::vector<std::string>& known, std::string_view processor) {
  return std::find(known.begin(), known.end(), processor) != known.end();
}

}  // namespace kjit::hip
