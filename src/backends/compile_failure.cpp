#include "backends/compile_failure.hpp"

#include <fmt/format.h>

#include <map>

namespace kjit::backend {

void throw_compile_failure(const CompileRequest& request, const std::string& device,
                           const std::vector<LocatedDiagnostic>& diagnostics,
                           const std::string& log) {
  std::vector<Diagnostic> user;
  std::vector<Diagnostic> all;
  std::map<std::size_t, std::string> kernel_reasons;  // the first error of each kernel name
  bool user_error = false;
  for (const LocatedDiagnostic& d : diagnostics) {
    const bool is_error = d.diagnostic.severity == Diagnostic::Severity::error;
    if (d.in_user_file) {
      user_error = user_error || is_error;
      user.push_back(d.diagnostic);
    } else if (is_error && d.kernel && *d.kernel < request.kernel_names.size()) {
      kernel_reasons.emplace(*d.kernel, d.diagnostic.message);
    }
    all.push_back(d.diagnostic);
  }
  if (user_error) {
    throw CompileError(request.program_name, device, std::move(user), log);
  }
  if (!kernel_reasons.empty()) {
    std::vector<std::string> names;
    std::vector<std::string> reasons;
    for (const auto& [index, reason] : kernel_reasons) {
      names.push_back(fmt::format("'{}'", request.kernel_names[index]));
      reasons.push_back(reason);
    }
    throw KernelNotFoundError(fmt::format(
        "kjit: program '{}' has no kernel {} that {} can compile ({})", request.program_name,
        fmt::join(names, ", "), device, fmt::join(reasons, "; ")));
  }
  throw CompileError(request.program_name, device, std::move(all), log);
}

}  // namespace kjit::backend
