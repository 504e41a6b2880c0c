#include "backends/kit/compile_failure.hpp"

#include <fmt/format.h>

#include <map>

namespace kjit::backend {

namespace {

/// A note that says where code was instantiated or called from (Clang's "in instantiation of
/// ... requested here", NVRTC's "detected during instantiation of").
bool is_instantiation(const std::string& note) {
  return note.find("requested here") != std::string::npos ||
         note.find("instantiation of") != std::string::npos;
}

/// An error in a file the user did not write (kjit's headers, a template's definition) that a
/// note places in the user's code ("in instantiation of ... requested here"): the same error at
/// the first such place, where the user can act, naming where the compiler found it.
std::vector<LocatedDiagnostic> at_the_users_code(const std::vector<LocatedDiagnostic>& in) {
  std::vector<LocatedDiagnostic> out;
  for (std::size_t i = 0; i < in.size(); ++i) {
    const LocatedDiagnostic& d = in[i];
    if (d.diagnostic.severity == Diagnostic::Severity::error && !d.in_user_file && !d.kernel) {
      for (std::size_t j = i + 1;
           j < in.size() && in[j].diagnostic.severity == Diagnostic::Severity::note; ++j) {
        if (in[j].in_user_file && is_instantiation(in[j].diagnostic.message)) {
          LocatedDiagnostic moved = in[j];
          moved.diagnostic.severity = Diagnostic::Severity::error;
          moved.diagnostic.message = d.diagnostic.file.empty()
                                         ? d.diagnostic.message
                                         : fmt::format("{} (at {}:{})", d.diagnostic.message,
                                                       d.diagnostic.file, d.diagnostic.line);
          out.push_back(std::move(moved));
          break;
        }
      }
    }
    out.push_back(d);
  }
  return out;
}

/// `notes` after the last error and the notes that go with it (before warnings, which would end
/// what a message lists with that error).
void insert_after_last_error(std::vector<Diagnostic>& diagnostics,
                             const std::vector<Diagnostic>& notes) {
  std::size_t at = diagnostics.size();
  for (std::size_t i = diagnostics.size(); i-- > 0;) {
    if (diagnostics[i].severity == Diagnostic::Severity::error) {
      at = i + 1;
      while (at < diagnostics.size() && diagnostics[at].severity == Diagnostic::Severity::note) {
        ++at;
      }
      break;
    }
  }
  diagnostics.insert(diagnostics.begin() + static_cast<std::ptrdiff_t>(at), notes.begin(),
                     notes.end());
}

}  // namespace

void throw_compile_failure(const CompileRequest& request, const std::string& device,
                           const std::vector<LocatedDiagnostic>& given, const std::string& log,
                           const std::vector<Diagnostic>& notes) {
  const std::vector<LocatedDiagnostic> diagnostics = at_the_users_code(given);
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
    insert_after_last_error(user, notes);
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
  insert_after_last_error(all, notes);
  throw CompileError(request.program_name, device, std::move(all), log);
}

}  // namespace kjit::backend
