#include "core/tooling/offline_compilers.hpp"

#include "core/backend_registry.hpp"

#include <kjit/error.hpp>

#include <fmt/format.h>

namespace kjit::tooling {

struct OfflineCompilers::Backends {
  std::vector<detail::BackendSlot> slots = detail::create_backends();
};

OfflineCompilers::OfflineCompilers() : backends_(std::make_unique<Backends>()) {}

OfflineCompilers::~OfflineCompilers() = default;

backend::Compiler& OfflineCompilers::compiler(const std::string& target,
                                              const backend::CompileRequest& request) {
  const bool bitcode = request.input == backend::InputKind::bitcode;
  const std::lock_guard lock(mutex_);
  auto& slot = compilers_[{target, bitcode}];
  if (!slot) {
    const auto colon = target.find(':');
    const std::string backend_name = target.substr(0, colon);
    const std::string arch = colon == std::string::npos ? "" : target.substr(colon + 1);
    for (auto& b : backends_->slots) {
      if (to_string(b.kind) != backend_name) {
        continue;
      }
      if (!b.backend) {
        throw ConfigError(fmt::format(
            "kjit: target '{}': the {} backend is not built into this kjit", target, backend_name));
      }
      slot =
          bitcode ? b.backend->offline_bitcode_compiler(arch) : b.backend->offline_compiler(arch);
    }
    if (!slot) {
      throw ConfigError(fmt::format(
          "kjit: '{}' is not a target; use cpu, cuda:sm_XX, cuda:compute_XX or hip:gfxNNN",
          target));
    }
  }
  return *slot;
}

}  // namespace kjit::tooling
